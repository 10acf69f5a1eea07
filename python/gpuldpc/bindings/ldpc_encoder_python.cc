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
/* BINDTOOL_HEADER_FILE(ldpc_encoder.h)                                            */
/* BINDTOOL_HEADER_FILE_HASH(337ce973d14b2dd91c104344b37a0af0) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/ldpc_encoder.h>

void bind_ldpc_encoder(py::module& m)
{
    using gr::gpuldpc::ldpc_code;
    using gr::gpuldpc::ldpc_encoder;
    py::class_<ldpc_encoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_encoder>>(
        m,
        "ldpc_encoder",
        "Systematic LDPC encoder block: information (input='packed' bytes, 'bits' or "
        "'symbols') in, codeword out (output='bits' or 'packed'). The first argument is "
        "a code file path or an ldpc_code.")
        .def(py::init(&ldpc_encoder::make),
             py::arg("code_file"),
             py::arg("format") = "auto",
             py::arg("coef") = "exponent",
             py::arg("poly") = 0,
             py::arg("input") = "packed",
             py::arg("output") = "bits",
             py::arg("length_tag_key") = "packet_len")
        .def(py::init([](std::shared_ptr<ldpc_code> code,
                         const std::string& input,
                         const std::string& output,
                         const std::string& length_tag_key) {
                 return ldpc_encoder::make_from_code(code, input, output, length_tag_key);
             }),
             py::arg("code"),
             py::arg("input") = "packed",
             py::arg("output") = "bits",
             py::arg("length_tag_key") = "packet_len")
        .def("frames", &ldpc_encoder::frames)
        .def("bad_length_frames", &ldpc_encoder::bad_length_frames)
        .def("missing_tag_items", &ldpc_encoder::missing_tag_items)
        .def("invalid_frames", &ldpc_encoder::invalid_frames)
        .def("truncated_frames", &ldpc_encoder::truncated_frames)
        .def("dropped_tags", &ldpc_encoder::dropped_tags)
        .def("batch_size", &ldpc_encoder::batch_size)
        .def("input_frame_length", &ldpc_encoder::input_frame_length)
        .def("output_frame_length", &ldpc_encoder::output_frame_length);
}
