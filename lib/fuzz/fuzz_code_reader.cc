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
// give the same matrix.

#include "fuzz_input.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace gr::gpuldpc;

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
    std::istringstream file(
        std::string(reinterpret_cast<const char*>(in.data()), in.remaining()));
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
    std::stringstream text;
    code_io_options out;
    out.coef = opts.coef;
    code->write(text, out);
    const ldpc_code again = ldpc_code::read(text, "fuzz (written back)", out);
    if (again.n() != code->n() || again.m() != code->m() || again.q() != code->q() ||
        again.check_offsets() != code->check_offsets() ||
        again.edge_variable() != code->edge_variable() ||
        again.edge_coefficient() != code->edge_coefficient() ||
        again.n_transmitted() != code->n_transmitted())
        fuzz::broken("a code written and read back differs");
    return 0;
}
