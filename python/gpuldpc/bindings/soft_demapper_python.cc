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
/* BINDTOOL_HEADER_FILE(engine/soft_demapper.h)                                    */
/* BINDTOOL_HEADER_FILE_HASH(48bcfaec58f526e3b265a8d385e2fc9c) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "array_args.h"
#include <gnuradio/gpuldpc/engine/soft_demapper.h>

void bind_soft_demapper(py::module& m)
{
    using namespace gr::gpuldpc;
    using pyargs::array_arg;
    using cf = std::complex<float>;

    py::class_<constellation>(
        m,
        "constellation",
        "A labelled constellation: constellation(name); points[x] carries the bits "
        "of label x, MSB first. 'bpsk', 'qpsk', '8psk', '16qam': GNU Radio's "
        "digital.constellation_* of those names, points and labels as GNU Radio has "
        "them (QPSK of energy 4); 'gpuldpc-bpsk' ... 'gpuldpc-256qam': the module's "
        "Gray family of unit average energy (the matched GF(q) mapping).")
        .def(py::init(&constellation::make), py::arg("name"))
        .def_static("names", &constellation::names)
        .def_property_readonly("name", &constellation::name)
        .def_property_readonly("bits_per_symbol", &constellation::bits_per_symbol)
        .def_property_readonly("points", [](const constellation& c) {
            py::array_t<std::complex<float>> out(c.points().size());
            std::copy(c.points().begin(), c.points().end(), out.mutable_data());
            return out;
        });

    py::class_<soft_demapper>(
        m,
        "soft_demapper",
        "Complex symbols to bit LLRs log(P(1)/P(0)) for complex AWGN of variance "
        "N0 = E|n|^2: soft_demapper(constellation, demapping='exact' or 'max-log').\n\n"
        "y: complex64 symbols; complex128 and real integer or floating dtypes are "
        "converted, bool raises TypeError.")
        .def(py::init([](const std::string& name, const std::string& mode) {
                 return soft_demapper(constellation::make(name), parse_demapping(mode));
             }),
             py::arg("constellation"),
             py::arg("demapping") = "exact")
        .def_property_readonly("bits_per_symbol", &soft_demapper::bits_per_symbol)
        .def(
            "demap",
            [](const soft_demapper& d, py::object y_arg, float noise_var) {
                const auto y = array_arg<cf>(y_arg, "demap", "y");
                py::array_t<float> out(size_t(y.size()) * d.bits_per_symbol());
                const auto* in = y.data();
                float* o = out.mutable_data();
                const size_t n = size_t(y.size());
                {
                    py::gil_scoped_release release;
                    d.demap(in, n, noise_var, o);
                }
                return out;
            },
            py::arg("y"),
            py::arg("noise_var"),
            "LLRs of the symbols y (any shape, read flat): bits_per_symbol per symbol, "
            "MSB first.")
        .def(
            "symbol_log_likelihoods",
            [](const soft_demapper& d, py::object y_arg, float noise_var) {
                const auto y = array_arg<cf>(y_arg, "symbol_log_likelihoods", "y");
                const size_t q = d.points().points().size();
                py::array_t<float> out(size_t(y.size()) * q);
                const auto* in = y.data();
                float* o = out.mutable_data();
                const size_t n = size_t(y.size());
                {
                    py::gil_scoped_release release;
                    d.symbol_log_likelihoods(in, n, noise_var, o);
                }
                return out;
            },
            py::arg("y"),
            py::arg("noise_var"),
            "-|y - points[x]|^2 / N0 for every point x: q values per symbol, the "
            "input of batch_decoder.decode_symbol_llr for a GF(q) code of the same q.")
        .def(
            "estimate_noise_var",
            [](const soft_demapper& d, py::object y_arg, const std::string& method) {
                const auto y = array_arg<cf>(y_arg, "estimate_noise_var", "y");
                return d.estimate_noise_var(y.data(),
                                            size_t(y.size()),
                                            gr::gpuldpc::parse_noise_estimator(method));
            },
            py::arg("y"),
            py::arg("method") = "decision",
            "N0 of the symbols y. method 'decision': mean |y - nearest point|^2 "
            "(low where decisions go wrong); 'moments': M2M4 from E|y|^2 and E|y|^4 "
            "(unbiased at low SNR, spread growing with SNR); 'auto': decision where "
            "its SNR is high enough for its decisions, else moments.");
}
