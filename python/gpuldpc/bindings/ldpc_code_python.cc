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
/* BINDTOOL_HEADER_FILE(engine/ldpc_code.h)                                        */
/* BINDTOOL_HEADER_FILE_HASH(133f94b104b4d7d849bbfd22edab52b7) */
/***********************************************************************************/

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include "array_args.h"
#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <sstream>

namespace {

using gr::gpuldpc::code_io_options;
using gr::gpuldpc::ldpc_code;
using gr::gpuldpc::pyargs::array_arg;
using gr::gpuldpc::pyargs::int_arg;
using gr::gpuldpc::pyargs::to_array;
using u8array = gr::gpuldpc::pyargs::c_array<uint8_t>;

// a field polynomial argument: 0 for the default, else checked by gf_field
unsigned poly_arg(long long poly)
{
    return int_arg<unsigned>(poly, "poly", "0 (the default) or a field polynomial");
}

code_io_options
make_options(const std::string& format, const std::string& coef, long long poly)
{
    code_io_options opts;
    opts.format = gr::gpuldpc::parse_code_format(format, "format");
    opts.coef = gr::gpuldpc::parse_coef_convention(coef, "coef");
    opts.poly = poly_arg(poly);
    return opts;
}

// Accepts frames x width (2-D) or a single frame (1-D); returns the frame count.
size_t frames_of(const u8array& a, size_t width, const char* arg)
{
    if (a.ndim() == 1 && size_t(a.shape(0)) == width)
        return 1;
    if (a.ndim() == 2 && size_t(a.shape(1)) == width)
        return size_t(a.shape(0));
    std::string shape = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
        shape += (i ? ", " : "") + std::to_string(a.shape(i));
    shape += a.ndim() == 1 ? ",)" : ")";
    throw py::value_error(std::string(arg) + " has shape " + shape +
                          "; expected (frames, " + std::to_string(width) + ") or (" +
                          std::to_string(width) + ",) uint8 symbols");
}

} // namespace

