/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The user-facing words of the decoders' parameters, parsed once into the
// typed parameters; each error names the parameter, its value and what is
// allowed.

#include <gnuradio/gpuldpc/ldpc_decoder.h>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

code_source::code_source(const std::string& file,
                         const std::string& format,
                         const std::string& coef,
                         unsigned poly)
    : file(file)
{
    io.format = parse_code_format(format, "format");
    io.coef = parse_coef_convention(coef, "coef");
    io.poly = poly;
}

ldpc_code::sptr code_source::load() const
{
    if (code)
        return code;
    if (file.empty())
        throw std::invalid_argument("code: no code given");
    return std::make_shared<ldpc_code>(ldpc_code::load(file, io));
}

void decoder_params::set_algorithm(const std::string& s)
{
    decoder.algorithm = parse_decoder_algorithm(s);
}

void decoder_params::set_schedule(const std::string& s)
{
    decoder.schedule = parse_decoder_schedule(s);
}

void decoder_params::set_messages(const std::string& s)
{
    decoder.messages = parse_message_precision(s);
}

void decoder_params::set_min_sum_magnitude(const std::string& s)
{
    decoder.min_sum_magnitude = parse_min_sum_magnitude(s);
}

void decoder_params::set_max_iterations(int n)
{
    // the upper bound is the engine's (batch_decoder::make())
    if (n < 1)
        throw std::invalid_argument("max_iterations=" + std::to_string(n) +
                                    " is out of range; allowed: 1..100000");
    decoder.max_iterations = unsigned(n);
}

void decoder_params::set_threads(int n)
{
    if (n < 0)
        throw std::invalid_argument("threads=" + std::to_string(n) +
                                    " is out of range; allowed: 0 (all cores) or more");
    decoder.threads = unsigned(n);
}

void ldpc_decoder::params::set_output(const std::string& s)
{
    if (s == "packed")
        output = output_format::packed;
    else if (s == "bits")
        output = output_format::bits;
    else if (s == "symbols")
        output = output_format::symbols;
    else
        throw std::invalid_argument("output='" + s +
                                    "' is unknown; allowed: packed, bits, symbols");
}

void ldpc_decoder::params::set_input(const std::string& s)
{
    if (s == "float")
        input = input_format::float_llr;
    else if (s == "int8")
        input = input_format::int8_llr;
    else if (s == "symbols")
        input = input_format::symbols;
    else
        throw std::invalid_argument("input='" + s +
                                    "' is unknown; allowed: float, int8, symbols");
}

void ldpc_decoder::params::set_status_tags(const std::string& s)
{
    if (s == "failed")
        status_tags = status_tag_mode::failed;
    else if (s == "all" || s == "True" || s == "true" || s == "1")
        status_tags = status_tag_mode::all;
    else if (s == "none" || s == "False" || s == "false" || s == "0")
        status_tags = status_tag_mode::none;
    else
        throw std::invalid_argument("status_tags='" + s +
                                    "' is unknown; allowed: failed, all, none");
}

} // namespace gpuldpc
} // namespace gr
