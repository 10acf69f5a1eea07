/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CODE_NAMES_H
#define INCLUDED_GPULDPC_ENGINE_CODE_NAMES_H

/*!
 * \file
 * Codes by name, so that no caller needs to know where the module keeps its
 * files: the codes shipped with the module (the files of its codes
 * directory, named by file name with or without its extension, e.g.
 * "regular_3_6_n1008_gf2" or "regular_3_6_n1008_gf2.alist") and the built-in
 * codes of standards ("dvbs2:RATE[:short]", "nr:BG:Z[:ROWS]", "wifi:N:RATE",
 * "wimax:N:RATE").
 * ldpc_code::load() takes these names wherever no file of that name exists,
 * and so does every entry point that takes a code file (the blocks, the
 * Python bindings, gpuldpc-sim, gpuldpc-link, gpuldpc-bench).
 */

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief The directory the shipped codes are read from, or "" when there is
 * none.
 *
 * The first of: $GPULDPC_CODES_DIR when set and not empty (whether or not it
 * exists: an override is never silently passed over); the installed codes
 * directory (under the install prefix the library was configured with), when
 * it exists; the source tree's codes/, when it exists (a build used from its
 * build tree).
 */
GPULDPC_ENGINE_API std::string shipped_codes_dir();

/*! Names of the shipped codes (file names less .alist or .qc), sorted. */
GPULDPC_ENGINE_API std::vector<std::string> shipped_codes();

/*!
 * \brief What names a code, in one line for error messages and --help: a
 * file path, a shipped code (listed) or a built-in family with its
 * parameters.
 */
GPULDPC_ENGINE_API std::string code_names_help();

/*!
 * \brief The code that \p spec names when it is not a readable file: a
 * built-in code or a shipped code (read with \p opts).
 *
 * ldpc_code::load() calls it when it cannot open \p spec as a file.
 * \throws std::invalid_argument for a family without its parameters
 *         ("dvbs2", "nr:1"), parameters a family does not have, or a name
 *         that is neither a shipped nor a built-in code; the message lists
 *         code_names_help()
 * \throws std::runtime_error "cannot open code file" for a \p spec that
 *         holds a '/' or exists but cannot be read (a path, not a name)
 * \throws code_file_error for a shipped file that does not parse
 */
GPULDPC_ENGINE_API ldpc_code load_named_code(const std::string& spec,
                                             const code_io_options& opts = {});

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CODE_NAMES_H */
