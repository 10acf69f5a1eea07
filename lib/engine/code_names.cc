/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Codes by name: the shipped codes (files of the module's codes directory)
// and the built-in families of standards. ldpc_code::load() comes here when
// its argument is not a file it can open.

#include "dvbs2_tables.h"
#include "environment.h"
#include <gnuradio/gpuldpc/engine/code_names.h>
#include <sys/stat.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

// Set by lib/CMakeLists.txt for this file only (so that another install
// prefix recompiles nothing else).
#ifndef GPULDPC_INSTALLED_CODES_DIR
#define GPULDPC_INSTALLED_CODES_DIR ""
#endif
#ifndef GPULDPC_SOURCE_CODES_DIR
#define GPULDPC_SOURCE_CODES_DIR ""
#endif

namespace gr {
namespace gpuldpc {

namespace {

// Extensions of code files, the preferred first: a name with two files (x.alist,
// x.qc) names the first.
const char* const code_extensions[] = { ".alist", ".qc" };

// The length of the code extension \p file ends with, or 0.
size_t code_extension_length(const std::string& file)
{
    for (const char* ext : code_extensions) {
        const size_t n = std::strlen(ext);
        if (file.size() > n && file.compare(file.size() - n, n, ext) == 0)
            return n;
    }
    return 0;
}

// Name -> file name of the code files in \p dir (none when it cannot be read).
std::map<std::string, std::string> codes_in(const std::string& dir)
{
    std::vector<std::string> files;
    std::error_code ec;
    if (dir.empty())
        return {};
    std::filesystem::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        std::error_code type_ec;
        if (code_extension_length(file) && it->is_regular_file(type_ec)) // follows links
            files.push_back(file);
    }
    // sorted, "x.alist" comes before "x.qc" and is kept
    std::sort(files.begin(), files.end());
    std::map<std::string, std::string> out;
    for (const auto& file : files)
        out.emplace(file.substr(0, file.size() - code_extension_length(file)), file);
    return out;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ")
{
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : sep) + s;
    return out;
}

std::string dvbs2_rates(const char* frame)
{
    std::vector<std::string> rates;
    for (const auto& t : detail::dvbs2::tables)
        if (std::strcmp(t.frame, frame) == 0)
            rates.push_back(t.rate);
    return join(rates);
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    size_t from = 0;
    for (;;) {
        const size_t at = s.find(sep, from);
        parts.push_back(s.substr(from, at == std::string::npos ? at : at - from));
        if (at == std::string::npos)
            return parts;
        from = at + 1;
    }
}

// A decimal number of at most 6 digits, or -1.
long small_number(const std::string& text)
{
    if (text.empty() || text.size() > 6 ||
        !std::all_of(
            text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
    return std::strtol(text.c_str(), nullptr, 10);
}

// The built-in code of family \p family with parameters \p params (the parts of
// the spec after the family's name).
ldpc_code builtin_code(const std::string& spec,
                       const std::string& family,
                       const std::vector<std::string>& params)
{
    auto missing = [&](const std::string& what) {
        return std::invalid_argument("code '" + spec + "': " + what +
                                     "; allowed: " + code_names_help());
    };
    const bool empty_part = std::any_of(
        params.begin(), params.end(), [](const std::string& p) { return p.empty(); });
    try {
        if (family == "dvbs2") {
            if (params.empty() || params.size() > 2 || empty_part)
                throw missing("a DVB-S2 code is dvbs2:RATE or dvbs2:RATE:short, e.g. "
                              "dvbs2:1/2");
            return ldpc_code::dvbs2(params[0], params.size() == 2 ? params[1] : "normal");
        }
        if (family == "nr") {
            if (params.size() < 2 || params.size() > 3 || empty_part)
                throw missing("a 5G NR code is nr:BG:Z (base graph and lifting size) "
                              "or nr:BG:Z:ROWS (the first ROWS parity rows), e.g. "
                              "nr:1:384 or nr:1:384:8");
            for (const auto& p : params)
                if (small_number(p) < 0)
                    throw missing("'" + p +
                                  "' is not a number; a 5G NR code is nr:BG:Z or "
                                  "nr:BG:Z:ROWS, e.g. nr:1:384:8");
            const long bg = small_number(params[0]), z = small_number(params[1]);
            const long rows = params.size() == 3 ? small_number(params[2]) : 0;
            return ldpc_code::nr(unsigned(bg), unsigned(z), unsigned(rows));
        }
        // wifi, wimax: N:RATE; ar4ja: K:RATE
        const std::string form =
            family == "wifi" ? "an IEEE 802.11n code is wifi:N:RATE, e.g. wifi:1944:1/2"
            : family == "wimax"
                ? "an IEEE 802.16e code is wimax:N:RATE, e.g. "
                  "wimax:2304:1/2"
                : "a CCSDS AR4JA code is ar4ja:K:RATE, e.g. ar4ja:1024:1/2";
        if (params.size() != 2 || empty_part)
            throw missing(form);
        const long n = small_number(params[0]);
        if (n < 0)
            throw missing("'" + params[0] + "' is not a number; " + form);
        if (family == "wifi")
            return ldpc_code::wifi(unsigned(n), params[1]);
        if (family == "wimax")
            return ldpc_code::wimax(unsigned(n), params[1]);
        return ldpc_code::ar4ja(unsigned(n), params[1]);
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        if (what.compare(0, 6, "code '") == 0)
            throw;
        // the family's own message names the parameter and its allowed values
        throw std::invalid_argument("code '" + spec + "': " + what);
    }
}

} // namespace

std::string shipped_codes_dir()
{
    const std::string env = detail::codes_dir_from_environment();
    if (!env.empty())
        return env;
    for (const char* dir : { GPULDPC_INSTALLED_CODES_DIR, GPULDPC_SOURCE_CODES_DIR })
        if (*dir && !codes_in(dir).empty())
            return dir;
    return "";
}

std::vector<std::string> shipped_codes()
{
    std::vector<std::string> names;
    for (const auto& [name, file] : codes_in(shipped_codes_dir()))
        names.push_back(name);
    return names;
}

std::string code_names_help()
{
    const std::string dir = shipped_codes_dir();
    const auto names = shipped_codes();
    std::string shipped;
    if (!names.empty())
        shipped = "a shipped code: " + join(names) + " (in " + dir + ")";
    else if (const std::string env = detail::codes_dir_from_environment(); !env.empty())
        shipped = "a shipped code: none found (GPULDPC_CODES_DIR='" + env +
                  "' holds no .alist or .qc file)";
    else
        shipped = std::string("a shipped code: none found (no codes in '") +
                  GPULDPC_INSTALLED_CODES_DIR + "' or '" + GPULDPC_SOURCE_CODES_DIR +
                  "'; set GPULDPC_CODES_DIR)";
    return "a code file's path; " + shipped +
           "; or a built-in code: dvbs2:RATE or dvbs2:RATE:short (DVB-S2, RATE " +
           dvbs2_rates("normal") + "; short frames " + dvbs2_rates("short") +
           "), nr:BG:Z or nr:BG:Z:ROWS (5G NR, BG 1 or 2, Z = a*2^j <= 384 with a "
           "in 2, 3, 5, 7, 9, 11, 13, 15, ROWS 4 .. 46 for BG1 and 4 .. 42 for "
           "BG2, 0 all), wifi:N:RATE (IEEE 802.11n, N 648, 1296 or 1944, RATE 1/2, "
           "2/3, 3/4 or 5/6), wimax:N:RATE (IEEE 802.16e, N 576 .. 2304 in steps of 96, "
           "RATE 1/2, 2/3A, 2/3B, 3/4A, 3/4B or 5/6), ar4ja:K:RATE (CCSDS AR4JA, K 1024, "
           "4096 or 16384, RATE 1/2, 2/3 or 4/5)";
}

ldpc_code load_named_code(const std::string& spec, const code_io_options& opts)
{
    const std::string family = spec.substr(0, spec.find(':'));
    if (family == "dvbs2" || family == "nr" || family == "wifi" || family == "wimax" ||
        family == "ar4ja") {
        std::vector<std::string> params;
        if (family.size() < spec.size())
            params = split(spec.substr(family.size() + 1), ':');
        return builtin_code(spec, family, params);
    }

    struct stat st;
    const bool exists = ::stat(spec.c_str(), &st) == 0;
    if (exists || spec.find('/') != std::string::npos) {
        // a path, not a name: the file's own error, with its name
        std::FILE* f = std::fopen(spec.c_str(), "r");
        const int error = f ? 0 : errno;
        if (f) {
            // it could be opened after all (created meanwhile)
            std::fclose(f);
            std::ifstream in(spec);
            return ldpc_code::read(in, spec, opts);
        }
        std::string message =
            "cannot open code file '" + spec + "': " + std::strerror(error);
        const std::string base = spec.substr(spec.find_last_of('/') + 1);
        std::string hint = "; expected a code file, a shipped code's name or a built-in "
                           "code (dvbs2:RATE[:short], nr:BG:Z[:ROWS], wifi:N:RATE, "
                           "wimax:N:RATE, ar4ja:K:RATE)";
        for (const auto& [name, file] : codes_in(shipped_codes_dir()))
            if (base == name || base == file) {
                hint = "; the shipped code '" + name + "' loads by its name alone";
                break;
            }
        throw std::runtime_error(message + hint);
    }

    const std::string dir = shipped_codes_dir();
    const auto shipped = codes_in(dir);
    const bool with_extension = code_extension_length(spec) != 0;
    for (const auto& [name, file] : shipped)
        if (with_extension ? spec == file : spec == name) {
            const std::string path = dir + "/" + file;
            std::ifstream in(path);
            if (!in)
                throw std::runtime_error("cannot open code file '" + path +
                                         "': " + std::strerror(errno));
            return ldpc_code::read(in, path, opts);
        }
    throw std::invalid_argument(
        spec.empty()
            ? std::string("code '': no code given; allowed: ") + code_names_help()
            : "code '" + spec +
                  "': no file, shipped code or built-in code of that name; "
                  "allowed: " +
                  code_names_help());
}

} // namespace gpuldpc
} // namespace gr
