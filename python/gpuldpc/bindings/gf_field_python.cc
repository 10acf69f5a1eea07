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
/* BINDTOOL_HEADER_FILE(engine/gf_field.h)                                         */
/* BINDTOOL_HEADER_FILE_HASH(b4a72e5f6660a5cf1189bd0c32ddfc67) */
/***********************************************************************************/

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/engine/gf_field.h>

namespace {

py::array_t<uint8_t> table_copy(const uint8_t* data, size_t rows, size_t cols)
{
    py::array_t<uint8_t> out(rows == 1 ? std::vector<size_t>{ cols }
                                       : std::vector<size_t>{ rows, cols });
    std::copy(data, data + rows * cols, out.mutable_data());
    return out;
}

uint8_t element(const gr::gpuldpc::gf_field& f, unsigned a, const char* arg)
{
    if (a >= f.q())
        throw py::value_error(std::string(arg) + "=" + std::to_string(a) +
                              " is not an element of GF(" + std::to_string(f.q()) +
                              "); allowed: 0.." + std::to_string(f.q() - 1));
    return uint8_t(a);
}

} // namespace

void bind_gf_field(py::module& m)
{
    using gr::gpuldpc::gf_field;
    py::class_<gf_field, std::shared_ptr<gf_field>>(
        m,
        "gf_field",
        "GF(2^m), m = 1..8, in polynomial representation (elements 0..q-1, "
        "addition = XOR).\n\ngf_field(m, poly=0): poly 0 selects the default "
        "primitive polynomial of degree m; a non-primitive poly raises ValueError.")
        .def(py::init<unsigned, unsigned>(), py::arg("m"), py::arg("poly") = 0)
        .def_static("default_polynomial", &gf_field::default_polynomial, py::arg("m"))
        .def_static(
            "is_primitive", &gf_field::is_primitive, py::arg("m"), py::arg("poly"))
        .def_property_readonly("m", &gf_field::m)
        .def_property_readonly("q", &gf_field::q)
        .def_property_readonly("poly", &gf_field::polynomial)
        .def(
            "add",
            [](const gf_field& f, unsigned a, unsigned b) {
                return f.add(element(f, a, "a"), element(f, b, "b"));
            },
            py::arg("a"),
            py::arg("b"))
        .def(
            "mul",
            [](const gf_field& f, unsigned a, unsigned b) {
                return f.mul(element(f, a, "a"), element(f, b, "b"));
            },
            py::arg("a"),
            py::arg("b"))
        .def(
            "div",
            [](const gf_field& f, unsigned a, unsigned b) {
                return f.checked_div(element(f, a, "a"), element(f, b, "b"));
            },
            py::arg("a"),
            py::arg("b"))
        .def(
            "inv",
            [](const gf_field& f, unsigned a) {
                return f.checked_inv(element(f, a, "a"));
            },
            py::arg("a"))
        .def(
            "log",
            [](const gf_field& f, unsigned a) {
                if (element(f, a, "a") == 0)
                    throw py::value_error("log(0) is undefined");
                return f.log(uint8_t(a));
            },
            py::arg("a"))
        .def("exp", &gf_field::exp, py::arg("e"))
        .def_property_readonly(
            "mul_table",
            [](const gf_field& f) { return table_copy(f.tables().mul, f.q(), f.q()); },
            "q x q array: mul_table[a, b] = a * b")
        .def_property_readonly(
            "exp_table",
            [](const gf_field& f) {
                return table_copy(f.tables().exp, 1, 2 * (f.q() - 1));
            },
            "exp_table[e] = alpha^e, e < 2(q-1)")
        .def_property_readonly(
            "log_table",
            [](const gf_field& f) { return table_copy(f.tables().log, 1, f.q()); },
            "log_table[a] = log_alpha(a); entry 0 is 255 (undefined)")
        .def_property_readonly(
            "inv_table",
            [](const gf_field& f) { return table_copy(f.tables().inv, 1, f.q()); },
            "inv_table[a] = 1/a; entry 0 is 0 (undefined)")
        .def("__repr__", [](const gf_field& f) {
            char buf[64];
            std::snprintf(
                buf, sizeof(buf), "gf_field(m=%u, poly=0x%x)", f.m(), f.polynomial());
            return std::string(buf);
        });
}
