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
/* BINDTOOL_HEADER_FILE(engine/simulation.h)                                       */
/* BINDTOOL_HEADER_FILE_HASH(90f15ce009be63814f2b1925c8dba24d) */
/***********************************************************************************/

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/engine/simulation.h>

namespace {

using namespace gr::gpuldpc;

uint64_t frame_arg(long long v, const char* name)
{
    if (v < 0)
        throw py::value_error(std::string(name) + "=" + std::to_string(v) +
                              " is negative; allowed: >= 0");
    return uint64_t(v);
}

sim_channel channel_of(const simulation& s, double ebn0)
{
    return sim_channel::at(ebn0, s.decoder().code().rate());
}

} // namespace

void bind_simulation(py::module& m)
{
    PYBIND11_NUMPY_DTYPE(sim_frame_result, bit_errors, iterations, converged);
    py::class_<simulation, std::shared_ptr<simulation>>(
        m,
        "simulation",
        "Error-rate simulation with every step of a frame on the decoder's device:\n"
        "information, encoding, BPSK over real AWGN (sigma^2 = 1/(2 R Eb/N0)), LLRs,\n"
        "decoding and error counting; only the counts leave a GPU.\n\n"
        "simulation(decoder, device='')\n\n"
        "decoder: a batch_decoder, whose configuration decodes. device: '' (the\n"
        "decoder's own), 'cpu', 'auto', 'cuda', 'cuda:N', 'cuda:N,M,...' or\n"
        "'cuda:all' (the frames of a call in turn on each GPU).\n\n"
        "Frame i of a seed (its information and noise, so its LLRs) depends on the\n"
        "seed and i alone, and is the same on the CPU and any GPU, bit for bit: an\n"
        "8-bit decoder counts the same errors on each, and any split of the frame\n"
        "indices (devices, processes) gives the same counts.")
        .def(py::init(
                 [](std::shared_ptr<batch_decoder> decoder, const std::string& device) {
                     return simulation::make(decoder, device);
                 }),
             py::arg("decoder"),
             py::arg("device") = "")
        .def(
            "run",
            [](simulation& s,
               long long seed,
               double ebn0,
               long long first,
               long long count,
               long long stride) {
                const auto ch = channel_of(s, ebn0);
                const uint64_t st = frame_arg(stride, "stride");
                if (st == 0)
                    throw py::value_error("stride=0; allowed: >= 1");
                py::array_t<sim_frame_result> out(size_t(frame_arg(count, "count")));
                auto* r = out.mutable_data();
                const uint64_t sd = frame_arg(seed, "seed"),
                               f = frame_arg(first, "first");
                {
                    py::gil_scoped_release release;
                    s.run(sd, ch, f, st, size_t(count), r);
                }
                return out;
            },
            py::arg("seed"),
            py::arg("ebn0"),
            py::arg("first"),
            py::arg("count"),
            py::arg("stride") = 1,
            "Simulates frames first + j * stride (j < count) at Eb/N0 ebn0 (dB); "
            "returns a structured array (bit_errors, iterations, converged), a "
            "record a frame.")
        .def(
            "frames",
            [](simulation& s,
               long long seed,
               double ebn0,
               long long first,
               long long count,
               long long stride) {
                const auto ch = channel_of(s, ebn0);
                const ldpc_code& c = s.decoder().code();
                const size_t n = size_t(frame_arg(count, "count"));
                const uint64_t st = frame_arg(stride, "stride");
                if (st == 0)
                    throw py::value_error("stride=0; allowed: >= 1");
                py::array_t<uint8_t> info({ n, size_t(c.k()) });
                py::array_t<uint8_t> cw({ n, size_t(c.n()) });
                py::array_t<float> llr({ n, s.decoder().llr_per_frame() });
                auto* i = info.mutable_data();
                auto* w = cw.mutable_data();
                auto* l = llr.mutable_data();
                const uint64_t sd = frame_arg(seed, "seed"),
                               f = frame_arg(first, "first");
                {
                    py::gil_scoped_release release;
                    s.frames(sd, ch, f, st, n, i, w, l);
                }
                return py::make_tuple(info, cw, llr);
            },
            py::arg("seed"),
            py::arg("ebn0"),
            py::arg("first"),
            py::arg("count"),
            py::arg("stride") = 1,
            "The frames run() decodes, drawn on the first device: (info symbols "
            "(count, k), codeword symbols (count, n), LLRs float32 (count, "
            "llr_per_frame)).")
        .def_property_readonly("device", &simulation::device_name)
        .def_property_readonly("devices", &simulation::devices)
        .def_property_readonly("encoder_variant", &simulation::encoder_variant)
        .def("preferred_batch",
             &simulation::preferred_batch,
             "Frames a run() call should hold for every device to be busy.");

    m.def(
        "sim_channel",
        [](double ebn0, double rate) {
            const auto c = sim_channel::at(ebn0, rate);
            return std::make_pair(c.sigma, c.llr_gain);
        },
        py::arg("ebn0"),
        py::arg("rate"),
        "(sigma, llr_gain) of the simulation's BPSK channel at Eb/N0 ebn0 (dB) for "
        "a code of this rate: sigma^2 = 1/(2 R Eb/N0), llr_gain = -2/sigma^2.");
}
