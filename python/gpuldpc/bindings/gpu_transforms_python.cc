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
/* BINDTOOL_HEADER_FILE_HASH(1dcc7ba09f9b31baa69077284ca199c9) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "array_args.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>

namespace {
using namespace gr::gpuldpc;

template <typename T, typename F>
py::array_t<T> apply(py::handle x_arg, const char* func, size_t n, F&& run)
{
    const auto x = pyargs::array_arg<T>(x_arg, func, "x");
    if (x.ndim() < 1 || x.ndim() > 2 || size_t(x.shape(x.ndim() - 1)) != n)
        throw py::value_error("input must have shape (vectors, " + std::to_string(n) +
                              ") or (" + std::to_string(n) + ",)");
    py::array_t<T> out(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const size_t vectors = x.ndim() == 2 ? size_t(x.shape(0)) : 1;
    const T* in = x.data();
    T* o = out.mutable_data();
    {
        py::gil_scoped_release release;
        run(in, o, vectors);
    }
    return out;
}
} // namespace

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
                     vectors_per_chunk);
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
                return apply<float>(x,
                                    "execute",
                                    t.length(),
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
                 return std::make_unique<fft_cuda>(
                     n, forward, window, shift, device, vectors_per_chunk);
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
                return apply<std::complex<float>>(
                    x,
                    "execute",
                    t.length(),
                    [&t](const std::complex<float>* in,
                         std::complex<float>* out,
                         size_t v) { t.execute(in, out, v); });
            },
            py::arg("x"),
            "x: complex64 (vectors, length) or (length,); complex128 and real integer "
            "or floating dtypes are converted, bool raises TypeError.");
}
