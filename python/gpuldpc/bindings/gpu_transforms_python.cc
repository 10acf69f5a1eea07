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
/* BINDTOOL_HEADER_FILE(engine/gpu_transforms.h)                                   */
/* BINDTOOL_HEADER_FILE_HASH(806d59f88f6b86858907f9f7dea8693d) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "vector_batch.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>

using namespace gr::gpuldpc;

void bind_gpu_transforms(py::module& m)
{
    m.def("gpu_buffer_items",
          &gpu_buffer_items,
          py::arg("item_bytes"),
          "Items of the output-buffer floor a block on a GPU engine sets: as many "
          "as fit 8 MiB, at least 2.");
    py::class_<fwht_cuda>(
        m,
        "fwht_cuda",
        "Fast Walsh-Hadamard transform on a CUDA device (host arrays in "
        "and out); raises RuntimeError without CUDA.")
        .def(py::init([](size_t n,
                         const std::string& normalization,
                         const std::string& ordering,
                         int device,
                         size_t vectors_per_chunk) {
                 return std::make_unique<fwht_cuda>(
                     n,
                     parse_fwht_normalization(normalization),
                     parse_fwht_ordering(ordering),
                     device,
                     vectors_per_chunk,
                     gpu_tuning::from_environment());
             }),
             py::arg("n"),
             py::arg("normalization") = "none",
             py::arg("ordering") = "natural",
             py::arg("device") = 0,
             py::arg("vectors_per_chunk") = 0)
        .def_property_readonly("device_name", &fwht_cuda::device_name)
        .def_property_readonly("shared_memory_limit", &fwht_cuda::shared_memory_limit)
        .def_property_readonly("shared_memory_bytes", &fwht_cuda::shared_memory_bytes)
        .def_property_readonly("variant", &fwht_cuda::variant)
        .def(
            "execute",
            [](fwht_cuda& t, py::object x) {
                return pyargs::apply_to_vectors<float>(
                    x,
                    "execute",
                    t.length(),
                    pyargs::gil::release,
                    [&t](const float* in, float* out, size_t v) {
                        t.execute(in, out, v);
                    });
            },
            py::arg("x"),
            "x: float32 (vectors, length) or (length,); other real integer or floating "
            "dtypes are rounded to float32, complex or bool raise TypeError.");
    py::class_<fft_cuda>(m,
                         "fft_cuda",
                         "Batched cuFFT with fft_vcc's window and shift (host arrays in "
                         "and out); raises RuntimeError without CUDA.")
        .def(py::init([](size_t n,
                         bool forward,
                         py::object window_arg,
                         bool shift,
                         int device,
                         size_t vectors_per_chunk) {
                 const auto w =
                     pyargs::array_arg<float>(window_arg, "fft_cuda", "window");
                 const std::vector<float> window(w.data(), w.data() + w.size());
                 return std::make_unique<fft_cuda>(n,
                                                   forward,
                                                   window,
                                                   shift,
                                                   device,
                                                   vectors_per_chunk,
                                                   gpu_tuning::from_environment());
             }),
             py::arg("n"),
             py::arg("forward") = true,
             py::arg("window") = py::list(),
             py::arg("shift") = false,
             py::arg("device") = 0,
             py::arg("vectors_per_chunk") = 0)
        .def_property_readonly("device_name", &fft_cuda::device_name)
        .def_property_readonly("extra_passes", &fft_cuda::extra_passes)
        .def_property_readonly("shared_memory_limit", &fft_cuda::shared_memory_limit)
        .def_property_readonly("shared_memory_bytes", &fft_cuda::shared_memory_bytes)
        .def_property_readonly("variant", &fft_cuda::variant)
        .def(
            "execute",
            [](fft_cuda& t, py::object x) {
                return pyargs::apply_to_vectors<std::complex<float>>(
                    x,
                    "execute",
                    t.length(),
                    pyargs::gil::release,
                    [&t](const std::complex<float>* in,
                         std::complex<float>* out,
                         size_t v) { t.execute(in, out, v); });
            },
            py::arg("x"),
            "x: complex64 (vectors, length) or (length,); complex128 and real integer "
            "or floating dtypes are converted, bool raises TypeError.");
}
