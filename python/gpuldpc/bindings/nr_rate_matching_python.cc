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
/* BINDTOOL_HEADER_FILE(engine/nr_rate_matching.h)                                 */
/* BINDTOOL_HEADER_FILE_HASH(f13c160a3e391cd524bdc3efb59ba2f4) */
/***********************************************************************************/

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "array_args.h"
#include <gnuradio/gpuldpc/engine/nr_rate_matching.h>

void bind_nr_rate_matching(py::module& m)
{
    using gr::gpuldpc::nr_rate_matching;
    namespace pyargs = gr::gpuldpc::pyargs;
    auto uint_arg = [](long long v, const char* name, const char* allowed) {
        return pyargs::int_arg<unsigned>(v, name, allowed);
    };
    py::class_<nr_rate_matching, std::shared_ptr<nr_rate_matching>>(
        m,
        "nr_rate_matching",
        "5G NR LDPC rate matching (3GPP TS 38.212, 5.4.2): E bits of a redundancy "
        "version read from the circular buffer (the mother codeword of "
        "ldpc_code.nr(base_graph, z) less its first 2z bits), skipping filler bits, "
        "bit-interleaved over q_m rows; and the inverse for soft values.\n\n"
        "nr_rate_matching(base_graph, z, filler_bits=0, q_m=2, circular_buffer=0): "
        "the last filler_bits information bits are fillers (the encoder must be "
        "given zeros there); circular_buffer: N_cb of limited buffer rate matching "
        "(0: all N - 2z bits). "
        "select(codeword, e, rv) -> e bits; buffer(known_zero=-64.0) -> a buffer of "
        "buffer_size soft values, 0 but at the fillers; combine(received, rv, buffer) "
        "-> the buffer with e soft values added where they were read from (versions "
        "and repeats accumulate); a buffer is the input of a decoder of "
        "ldpc_code.nr(base_graph, z).")
        .def(py::init([uint_arg](long long bg,
                                 long long z,
                                 long long filler,
                                 long long qm,
                                 long long circular_buffer) {
                 return std::make_shared<nr_rate_matching>(
                     uint_arg(bg, "base_graph", "1, 2"),
                     uint_arg(z, "z", "a 5G NR lifting size"),
                     uint_arg(filler, "filler_bits", "0 .. K - 2z - 1"),
                     uint_arg(qm, "q_m", "1, 2, 4, 6, 8, 10"),
                     uint_arg(circular_buffer,
                              "circular_buffer",
                              "0 (N - 2z) or K - 2z .. N - 2z"));
             }),
             py::arg("base_graph"),
             py::arg("z"),
             py::arg("filler_bits") = 0,
             py::arg("q_m") = 2,
             py::arg("circular_buffer") = 0)
        .def_property_readonly("circular_buffer_size",
                               &nr_rate_matching::circular_buffer_size)
        .def_property_readonly("buffer_size", &nr_rate_matching::buffer_size)
        .def_property_readonly("filler_bits", &nr_rate_matching::filler_bits)
        .def_property_readonly("info_bits", &nr_rate_matching::info_bits)
        .def(
            "start",
            [uint_arg](const nr_rate_matching& r, long long rv) {
                return r.start(uint_arg(rv, "rv", "0 .. 3"));
            },
            py::arg("rv"))
        .def_property_readonly("codeword_size", &nr_rate_matching::codeword_size)
        .def(
            "select",
            [uint_arg](const nr_rate_matching& r, py::handle codeword, long long e,
                       long long rv) {
                const auto cw = pyargs::array_arg<uint8_t>(codeword, "select", "codeword");
                if (size_t(cw.size()) != r.codeword_size())
                    throw py::value_error("select(): codeword has " +
                                          std::to_string(cw.size()) +
                                          " bits; expected codeword_size=" +
                                          std::to_string(r.codeword_size()));
                return pyargs::to_array(
                    r.select(cw.data(), uint_arg(e, "e", "a positive multiple of q_m"),
                             uint_arg(rv, "rv", "0 .. 3")));
            },
            py::arg("codeword"),
            py::arg("e"),
            py::arg("rv") = 0)
        .def(
            "buffer",
            [](const nr_rate_matching& r, float known_zero) {
                return pyargs::to_array(r.buffer(known_zero));
            },
            py::arg("known_zero") = -64.0f)
        .def(
            "combine",
            [uint_arg](const nr_rate_matching& r, py::handle received, long long rv,
                       py::handle buffer) {
                const auto in = pyargs::array_arg<float>(received, "combine", "received");
                const auto base = pyargs::array_arg<float>(buffer, "combine", "buffer");
                if (size_t(base.size()) != r.buffer_size())
                    throw py::value_error("combine(): buffer has " +
                                          std::to_string(base.size()) +
                                          " values; expected buffer_size=" +
                                          std::to_string(r.buffer_size()));
                py::array_t<float> out(base.size());
                std::copy(base.data(), base.data() + base.size(), out.mutable_data());
                r.combine(in.data(),
                          uint_arg(in.size(), "e", "a positive multiple of q_m"),
                          uint_arg(rv, "rv", "0 .. 3"),
                          out.mutable_data());
                return out;
            },
            py::arg("received"),
            py::arg("rv"),
            py::arg("buffer"),
            "The buffer plus the received soft values of version rv, as a new array.");
}
