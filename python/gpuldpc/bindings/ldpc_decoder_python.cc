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
/* BINDTOOL_HEADER_FILE(ldpc_decoder.h)                                            */
/* BINDTOOL_HEADER_FILE_HASH(78350aa9ed3ea4e4a754fcafb0959992) */
/***********************************************************************************/

#include "array_args.h"
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/ldpc_decoder.h>

namespace {
using gr::gpuldpc::code_source;
using gr::gpuldpc::ldpc_decoder;

// status_tags: "failed", "all", "none"; True and False (the earlier bool) mean
// "all" and "none"
std::string status_tags_arg(const py::object& v)
{
    if (py::isinstance<py::bool_>(v))
        return v.cast<bool>() ? "all" : "none";
    if (py::isinstance<py::str>(v))
        return v.cast<std::string>();
    throw py::type_error("status_tags: expected 'failed', 'all', 'none' or a bool, got " +
                         std::string(py::str(py::type::handle_of(v))));
}

// The block of the keyword arguments: each parsed once, the GPU tuning taken
// from the environment when the block is made
ldpc_decoder::sptr make_decoder(code_source code,
                                const std::string& algorithm,
                                const std::string& schedule,
                                int max_iterations,
                                bool flip_llr_sign,
                                const std::string& output,
                                int max_batch,
                                const std::string& device,
                                const std::string& length_tag_key,
                                bool pass_failed,
                                int threads,
                                double stats_interval,
                                const py::object& status_tags,
                                const std::string& messages,
                                const std::string& input,
                                float llr_scale,
                                const py::object& min_sum_scale,
                                const py::object& min_sum_offset,
                                const std::string& constellation,
                                float noise_var,
                                const std::string& noise_var_tag_key,
                                const std::string& min_sum_magnitude)
{
    ldpc_decoder::params p;
    p.code = std::move(code);
    p.set_algorithm(algorithm);
    p.set_schedule(schedule);
    p.set_max_iterations(max_iterations);
    p.decoder.flip_llr_sign = flip_llr_sign;
    p.set_threads(threads);
    p.set_messages(messages);
    p.decoder.llr_scale = llr_scale;
    p.decoder.min_sum_scale = gr::gpuldpc::pyargs::min_sum_scale_arg(min_sum_scale);
    p.decoder.min_sum_offset = gr::gpuldpc::pyargs::min_sum_offset_arg(min_sum_offset);
    p.set_min_sum_magnitude(min_sum_magnitude);
    p.decoder.gpu = gr::gpuldpc::gpu_tuning::from_environment();
    p.device = device;
    p.set_output(output);
    p.max_batch = max_batch;
    p.length_tag_key = length_tag_key;
    p.pass_failed = pass_failed;
    p.stats_interval = stats_interval;
    p.set_status_tags(status_tags_arg(status_tags));
    p.set_input(input);
    p.constellation = constellation;
    p.noise_var = noise_var;
    p.noise_var_tag_key = noise_var_tag_key;
    return ldpc_decoder::make(p);
}
} // namespace

