/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Parity-check matrix files (binary alist, non-binary alist, AFF3CT .qc):
// the first byte picks the format given to the reader (auto, alist,
// nb-alist, qc) and the coefficient convention, the rest is the file. A
// malformed file MUST give a code_file_error (file:line) or an
// std::invalid_argument; any other exception, a crash or a sanitizer report
// is a finding. A file that reads is written back and read again, and must
// give the same matrix. Codes of more than 2^17 bits are left out (their cost
// is their size).

#include "fuzz_input.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <cctype>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gr::gpuldpc;

namespace {

// Codes larger than this are left out: the reader takes them (up to 2^26
// bits), and building one costs time in proportion to its size (a 12-byte .qc
// header asks for millions of bits: seconds, beyond the fuzzer's time-out
// under the sanitizers), which is no finding.
constexpr unsigned long max_fuzzed_bits = 1ul << 17;

// Whether the first line that is not a comment asks for a larger code: any
// of its numbers, or columns times z of a .qc header.
bool asks_for_large_code(const std::string& text)
{
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#')
            continue;
        std::vector<unsigned long> numbers;
        for (size_t i = 0; i < line.size();) {
            if (!std::isdigit(static_cast<unsigned char>(line[i]))) {
                ++i;
                continue;
            }
            unsigned long v = 0;
            for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]));
                 ++i)
                v = std::min(v * 10 + unsigned(line[i] - '0'), 1ul << 40);
            numbers.push_back(v);
        }
        for (unsigned long v : numbers)
            if (v > max_fuzzed_bits)
                return true;
        return numbers.size() >= 3 && numbers[0] * numbers[2] > max_fuzzed_bits;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz::input_reader in(data, size);
    const uint8_t pick = in.byte();
    code_io_options opts;
    const code_format formats[] = {
        code_format::automatic, code_format::alist, code_format::nb_alist, code_format::qc
    };
    opts.format = formats[pick & 3];
    opts.coef = (pick & 4) ? coef_convention::polynomial : coef_convention::exponent;
    const std::string text(reinterpret_cast<const char*>(in.data()), in.remaining());
    if (asks_for_large_code(text))
        return 0;
    std::istringstream file(text);
    std::optional<ldpc_code> code;
    try {
        code.emplace(ldpc_code::read(file, "fuzz", opts));
    } catch (const code_file_error&) {
        return 0;
    } catch (const std::invalid_argument&) {
        return 0;
    }
    // written in its own family (qc stays qc, with its puncturing) and read
    // back: the same matrix
    std::stringstream written;
    code_io_options out;
    out.coef = opts.coef;
    code->write(written, out);
    const ldpc_code again = ldpc_code::read(written, "fuzz (written back)", out);
    if (again.n() != code->n() || again.m() != code->m() || again.q() != code->q() ||
        again.check_offsets() != code->check_offsets() ||
        again.edge_variable() != code->edge_variable() ||
        again.edge_coefficient() != code->edge_coefficient() ||
        again.n_transmitted() != code->n_transmitted())
        fuzz::broken("a code written and read back differs");
    return 0;
}