void bind_ldpc_code(py::module& m)
{
    using namespace gr::gpuldpc;

    py::class_<ldpc_code, std::shared_ptr<ldpc_code>>(
        m,
        "ldpc_code",
        "A sparse LDPC parity-check matrix H (checks x n) over GF(q) with its Tanner "
        "graph and a systematic encoder.\n\n"
        "Load with ldpc_code.load(path, format='auto', coef='exponent', poly=0).\n\n"
        "Symbol arguments (encode, puncture, syndrome_weight, from_dense) take uint8 "
        "or bool arrays, or lists of integers in 0..255; another dtype (a float, "
        "int16, ...) raises TypeError naming the argument, never a cast that could "
        "change a value.")
        .def_static(
            "load",
            [](const std::string& path,
               const std::string& format,
               const std::string& coef,
               long long poly) {
                const auto opts = make_options(format, coef, poly);
                py::gil_scoped_release release;
                return std::make_shared<ldpc_code>(ldpc_code::load(path, opts));
            },
            py::arg("path"),
            py::arg("format") = "auto",
            py::arg("coef") = "exponent",
            py::arg("poly") = 0,
            "Reads an alist ('alist'), non-binary alist ('nb-alist') or quasi-cyclic "
            "base matrix ('qc', AFF3CT's .qc) file; 'auto' tells them apart. coef: "
            "'exponent' (alpha^e, the default) "
            "or 'polynomial'. poly: field polynomial, 0 for the default.")
        .def_static(
            "from_dense",
            [](py::object h_arg, long long q, long long poly) {
                const auto h = array_arg<uint8_t>(h_arg, "from_dense", "H");
                if (h.ndim() != 2)
                    throw py::value_error("H must be a 2-D array (checks x symbols)");
                return std::make_shared<ldpc_code>(ldpc_code::from_dense(
                    unsigned(h.shape(0)),
                    unsigned(h.shape(1)),
                    int_arg<unsigned>(q, "q", "2, 4, 8, 16, 32, 64, 128 or 256"),
                    h.data(),
                    poly_arg(poly)));
            },
            py::arg("H"),
            py::arg("q") = 2,
            py::arg("poly") = 0,
            "Code from a dense checks x n array of GF(q) elements (polynomial form; "
            "uint8 or bool).")
        .def_static(
            "dvbs2",
            [](const std::string& rate, const std::string& frame) {
                py::gil_scoped_release release;
                return std::make_shared<ldpc_code>(ldpc_code::dvbs2(rate, frame));
            },
            py::arg("rate"),
            py::arg("frame") = "normal",
            "The DVB-S2 LDPC code of a rate ('1/4' ... '9/10') and frame ('normal', "
            "64800 bits, or 'short', 16200 bits), from the parity accumulator tables "
            "of ETSI EN 302 307-1; load('dvbs2:1/2') and load('dvbs2:1/2:short') "
            "name them too.")
        .def_static(
            "nr",
            [](long long base_graph_arg, long long z_arg, long long rows_arg) {
                const unsigned base_graph =
                    int_arg<unsigned>(base_graph_arg, "base_graph", "1, 2");
                const unsigned z =
                    int_arg<unsigned>(z_arg, "z", "a 5G NR lifting size, a * 2^j <= 384");
                const unsigned parity_rows = int_arg<unsigned>(
                    rows_arg, "parity_rows", "4 .. 46 (BG1), 4 .. 42 (BG2), 0: all");
                py::gil_scoped_release release;
                return std::make_shared<ldpc_code>(
                    ldpc_code::nr(base_graph, z, parity_rows));
            },
            py::arg("base_graph"),
            py::arg("z"),
            py::arg("parity_rows") = 0,
            "The 5G NR LDPC code of 3GPP TS 38.212 (base graph 1 or 2, lifting size "
            "z), its first 2z bits punctured: the mother code, or with parity_rows "
            "(4 .. 46 for BG1, 4 .. 42 for BG2) the code of the first parity_rows "
            "base rows (BG1 at 4 rows: rate 22/24). load('nr:1:384') and "
            "load('nr:1:384:8') name them too.")
        .def_static(
            "wifi",
            [](long long n_arg, const std::string& rate) {
                const unsigned n = int_arg<unsigned>(n_arg, "n", "648, 1296, 1944");
                py::gil_scoped_release release;
                return std::make_shared<ldpc_code>(ldpc_code::wifi(n, rate));
            },
            py::arg("n"),
            py::arg("rate"),
            "An IEEE 802.11n LDPC code (n = 648, 1296 or 1944; rate '1/2', '2/3', "
            "'3/4' or '5/6'), from the base matrices of IEEE Std 802.11 Annex F; "
            "load('wifi:1944:1/2') names it too.")
        .def_static(
            "wimax",
            [](long long n_arg, const std::string& rate) {
                const unsigned n =
                    int_arg<unsigned>(n_arg, "n", "576 .. 2304 in steps of 96");
                py::gil_scoped_release release;
                return std::make_shared<ldpc_code>(ldpc_code::wimax(n, rate));
            },
            py::arg("n"),
            py::arg("rate"),
            "An IEEE 802.16e LDPC code (n = 576 .. 2304 in steps of 96; rate '1/2', "
            "'2/3A', '2/3B', '3/4A', '3/4B' or '5/6', the letter in either case), from "
            "the base matrices of IEEE "
            "Std 802.16 clause 8.4.9.2.5.1 scaled to z = n / 24; "
            "load('wimax:2304:1/2') names it too.")
        .def_static(
            "ar4ja",
            [](long long k_arg, const std::string& rate) {
                const unsigned k = int_arg<unsigned>(k_arg, "k", "1024, 4096 or 16384");
                py::gil_scoped_release release;
                return std::make_shared<ldpc_code>(ldpc_code::ar4ja(k, rate));
            },
            py::arg("k"),
            py::arg("rate"),
            "A CCSDS AR4JA LDPC code (k = 1024, 4096 or 16384 information bits; rate "
            "'1/2', '2/3' or '4/5'), CCSDS 131.0-B-5 clause 7.4: the information first, "
            "the last M parity bits punctured; load('ar4ja:1024:1/2') names it too.")
        .def_static(
            "from_base_matrix",
            [](py::object shifts_arg, long long z, py::object transmitted) {
                const auto shifts =
                    array_arg<int32_t>(shifts_arg, "from_base_matrix", "shifts");
                if (shifts.ndim() != 2)
                    throw py::value_error("shifts must be a 2-D array (base rows x base "
                                          "columns), -1 for a zero block");
                ldpc_code::base_matrix base;
                base.rows = unsigned(shifts.shape(0));
                base.cols = unsigned(shifts.shape(1));
                base.z = int_arg<unsigned>(z, "z", "1 or more", 1);
                base.shifts.assign(shifts.data(), shifts.data() + shifts.size());
                if (!transmitted.is_none()) {
                    const auto t = array_arg<uint8_t>(
                        transmitted, "from_base_matrix", "transmitted");
                    base.transmitted.assign(t.data(), t.data() + t.size());
                }
                return std::make_shared<ldpc_code>(ldpc_code::from_base_matrix(base));
            },
            py::arg("shifts"),
            py::arg("z"),
            py::arg("transmitted") = py::none(),
            "Binary quasi-cyclic code: shifts[i][j] in -1..z-1 (-1: zero block; s: "
            "row r of block (i, j) holds its 1 in column (r + s) mod z; any integer "
            "dtype or lists of integers, the values within int32); transmitted: "
            "one 0/1 per base column (0: punctured; uint8 or bool), None for all.")
        .def(
            "save",
            [](const ldpc_code& c,
               const std::string& path,
               const std::string& format,
               const std::string& coef) { c.save(path, make_options(format, coef, 0)); },
            py::arg("path"),
            py::arg("format") = "auto",
            py::arg("coef") = "exponent",
            "Writes the code; 'auto' writes binary alist for q = 2, else nb-alist; "
            "'qc' writes the base matrix of a quasi-cyclic code.")
        .def(
            "to_string",
            [](const ldpc_code& c, const std::string& format, const std::string& coef) {
                std::ostringstream out;
                c.write(out, make_options(format, coef, 0));
                return out.str();
            },
            py::arg("format") = "auto",
            py::arg("coef") = "exponent")
        .def_property_readonly("n", &ldpc_code::n, "symbols per codeword")
        .def_property_readonly("k", &ldpc_code::k, "information symbols")
        .def_property_readonly(
            "checks", &ldpc_code::checks, "number of checks (rows of H)")
        .def_property_readonly(
            "m",
            [](const ldpc_code& c) {
                // m names bits per symbol elsewhere (GF(2^m)); the number of checks
                // keeps this name only for older callers
                if (PyErr_WarnEx(PyExc_DeprecationWarning,
                                 "ldpc_code.m is deprecated: the number of checks is "
                                 "ldpc_code.checks (bits per symbol: bits_per_symbol)",
                                 1) < 0)
                    throw py::error_already_set();
                return c.checks();
            },
            "deprecated alias of checks (the number of checks); emits "
            "DeprecationWarning")
        .def_property_readonly("q", &ldpc_code::q, "field size")
        .def_property_readonly(
            "bits_per_symbol", &ldpc_code::bits_per_symbol, "log2(q), the m of GF(2^m)")
        .def_property_readonly("rank", &ldpc_code::rank, "rank of H over GF(q)")
        .def_property_readonly("rate", &ldpc_code::rate)
        .def_property_readonly("num_edges", &ldpc_code::num_edges)
        .def_property_readonly("n_transmitted",
                               &ldpc_code::n_transmitted,
                               "symbols sent per codeword (n minus the punctured)")
        .def_property_readonly(
            "transmitted_positions",
            [](const ldpc_code& c) { return to_array(c.transmitted_positions()); })
        .def_property_readonly(
            "punctured_positions",
            [](const ldpc_code& c) { return to_array(c.punctured_positions()); })
        .def_property_readonly(
            "layered_check_order",
            [](const ldpc_code& c) { return to_array(c.layered_check_order()); },
            "the order of the checks in the layered schedule")
        .def_property_readonly(
            "layered_runs",
            [](const ldpc_code& c) { return to_array(c.layered_runs()); },
            "start positions (into layered_check_order) of the runs of checks that "
            "share no bit, and checks at the end")
        .def("with_coloured_layers",
             &ldpc_code::with_coloured_layers,
             "the code with a layered order of few, long runs (checks grouped by a "
             "colouring in which checks sharing a bit differ; for codes without "
             "quasi-cyclic or DVB-S2 structure; the CUDA fft-bp decoder decodes "
             "layered in row order only)")
        .def_property_readonly("has_accumulator_parity",
                               &ldpc_code::has_accumulator_parity,
                               "parity bits accumulate (dual-diagonal parity part)")
        .def_property_readonly(
            "lifting",
            [](const ldpc_code& c) { return c.quasi_cyclic_base().z; },
            "z of a quasi-cyclic code, 0 for other codes")
        .def_property_readonly(
            "base_matrix",
            [](const ldpc_code& c) -> py::object {
                const auto& b = c.quasi_cyclic_base();
                if (b.z == 0)
                    return py::none();
                py::array_t<int32_t> out({ size_t(b.rows), size_t(b.cols) });
                std::copy(b.shifts.begin(), b.shifts.end(), out.mutable_data());
                return std::move(out);
            },
            "shifts of a quasi-cyclic code (rows x cols, -1: zero block), else None")
        .def(
            "find_quasi_cyclic_base",
            [](const ldpc_code& c) -> py::object {
                const auto b = c.find_quasi_cyclic_base();
                if (b.z == 0)
                    return py::none();
                py::array_t<int32_t> out({ size_t(b.rows), size_t(b.cols) });
                std::copy(b.shifts.begin(), b.shifts.end(), out.mutable_data());
                return py::make_tuple(b.z, std::move(out));
            },
            "(z, shifts) of H's quasi-cyclic structure in its own order (the "
            "largest lifting z >= 2 whose blocks are all zero or cyclic shifts; "
            "found for a code read from an alist file), or None; the code is "
            "unchanged, the GPU decoder uses the structure")
        .def_property_readonly("poly",
                               [](const ldpc_code& c) { return c.field().polynomial(); })
        .def_property_readonly(
            "field",
            [](const ldpc_code& c) { return std::make_shared<gf_field>(c.field()); })
        .def_property_readonly(
            "info_positions",
            [](const ldpc_code& c) { return to_array(c.info_positions()); },
            "codeword positions of the k information symbols")
        .def_property_readonly(
            "parity_positions",
            [](const ldpc_code& c) { return to_array(c.parity_positions()); })
        .def(
            "dense",
            [](const ldpc_code& c) {
                py::array_t<uint8_t> out({ size_t(c.checks()), size_t(c.n()) });
                const auto h = c.dense();
                std::copy(h.begin(), h.end(), out.mutable_data());
                return out;
            },
            "H as a dense checks x n uint8 array")
        .def(
            "sparse",
            [](const ldpc_code& c) {
                const auto e = c.entries();
                py::array_t<uint32_t> rows(e.size()), cols(e.size());
                py::array_t<uint8_t> vals(e.size());
                for (size_t i = 0; i < e.size(); ++i) {
                    rows.mutable_data()[i] = e[i].row;
                    cols.mutable_data()[i] = e[i].col;
                    vals.mutable_data()[i] = e[i].value;
                }
                return py::make_tuple(rows, cols, vals);
            },
            "H as (rows, cols, values) arrays of its nonzero entries, row-major")
        .def_property_readonly(
            "check_offsets",
            [](const ldpc_code& c) { return to_array(c.check_offsets()); })
        .def_property_readonly(
            "edge_variable",
            [](const ldpc_code& c) { return to_array(c.edge_variable()); })
        .def_property_readonly(
            "edge_coefficient",
            [](const ldpc_code& c) { return to_array(c.edge_coefficient()); })
        .def_property_readonly(
            "variable_offsets",
            [](const ldpc_code& c) { return to_array(c.variable_offsets()); })
        .def_property_readonly(
            "variable_edges",
            [](const ldpc_code& c) { return to_array(c.variable_edges()); })
        .def(
            "encode",
            [](const ldpc_code& c, py::object info_arg) {
                const auto info = array_arg<uint8_t>(info_arg, "encode", "info");
                const size_t frames = frames_of(info, c.k(), "info");
                std::vector<size_t> shape{ c.n() };
                if (info.ndim() == 2)
                    shape.insert(shape.begin(), frames);
                py::array_t<uint8_t> out(shape);
                const uint8_t* in = info.data();
                uint8_t* o = out.mutable_data();
                {
                    py::gil_scoped_release release;
                    c.encode(in, o, frames);
                }
                return out;
            },
            py::arg("info"),
            "Systematic encoding: info (frames x k uint8 GF(q) symbols; uint8 or bool, "
            "or lists of integers in 0..255, any other dtype raises TypeError) -> "
            "codewords (frames x n); codeword[:, info_positions] == info.")
        .def(
            "puncture",
            [](const ldpc_code& c, py::object cw_arg) {
                const auto cw = array_arg<uint8_t>(cw_arg, "puncture", "codeword");
                const size_t frames = frames_of(cw, c.n(), "codeword");
                std::vector<size_t> shape{ c.n_transmitted() };
                if (cw.ndim() == 2)
                    shape.insert(shape.begin(), frames);
                py::array_t<uint8_t> out(shape);
                c.puncture(cw.data(), out.mutable_data(), frames);
                return out;
            },
            py::arg("codeword"),
            "The transmitted symbols of codewords: (frames x n) -> (frames x "
            "n_transmitted); the codewords themselves when nothing is punctured.")
        .def(
            "syndrome_weight",
            [](const ldpc_code& c, py::object cw_arg) {
                const auto cw = array_arg<uint8_t>(cw_arg, "syndrome_weight", "codeword");
                const size_t frames = frames_of(cw, c.n(), "codeword");
                py::array_t<uint32_t> out(frames);
                for (size_t f = 0; f < frames; ++f) {
                    for (size_t j = 0; j < c.n(); ++j)
                        if (cw.data()[f * c.n() + j] >= c.q())
                            throw py::value_error("codeword holds a symbol >= q");
                    out.mutable_data()[f] = c.syndrome_weight(cw.data() + f * c.n());
                }
                return out;
            },
            py::arg("codeword"),
            "Unsatisfied checks per frame (0 for a codeword); codeword: uint8 or bool "
            "(frames x n).")
        .def("__repr__", [](const ldpc_code& c) {
            return "ldpc_code(n=" + std::to_string(c.n()) +
                   ", k=" + std::to_string(c.k()) +
                   ", checks=" + std::to_string(c.checks()) +
                   ", q=" + std::to_string(c.q()) + ")";
        });

    m.def(
        "construct_regular_code",
        [](long long n,
           long long dv,
           long long dc,
           long long q,
           py::object seed,
           long long poly) {
            return std::make_shared<ldpc_code>(construct_regular_code(
                int_arg<unsigned>(n, "n", "1 or more", 1),
                int_arg<unsigned>(dv, "dv", "1 or more", 1),
                int_arg<unsigned>(dc, "dc", "2 or more", 2),
                int_arg<unsigned>(q, "q", "2, 4, 8, 16, 32, 64, 128 or 256"),
                pyargs::uint64_arg(seed, "seed"),
                poly_arg(poly)));
        },
        py::arg("n"),
        py::arg("dv"),
        py::arg("dc"),
        py::arg("q") = 2,
        py::arg("seed") = 1,
        py::arg("poly") = 0,
        "Random (dv, dc)-regular code over GF(q) without 4-cycles; coefficients "
        "uniform over 1..q-1.");
    m.def("count_4_cycles", &count_4_cycles, py::arg("code"));
}
