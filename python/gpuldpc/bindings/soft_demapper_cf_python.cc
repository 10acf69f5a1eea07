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
/* BINDTOOL_HEADER_FILE_HASH(537f2cd77babf6a1b47b7d0718915593) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/digital/constellation.h>
#include <gnuradio/gpuldpc/soft_demapper_cf.h>

void bind_soft_demapper_cf(py::module& m)
{
    using gr::gpuldpc::soft_demapper_cf;
    // GNU Radio's constellation objects convert through gnuradio.digital's
    // registered type
    py::module::import("gnuradio.digital");
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
        "noise_var = E|n|^2. constellation: a digital.constellation object (its "
        "points() and bit labels, as constellation_soft_decoder_cf reads them), or a "
        "name: 'bpsk', 'qpsk', '8psk', '16qam' (GNU Radio's digital.constellation_* "
        "of those names), 'gpuldpc-bpsk', 'gpuldpc-qpsk', 'gpuldpc-8psk', "
        "'gpuldpc-16qam', 'gpuldpc-64qam', 'gpuldpc-256qam' (the module's Gray "
        "family of unit energy, the matched GF(q) mapping); demapping 'exact' or "
        "'max-log'; noise_var_tag_key: a tag key whose value replaces noise_var "
        "from its symbol on.")
        .def(py::init(&soft_demapper_cf::make),
             py::arg("constellation") = "qpsk",
             py::arg("demapping") = "exact",
             py::arg("noise_var") = 1.0f,
             py::arg("noise_var_tag_key") = "",
             py::arg("device") = "auto")
        .def(py::init(&soft_demapper_cf::make_from_constellation),
             py::arg("constellation"),
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