void bind_ldpc_decoder(py::module& m)
{
    using gr::gpuldpc::ldpc_code;
    py::class_<ldpc_decoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_decoder>>(
        m,
        "ldpc_decoder",
        "LDPC decoder block: soft bits (float LLRs, positive means 1; input='int8' "
        "for 8-bit LLRs v / llr_scale; input='symbols' for complex points of the "
        "matched constellation with noise_var or noise_var_tag_key) in, decoded "
        "(status_tags: 'failed' tags only frames that did not converge, 'all', "
        "'none'; True/False mean 'all'/'none') "
        "(min-sum: min_sum_scale, min_sum_offset, min_sum_magnitude: 'auto', "
        "'smallest', 'two-smallest' or 'three-smallest') "
        "information out (output='packed' bytes, 'bits' or 'symbols'), many frames per "
        "call. The first argument is a code file path or an ldpc_code.")
        .def(py::init([](const std::string& code_file,
                         const std::string& format,
                         const std::string& coef,
                         unsigned poly,
                         const std::string& algorithm,
                         const std::string& schedule,
                         int max_iterations,
                         bool flip_llr_sign,
                         const std::string& output,
                         int max_batch,
                         const std::string& device,
                         const std::string& length_tag_key,
                         bool pass_failed,
                         int threads,
                         double stats_interval,
                         const py::object& status_tags,
                         const std::string& messages,
                         const std::string& input,
                         float llr_scale,
                         const py::object& min_sum_scale,
                         const py::object& min_sum_offset,
                         const std::string& constellation,
                         float noise_var,
                         const std::string& noise_var_tag_key,
                         const std::string& min_sum_magnitude) {
                 return make_decoder(code_source(code_file, format, coef, poly),
                                     algorithm,
                                     schedule,
                                     max_iterations,
                                     flip_llr_sign,
                                     output,
                                     max_batch,
                                     device,
                                     length_tag_key,
                                     pass_failed,
                                     threads,
                                     stats_interval,
                                     status_tags,
                                     messages,
                                     input,
                                     llr_scale,
                                     min_sum_scale,
                                     min_sum_offset,
                                     constellation,
                                     noise_var,
                                     noise_var_tag_key,
                                     min_sum_magnitude);
             }),
             py::arg("code_file"),
             py::arg("format") = "auto",
             py::arg("coef") = "exponent",
             py::arg("poly") = 0,
             py::arg("algorithm") = "auto",
             py::arg("schedule") = "flooding",
             py::arg("max_iterations") = 50,
             py::arg("flip_llr_sign") = false,
             py::arg("output") = "packed",
             py::arg("max_batch") = 0,
             py::arg("device") = "auto",
             py::arg("length_tag_key") = "packet_len",
             py::arg("pass_failed") = true,
             py::arg("threads") = 0,
             py::arg("stats_interval") = 1.0,
             py::arg("status_tags") = "failed",
             py::arg("messages") = "fp32",
             py::arg("input") = "float",
             py::arg("llr_scale") = 4.0f,
             py::arg("min_sum_scale") = "auto",
             py::arg("min_sum_offset") = "auto",
             py::arg("constellation") = "",
             py::arg("noise_var") = 1.0f,
             py::arg("noise_var_tag_key") = "",
             py::arg("min_sum_magnitude") = "auto")
        .def(py::init([](std::shared_ptr<ldpc_code> code,
                         const std::string& algorithm,
                         const std::string& schedule,
                         int max_iterations,
                         bool flip_llr_sign,
                         const std::string& output,
                         int max_batch,
                         const std::string& device,
                         const std::string& length_tag_key,
                         bool pass_failed,
                         int threads,
                         double stats_interval,
                         const py::object& status_tags,
                         const std::string& messages,
                         const std::string& input,
                         float llr_scale,
                         const py::object& min_sum_scale,
                         const py::object& min_sum_offset,
                         const std::string& constellation,
                         float noise_var,
                         const std::string& noise_var_tag_key,
                         const std::string& min_sum_magnitude) {
                 return make_decoder(code_source(code),
                                     algorithm,
                                     schedule,
                                     max_iterations,
                                     flip_llr_sign,
                                     output,
                                     max_batch,
                                     device,
                                     length_tag_key,
                                     pass_failed,
                                     threads,
                                     stats_interval,
                                     status_tags,
                                     messages,
                                     input,
                                     llr_scale,
                                     min_sum_scale,
                                     min_sum_offset,
                                     constellation,
                                     noise_var,
                                     noise_var_tag_key,
                                     min_sum_magnitude);
             }),
             py::arg("code"),
             py::arg("algorithm") = "auto",
             py::arg("schedule") = "flooding",
             py::arg("max_iterations") = 50,
             py::arg("flip_llr_sign") = false,
             py::arg("output") = "packed",
             py::arg("max_batch") = 0,
             py::arg("device") = "auto",
             py::arg("length_tag_key") = "packet_len",
             py::arg("pass_failed") = true,
             py::arg("threads") = 0,
             py::arg("stats_interval") = 1.0,
             py::arg("status_tags") = "failed",
             py::arg("messages") = "fp32",
             py::arg("input") = "float",
             py::arg("llr_scale") = 4.0f,
             py::arg("min_sum_scale") = "auto",
             py::arg("min_sum_offset") = "auto",
             py::arg("constellation") = "",
             py::arg("noise_var") = 1.0f,
             py::arg("noise_var_tag_key") = "",
             py::arg("min_sum_magnitude") = "auto")
        .def("frames", &ldpc_decoder::frames)
        .def("failed_frames", &ldpc_decoder::failed_frames)
        .def("dropped_frames", &ldpc_decoder::dropped_frames)
        .def("dropped_at_stop", &ldpc_decoder::dropped_at_stop)
        .def("bad_length_frames", &ldpc_decoder::bad_length_frames)
        .def("missing_tag_items", &ldpc_decoder::missing_tag_items)
        .def("truncated_frames", &ldpc_decoder::truncated_frames)
        .def("dropped_tags", &ldpc_decoder::dropped_tags)
        .def("batch_size", &ldpc_decoder::batch_size)
        .def("invalid_inputs", &ldpc_decoder::invalid_inputs)
        .def("average_iterations", &ldpc_decoder::average_iterations)
        .def("stats", &ldpc_decoder::stats)
        .def("device_name", &ldpc_decoder::device_name)
        .def("input_frame_length", &ldpc_decoder::input_frame_length)
        .def("output_frame_length", &ldpc_decoder::output_frame_length);
}
