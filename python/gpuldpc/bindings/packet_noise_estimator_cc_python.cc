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
/* BINDTOOL_HEADER_FILE(packet_noise_estimator_cc.h)                               */
/* BINDTOOL_HEADER_FILE_HASH(2b50de3d9d14e3cfda49abf686dfb108) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/packet_noise_estimator_cc.h>

void bind_packet_noise_estimator_cc(py::module& m)
{
    using gr::gpuldpc::packet_noise_estimator_cc;
    py::class_<packet_noise_estimator_cc,
               gr::block,
               gr::basic_block,
               std::shared_ptr<packet_noise_estimator_cc>>(
        m,
        "packet_noise_estimator_cc",
        "Tags each packet (length tag length_tag_key) with an estimate of its noise "
        "variance N0 = E|n|^2, as a tag noise_var_tag_key at its first symbol, for "
        "soft_demapper_cf's noise_var_tag_key. method 'decision' (mean |y - nearest "
        "point|^2; low where decisions go wrong), 'moments' (M2M4; unbiased at low "
        "SNR, spread growing with SNR) or 'auto' (decision at high SNR, else "
        "moments). Symbols pass through unchanged; malformed length tags, symbols "
        "outside packets and truncated packets are counted and skipped.")
        .def(py::init(&packet_noise_estimator_cc::make),
             py::arg("constellation") = "qpsk",
             py::arg("length_tag_key") = "packet_len",
             py::arg("noise_var_tag_key") = "noise_var",
             py::arg("method") = "auto")
        .def("last_noise_var", &packet_noise_estimator_cc::last_noise_var)
        .def("packets", &packet_noise_estimator_cc::packets)
        .def("unestimated_packets", &packet_noise_estimator_cc::unestimated_packets)
        .def("bad_packets", &packet_noise_estimator_cc::bad_packets)
        .def("missing_tag_items", &packet_noise_estimator_cc::missing_tag_items)
        .def("truncated_packets", &packet_noise_estimator_cc::truncated_packets)
        .def_readonly_static("min_noise_var", &packet_noise_estimator_cc::min_noise_var);
}
