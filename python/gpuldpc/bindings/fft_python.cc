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
/* BINDTOOL_HEADER_FILE(fft.h)                                            */
/* BINDTOOL_HEADER_FILE_HASH(fa0b69c88645ee3217b9af8ab66ea569) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "array_args.h"
#include <gnuradio/gpuldpc/fft.h>

void bind_fft(py::module& m)
{
    using gr::gpuldpc::fft;
    py::class_<fft, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<fft>>(
        m,
        "fft",
        "Batched FFT of complex vectors with fft.fft_vcc's conventions (window, shift, "
        "unnormalised inverse). window: empty or fft_size taps, real (a complex "
        "window raises TypeError).")
        .def(py::init([](int fft_size,
                         bool forward,
                         py::object window_arg,
                         bool shift,
                         int nthreads,
                         const std::string& device) {
                 const auto w =
                     gr::gpuldpc::pyargs::array_arg<float>(window_arg, "fft", "window");
                 return fft::make(fft_size,
                                  forward,
                                  std::vector<float>(w.data(), w.data() + w.size()),
                                  shift,
                                  nthreads,
                                  device);
             }),
             py::arg("fft_size"),
             py::arg("forward") = true,
             py::arg("window") = py::list(),
             py::arg("shift") = false,
             py::arg("nthreads") = 1,
             py::arg("device") = "auto")
        .def("device_name", &fft::device_name);
}
