/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/***********************************************************************************/
/* This file is maintained by hand; the hash below is the MD5 of the header it    */
/* binds, so that the build notices when the header changes.                       */
/***********************************************************************************/

/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(soft_demapper_cf.h)                                        */
/* BINDTOOL_HEADER_FILE_HASH(cba0c1c82f33f4977fadeff5d7b376a4) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/soft_demapper_cf.h>

void bind_soft_demapper_cf(py::module& m)
{
    using gr::gpuldpc::soft_demapper_cf;
    py::class_<soft_demapper_cf,
               gr::sync_interpolator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<soft_demapper_cf>>(
        m,
        "soft_demapper_cf",
        "Soft demapper: complex symbols in, bit LLRs log(P(1)/P(0)) out "
        "(bits_per_symbol a symbol, MSB first) for complex AWGN of variance "
        "noise_var = E|n|^2; constellation bpsk, qpsk, 8psk, 16qam, 64qam, 256qam "
        "(Gray, unit energy); demapping 'exact' or 'max-log'; noise_var_tag_key: a "
        "tag key whose value replaces noise_var from its symbol on.")
        .def(py::init(&soft_demapper_cf::make),
             py::arg("constellation") = "qpsk",
             py::arg("demapping") = "exact",
             py::arg("noise_var") = 1.0f,
             py::arg("noise_var_tag_key") = "",
             py::arg("device") = "auto")
        .def("set_noise_var", &soft_demapper_cf::set_noise_var, py::arg("noise_var"))
        .def("device_name", &soft_demapper_cf::device_name)
        .def("noise_var", &soft_demapper_cf::noise_var)
        .def("bits_per_symbol", &soft_demapper_cf::bits_per_symbol)
        .def("bad_noise_var_tags", &soft_demapper_cf::bad_noise_var_tags);
}
