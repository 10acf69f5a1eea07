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
/* BINDTOOL_HEADER_FILE(engine/transforms.h)                                            */
/* BINDTOOL_HEADER_FILE_HASH(307cd154ee778036a3999a6bcaa5a3db) */
/***********************************************************************************/

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <type_traits>

namespace py = pybind11;

#include "vector_batch.h"
#include <gnuradio/gpuldpc/engine/transforms.h>

namespace {
using namespace gr::gpuldpc;

template <typename T>
void bind_spectral(py::module& m, const char* name)
{
    py::class_<spectral_transform_cpu<T>>(m, name)
        .def(py::init([](size_t n,
                         const std::string& kind,
                         bool forward,
                         const std::string& algorithm) {
                 return spectral_transform_cpu<T>(n,
                                                  parse_spectral_kind(kind),
                                                  forward,
                                                  parse_butterfly_algorithm(algorithm));
             }),
             py::arg("n"),
             py::arg("kind") = "walsh",
             py::arg("forward") = true,
             py::arg("algorithm") = "cooley-tukey")
        .def_property_readonly("length", &spectral_transform_cpu<T>::length)
        .def(
            "execute",
            [](spectral_transform_cpu<T>& t, py::object x) {
                return pyargs::apply_to_vectors<T>(
                    x,
                    "execute",
                    t.length(),
                    pyargs::gil::keep,
                    [&t](const T* in, T* out, size_t v) { t.execute(in, out, v); });
            },
            py::arg("x"),
            std::is_same_v<T, float>
                ? "x: float32 (vectors, length) or (length,); other real integer or "
                  "floating dtypes are rounded to float32, complex or bool raise "
                  "TypeError."
                : "x: int32 (vectors, length) or (length,); other integer dtypes are "
                  "taken when every value fits int32 (else ValueError), floating, "
                  "complex or bool raise TypeError.");
}
} // namespace

void bind_transforms(py::module& m)
{
    py::class_<fwht_cpu>(
        m, "fwht_cpu", "The CPU fast Walsh-Hadamard transform behind the fwht block.")
        .def(py::init([](size_t n,
                         const std::string& normalization,
                         const std::string& ordering) {
                 return fwht_cpu(n,
                                 parse_fwht_normalization(normalization),
                                 parse_fwht_ordering(ordering));
             }),
             py::arg("n"),
             py::arg("normalization") = "none",
             py::arg("ordering") = "natural")
        .def_property_readonly("length", &fwht_cpu::length)
        .def_property_readonly("scale", &fwht_cpu::scale)
        .def(
            "execute",
            [](const fwht_cpu& t, py::object x) {
                return pyargs::apply_to_vectors<float>(
                    x,
                    "execute",
                    t.length(),
                    pyargs::gil::keep,
                    [&t](const float* in, float* out, size_t v) {
                        t.execute(in, out, v);
                    });
            },
            py::arg("x"),
            "x: float32 (vectors, length) or (length,); other real integer or floating "
            "dtypes are rounded to float32, complex or bool raise TypeError.");
    bind_spectral<int32_t>(m, "spectral_transform_cpu_ii");
    bind_spectral<float>(m, "spectral_transform_cpu_ff");
}
