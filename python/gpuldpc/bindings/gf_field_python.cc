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

#include "array_args.h"
#include <gnuradio/gpuldpc/engine/gf_field.h>

namespace {

py::array_t<uint8_t> table_copy(const uint8_t* data, size_t rows, size_t cols)
{
    py::array_t<uint8_t> out(rows == 1 ? std::vector<size_t>{ cols }
                                       : std::vector<size_t>{ rows, cols });
    std::copy(data, data + rows * cols, out.mutable_data());
    return out;
}

// Elements come in as signed integers so that a negative one is a ValueError
// like any other non-element, not pybind11's TypeError for an unsigned parameter.
uint8_t element(const gr::gpuldpc::gf_field& f, long long a, const char* arg)
{
    if (a < 0 || a >= (long long)f.q())
        throw py::value_error(std::string(arg) + "=" + std::to_string(a) +
                              " is not an element of GF(" + std::to_string(f.q()) +
                              "); allowed: 0.." + std::to_string(f.q() - 1));
    return uint8_t(a);
}

unsigned m_arg(long long m)
{
    return gr::gpuldpc::pyargs::int_arg<unsigned>(m, "m", "1..8 (q = 2..256)");
}

unsigned poly_arg(long long poly)
{
    return gr::gpuldpc::pyargs::int_arg<unsigned>(
        poly, "poly", "0 (the default) or a primitive polynomial of degree m");
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
        .def(py::init([](long long m, long long poly) {
                 return std::make_shared<gf_field>(m_arg(m), poly_arg(poly));
             }),
             py::arg("m"),
             py::arg("poly") = 0)
        .def_static(
            "default_polynomial",
            [](long long m) { return gf_field::default_polynomial(m_arg(m)); },
            py::arg("m"))
        .def_static(
            "is_primitive",
            [](long long m, long long poly) {
                return gf_field::is_primitive(m_arg(m), poly_arg(poly));
            },
            py::arg("m"),
            py::arg("poly"))
        .def_property_readonly("m", &gf_field::m)
        .def_property_readonly("q", &gf_field::q)
        .def_property_readonly("poly", &gf_field::polynomial)
        .def(
            "add",
            [](const gf_field& f, long long a, long long b) {
                return f.add(element(f, a, "a"), element(f, b, "b"));
            },
            py::arg("a"),
            py::arg("b"))
        .def(
            "mul",
            [](const gf_field& f, long long a, long long b) {
                return f.mul(element(f, a, "a"), element(f, b, "b"));
            },
            py::arg("a"),
            py::arg("b"))
        .def(
            "div",
            [](const gf_field& f, long long a, long long b) {
                return f.checked_div(element(f, a, "a"), element(f, b, "b"));
            },
            py::arg("a"),
            py::arg("b"))
        .def(
            "inv",
            [](const gf_field& f, long long a) {
                return f.checked_inv(element(f, a, "a"));
            },
            py::arg("a"))
        .def(
            "log",
            [](const gf_field& f, long long a) {
                if (element(f, a, "a") == 0)
                    throw py::value_error("log(0) is undefined");
                return f.log(uint8_t(a));
            },
            py::arg("a"))
        .def(
            "exp",
            [](const gf_field& f, long long e) {
                return f.exp(gr::gpuldpc::pyargs::int_arg<unsigned>(e, "e", "0 or more"));
            },
            py::arg("e"))
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
