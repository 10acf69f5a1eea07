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
/* BINDTOOL_HEADER_FILE(ldpc_fec_defs.h)                                           */
/* BINDTOOL_HEADER_FILE_HASH(bf956819969ba714f12c7ca8eaa56d19) */
/***********************************************************************************/

#include "array_args.h"
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/ldpc_fec_defs.h>

namespace {
using gr::gpuldpc::code_source;
using gr::gpuldpc::ldpc_decoder_def;

// The definition of the keyword arguments: each parsed once, the GPU tuning
// taken from the environment when the definition is made
std::shared_ptr<ldpc_decoder_def> make_decoder_def(code_source code,
                                                   const std::string& algorithm,
                                                   const std::string& schedule,
                                                   int max_iterations,
                                                   int frames_per_call,
                                                   float input_scale,
                                                   const std::string& device,
                                                   int threads,
                                                   const std::string& messages,
                                                   const py::object& min_sum_scale,
                                                   const py::object& min_sum_offset,
                                                   const std::string& min_sum_magnitude)
{
    ldpc_decoder_def::params p;
    p.code = std::move(code);
    p.set_algorithm(algorithm);
    p.set_schedule(schedule);
    p.set_max_iterations(max_iterations);
    p.set_threads(threads);
    p.set_messages(messages);
    p.decoder.min_sum_scale = gr::gpuldpc::pyargs::min_sum_scale_arg(min_sum_scale);
    p.decoder.min_sum_offset = gr::gpuldpc::pyargs::min_sum_offset_arg(min_sum_offset);
    p.set_min_sum_magnitude(min_sum_magnitude);
    p.decoder.gpu = gr::gpuldpc::gpu_tuning::from_environment();
    p.device = device;
    p.frames_per_call = frames_per_call;
    p.input_scale = input_scale;
    return std::make_shared<ldpc_decoder_def>(p);
}
} // namespace

void bind_ldpc_fec_defs(py::module& m)
{
    using namespace gr::gpuldpc;
    // the FECAPI base classes come from gnuradio.fec
    py::module::import("gnuradio.fec");

    py::class_<ldpc_decoder_def,
               gr::fec::generic_decoder,
               std::shared_ptr<ldpc_decoder_def>>(
        m,
        "ldpc_decoder_def",
        "FECAPI decoder definition for fec.extended_decoder, fec.decoder, "
        "fec.tagged_decoder, fec.async_decoder and the BER tools. Soft input with "
        "positive meaning 1, times input_scale (2/sigma^2 turns unit BPSK samples into "
        "LLRs); output unpacked information bits. The first argument is a code file "
        "path or an ldpc_code.")
        .def(py::init([](const std::string& code_file,
                         const std::string& format,
                         const std::string& coef,
                         unsigned poly,
                         const std::string& algorithm,
                         const std::string& schedule,
                         int max_iterations,
                         int frames_per_call,
                         float input_scale,
                         const std::string& device,
                         int threads,
                         const std::string& messages,
                         const py::object& min_sum_scale,
                         const py::object& min_sum_offset,
                         const std::string& min_sum_magnitude) {
                 return make_decoder_def(code_source(code_file, format, coef, poly),
                                         algorithm,
                                         schedule,
                                         max_iterations,
                                         frames_per_call,
                                         input_scale,
                                         device,
                                         threads,
                                         messages,
                                         min_sum_scale,
                                         min_sum_offset,
                                         min_sum_magnitude);
             }),
             py::arg("code_file"),
             py::arg("format") = "auto",
             py::arg("coef") = "exponent",
             py::arg("poly") = 0,
             py::arg("algorithm") = "auto",
             py::arg("schedule") = "flooding",
             py::arg("max_iterations") = 50,
             py::arg("frames_per_call") = 1,
             py::arg("input_scale") = 1.0f,
             py::arg("device") = "auto",
             py::arg("threads") = 0,
             py::arg("messages") = "fp32",
             py::arg("min_sum_scale") = "auto",
             py::arg("min_sum_offset") = "auto",
             py::arg("min_sum_magnitude") = "auto")
        .def(py::init([](std::shared_ptr<ldpc_code> code,
                         const std::string& algorithm,
                         const std::string& schedule,
                         int max_iterations,
                         int frames_per_call,
                         float input_scale,
                         const std::string& device,
                         int threads,
                         const std::string& messages,
                         const py::object& min_sum_scale,
                         const py::object& min_sum_offset,
                         const std::string& min_sum_magnitude) {
                 return make_decoder_def(code_source(code),
                                         algorithm,
                                         schedule,
                                         max_iterations,
                                         frames_per_call,
                                         input_scale,
                                         device,
                                         threads,
                                         messages,
                                         min_sum_scale,
                                         min_sum_offset,
                                         min_sum_magnitude);
             }),
             py::arg("code"),
             py::arg("algorithm") = "auto",
             py::arg("schedule") = "flooding",
             py::arg("max_iterations") = 50,
             py::arg("frames_per_call") = 1,
             py::arg("input_scale") = 1.0f,
             py::arg("device") = "auto",
             py::arg("threads") = 0,
             py::arg("messages") = "fp32",
             py::arg("min_sum_scale") = "auto",
             py::arg("min_sum_offset") = "auto",
             py::arg("min_sum_magnitude") = "auto")
        .def("frames", &ldpc_decoder_def::frames)
        .def("failed_frames", &ldpc_decoder_def::failed_frames)
        .def("refused_frame_sizes", &ldpc_decoder_def::refused_frame_sizes);

    py::class_<ldpc_encoder_def,
               gr::fec::generic_encoder,
               std::shared_ptr<ldpc_encoder_def>>(
        m,
        "ldpc_encoder_def",
        "FECAPI encoder definition: unpacked information bits in, unpacked code bits "
        "out. The first argument is a code file path or an ldpc_code.")
        .def(py::init([](const std::string& code_file,
                         const std::string& format,
                         const std::string& coef,
                         unsigned poly,
                         int frames_per_call) {
                 ldpc_encoder_def::params p;
                 p.code = code_source(code_file, format, coef, poly);
                 p.frames_per_call = frames_per_call;
                 return std::make_shared<ldpc_encoder_def>(p);
             }),
             py::arg("code_file"),
             py::arg("format") = "auto",
             py::arg("coef") = "exponent",
             py::arg("poly") = 0,
             py::arg("frames_per_call") = 1)
        .def(py::init([](std::shared_ptr<ldpc_code> code, int frames_per_call) {
                 ldpc_encoder_def::params p;
                 p.code = code;
                 p.frames_per_call = frames_per_call;
                 return std::make_shared<ldpc_encoder_def>(p);
             }),
             py::arg("code"),
             py::arg("frames_per_call") = 1)
        .def("refused_frame_sizes", &ldpc_encoder_def::refused_frame_sizes);
}
