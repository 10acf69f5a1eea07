/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_LDPC_CODE_H
#define INCLUDED_GPULDPC_ENGINE_LDPC_CODE_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <gnuradio/gpuldpc/engine/gf_field.h>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*! File format of a parity-check matrix. */
enum class code_format {
    //! binary alist when the first line holds 2 numbers; with 3, a .qc file when
    //! the next line holds 'columns' shifts (for 2 columns: when the file also has
    //! the length of one), else a non-binary alist
    automatic,
    alist,    //!< MacKay's binary alist
    nb_alist, //!< non-binary alist: "N M q" header, (index, coefficient) pairs
    //! quasi-cyclic base matrix (AFF3CT's .qc): a header "columns rows z", the
    //! matrix of cyclic shifts (-1: zero block), and optionally a line of 0/1
    //! per base column (0: the column's z bits are punctured); binary codes only
    qc,
};

/*! How a non-binary alist writes the nonzero entries of H. */
enum class coef_convention {
    exponent,   //!< e in 0..q-2 stands for alpha^e (RPTU database convention)
    polynomial, //!< the element itself, 1..q-1, in polynomial (integer) form
};

/*! Options for reading and writing parity-check matrix files. */
struct code_io_options {
    code_format format = code_format::automatic;
    coef_convention coef = coef_convention::exponent;
    //! field polynomial (0: gf_field::default_polynomial); ignored for q = 2
    unsigned poly = 0;
};

/*! Parses "auto", "alist", "nb-alist" (also "nb_alist"), "qc"; throws naming \p arg. */
GPULDPC_ENGINE_API code_format parse_code_format(const std::string& s,
                                                 const std::string& arg = "format");
/*! Parses "exponent", "polynomial"; throws naming \p arg. */
GPULDPC_ENGINE_API coef_convention parse_coef_convention(const std::string& s,
                                                         const std::string& arg = "coef");

namespace detail {
class parity_solver; // a structured encoder (lib/engine/parity_solver.h)
} // namespace detail

/*!
 * \brief Error in a parity-check matrix file: carries the file name and line.
 *
 * what() reads "<file>:<line>: <problem>".
 */
class GPULDPC_ENGINE_API code_file_error : public std::runtime_error
{
public:
    code_file_error(const std::string& file, size_t line, const std::string& problem);
    const std::string& file() const { return d_file; }
    size_t line() const { return d_line; }
    const std::string& problem() const { return d_problem; }

private:
    std::string d_file;
    size_t d_line;
    std::string d_problem;
};

/*!
 * \brief A sparse LDPC parity-check matrix H (M x N) over GF(q), q = 2^m, with
 * its Tanner graph and a systematic encoder.
 *
 * The graph is stored in both orders:
 * - check-major: the edges of check c are check_offsets()[c] ..
 *   check_offsets()[c+1]-1, sorted by variable; edge e connects
 *   edge_variable()[e] with coefficient edge_coefficient()[e] (nonzero).
 * - variable-major: the edges of variable v are
 *   variable_edges()[variable_offsets()[v] .. variable_offsets()[v+1]-1],
 *   indices into the check-major arrays, in increasing check order.
 *
 * Encoder: Gaussian elimination over GF(q) finds rank(H) pivot (parity)
 * columns; the other K = N - rank(H) columns carry the information,
 * unchanged (info_positions(), ascending). This also holds for rank-deficient
 * H. The elimination runs once, in the constructor. A binary H whose last M
 * columns form a dual diagonal (H[r][K+r] = 1, H[r][K+r-1] = 1 for r >= 1, no
 * other entry in those columns: the repeat-accumulate structure of DVB-S2,
 * DVB-T2 and ATSC 3.0) needs no elimination: its parity bits accumulate
 * (has_accumulator_parity()). The CCSDS AR4JA codes (ar4ja()) solve for
 * their parity through their protograph instead, so that the information
 * stays in the standard's first k columns, where an elimination would move
 * some of it.
 *
 * Puncturing: columns of H MAY be punctured, a property of the code. Their
 * symbols are part of every codeword but never transmitted: puncture() keeps
 * the n_transmitted() others, and decoders take soft values of the transmitted
 * symbols only, treating punctured ones as erasures.
 *
 * Quasi-cyclic codes: a code made from a base matrix of cyclic shifts
 * (from_base_matrix(), format qc) keeps it (quasi_cyclic_base()); block (i, j) with
 * shift s >= 0 connects row i*z + r with column j*z + (r + s) mod z.
 *
 * Contract:
 * - Every constructor and loader MUST either return a complete, validated
 *   object or throw (std::invalid_argument for bad arguments,
 *   code_file_error for a bad file); no partial object exists.
 * - An ldpc_code is immutable after construction; all const members are safe
 *   to call from several threads at once.
 * - encode() MUST be given symbols < q; it throws std::invalid_argument
 *   otherwise, before writing anything.
 */
class GPULDPC_ENGINE_API ldpc_code
{
public:
    using sptr = std::shared_ptr<const ldpc_code>;

    /*! One nonzero entry of H. */
    struct entry {
        uint32_t row;
        uint32_t col;
        uint8_t value;
    };

    /*!
     * \brief H from its nonzero entries.
     * \param n number of variable nodes (symbols), >= 1
     * \param m number of checks, >= 1
     * \param q field size: 2, 4, ..., 256
     * \param entries nonzero entries; a position MUST NOT repeat, values in 1..q-1
     * \param poly field polynomial (0: default)
     * \param punctured columns that are never transmitted (distinct, < n, fewer
     *        than n)
     */
    ldpc_code(unsigned n,
              unsigned m,
              unsigned q,
              const std::vector<entry>& entries,
              unsigned poly = 0,
              const std::vector<uint32_t>& punctured = {});

    /*! A quasi-cyclic base matrix: rows x cols blocks of z x z. */
    struct base_matrix {
        unsigned rows = 0;
        unsigned cols = 0;
        unsigned z = 0;              //!< lifting size; 0: the code is not quasi-cyclic
        std::vector<int32_t> shifts; //!< rows * cols, row-major; -1: zero block
        //! cols entries: 1 transmitted, 0 punctured (all 1 when nothing is)
        std::vector<uint8_t> transmitted;
    };

    /*!
     * \brief A binary quasi-cyclic code from its base matrix.
     *
     * The base matrix of a CCSDS AR4JA code (ar4ja(), puncturing included:
     * a .qc file written from one) gives that code, with its encoder and
     * information columns.
     * \param base shifts in -1..z-1; transmitted empty (all) or one 0/1 per column
     * \throws std::invalid_argument naming the bad field
     */
    static ldpc_code from_base_matrix(const base_matrix& base);

    /*! H from a dense row-major M x N matrix of GF(q) elements. */
    static ldpc_code
    from_dense(unsigned m, unsigned n, unsigned q, const uint8_t* h, unsigned poly = 0);

    /*!
     * \brief Reads a parity-check matrix file, or makes a built-in code.
     *
     * \p path "dvbs2:RATE" or "dvbs2:RATE:short" (when no file of that name
     * exists) names the DVB-S2 code of dvbs2(RATE, "normal" or "short"), and
     * "nr:BG:Z" (e.g. "nr:1:384") the 5G NR code of nr(BG, Z), "nr:BG:Z:ROWS"
     * (e.g. "nr:1:384:8") that of nr(BG, Z, ROWS), so that every
     * entry point that takes a code file takes those codes too.
     */
    static ldpc_code load(const std::string& path, const code_io_options& opts = {});

    /*!
     * \brief A DVB-S2 LDPC code (ETSI EN 302 307-1, clause 5.3.2, Annexes B and C).
     *
     * H is built from the standard's parity accumulator tables; the codeword is
     * the standard's: K information bits, then N - K parity bits, encoded by
     * accumulation (has_accumulator_parity()). The outer BCH code is not part
     * of it.
     * \param rate "1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4", "4/5", "5/6",
     *        "8/9", and "9/10" for normal frames
     * \param frame "normal" (N = 64800) or "short" (N = 16200); short frames
     *        carry the standard's K, so their rates are below the nominal ones
     * \throws std::invalid_argument naming the argument and the allowed values
     */
    static ldpc_code dvbs2(const std::string& rate, const std::string& frame = "normal");

    /*!
     * \brief A 5G NR LDPC code (3GPP TS 38.212, clause 5.3.2): base graph 1
     * (46 x 68, K = 22 Z) or 2 (42 x 52, K = 10 Z) lifted by Z.
     *
     * The mother code as the standard defines it before rate matching: its
     * first 2 Z systematic bits are punctured (n_transmitted() = 66 Z or 50 Z),
     * no filler bits, no shortening. Quasi-cyclic (quasi_cyclic_base()).
     * \param z lifting size a * 2^j <= 384, a in {2, 3, 5, 7, 9, 11, 13, 15}
     * \throws std::invalid_argument naming the argument and the allowed values
     */
    static ldpc_code nr(unsigned base_graph, unsigned z);

    /*!
     * \brief The 5G NR code of the first \p parity_rows base rows: the
     * standard's rates between the mother code's and the core's.
     *
     * Base rows 0 .. parity_rows - 1 and base columns 0 .. K_b + parity_rows
     * - 1 (K_b = 22 for base graph 1, 10 for 2): the core's 4 rows and, for
     * each extension row, its degree-1 parity column. What a receiver decodes
     * after 38.212 rate matching sent fewer parity bits than the mother code
     * has. The first 2 Z bits are punctured as in nr(base_graph, z); rate
     * K_b / (K_b + parity_rows - 2) (BG1 at 46 rows: 1/3; at 4: 22/24).
     * \param parity_rows 4 .. 46 (base graph 1) or 4 .. 42 (base graph 2);
     *        0: all (the mother code)
     * \throws std::invalid_argument naming the argument and the allowed values
     */
    static ldpc_code nr(unsigned base_graph, unsigned z, unsigned parity_rows);

    /*!
     * \brief An IEEE 802.11n (HT) LDPC code (IEEE Std 802.11-2020, clause
     * 19.3.11.7, Annex F): 24 base columns lifted by Z = n / 24.
     *
     * Quasi-cyclic (quasi_cyclic_base()); nothing punctured or shortened.
     * \param n 648, 1296 or 1944
     * \param rate "1/2", "2/3", "3/4" or "5/6"
     * \throws std::invalid_argument naming the argument and the allowed values
     */
    static ldpc_code wifi(unsigned n, const std::string& rate);

    /*!
     * \brief An IEEE 802.16e (mobile WiMAX) LDPC code (IEEE Std 802.16-2009,
     * clause 8.4.9.2.5.1): 24 base columns lifted by z = n / 24, the
     * standard's shifts for z0 = 96 scaled to z (modulo z for rate 2/3A,
     * floor(p z / 96) for the others).
     *
     * Quasi-cyclic (quasi_cyclic_base()); nothing punctured or shortened;
     * information bits first.
     * \param n 576 .. 2304 in steps of 96 (z = 24 .. 96 in steps of 4)
     * \param rate "1/2", "2/3A", "2/3B", "3/4A", "3/4B" or "5/6" (the code
     *        type's letter in either case)
     * \throws std::invalid_argument naming the argument and the allowed values
     */
    static ldpc_code wimax(unsigned n, const std::string& rate);

    /*!
     * \brief A CCSDS AR4JA LDPC code (CCSDS 131.0-B-5, TM Synchronization and
     * Channel Coding, clause 7.4): a protograph of 3 block rows lifted by M =
     * k / 2, k / 4 or k / 8 for rates 1/2, 2/3, 4/5.
     *
     * The standard's codeword: k information bits, then the parity bits, of
     * which the last M are punctured (n_transmitted() = 2k, 3k/2 or 5k/4).
     * Quasi-cyclic (quasi_cyclic_base()) with lifting size M / 4: each of the
     * standard's permutations is four circulants of that size.
     * \param k 1024, 4096 or 16384
     * \param rate "1/2", "2/3" or "4/5"
     * \throws std::invalid_argument naming the argument and the allowed values
     */
    static ldpc_code ar4ja(unsigned k, const std::string& rate);

    /*! Reads from a stream; \p name is used in error messages. */
    static ldpc_code
    read(std::istream& in, const std::string& name, const code_io_options& opts = {});

    /*!
     * Writes the code. With format automatic, a quasi-cyclic code is written
     * as qc, another q = 2 code as binary alist and q > 2 as non-binary alist.
     * Writing a q > 2 code as binary alist, or a code with punctured columns
     * in a format without them (alist, nb-alist), throws
     * std::invalid_argument. Lists are written without 0 padding, the
     * form GNU Radio's own alist reader needs; an empty list is a single 0.
     */
    void save(const std::string& path, const code_io_options& opts = {}) const;
    void write(std::ostream& out, const code_io_options& opts = {}) const;

    unsigned n() const { return d_n; }      //!< symbols per codeword
    unsigned checks() const { return d_m; } //!< checks (rows of H)
    /*!
     * \deprecated The number of checks under its older name; m names the bits
     * per symbol of GF(2^m) elsewhere (bits_per_symbol()). Use checks().
     */
    unsigned m() const { return d_m; }
    unsigned k() const { return d_n - d_rank; }              //!< information symbols
    unsigned rank() const { return d_rank; }                 //!< rank of H over GF(q)
    unsigned q() const { return d_field.q(); }               //!< field size
    unsigned bits_per_symbol() const { return d_field.m(); } //!< log2(q)
    //! information symbols per transmitted symbol: K / n_transmitted()
    double rate() const { return double(k()) / double(n_transmitted()); }
    size_t num_edges() const { return d_edge_variable.size(); }
    const gf_field& field() const { return d_field; }

    const std::vector<uint32_t>& check_offsets() const { return d_check_offsets; }
    const std::vector<uint32_t>& edge_variable() const { return d_edge_variable; }
    const std::vector<uint8_t>& edge_coefficient() const { return d_edge_coefficient; }
    const std::vector<uint32_t>& variable_offsets() const { return d_variable_offsets; }
    const std::vector<uint32_t>& variable_edges() const { return d_variable_edges; }

    unsigned check_degree(unsigned c) const
    {
        return d_check_offsets[c + 1] - d_check_offsets[c];
    }
    unsigned variable_degree(unsigned v) const
    {
        return d_variable_offsets[v + 1] - d_variable_offsets[v];
    }

    /*! Codeword positions of the K information symbols, ascending. */
    const std::vector<uint32_t>& info_positions() const { return d_info_positions; }
    /*! Codeword positions of the rank(H) parity symbols, ascending. */
    const std::vector<uint32_t>& parity_positions() const { return d_parity_positions; }

    /*! Symbols of a codeword that are transmitted: n() minus the punctured. */
    unsigned n_transmitted() const { return unsigned(d_transmitted_positions.size()); }
    /*! Codeword positions that are transmitted, ascending. */
    const std::vector<uint32_t>& transmitted_positions() const
    {
        return d_transmitted_positions;
    }
    /*! Codeword positions that are punctured, ascending (often empty). */
    const std::vector<uint32_t>& punctured_positions() const
    {
        return d_punctured_positions;
    }
    /*! The base matrix of a quasi-cyclic code (z == 0 for other codes). */
    const base_matrix& quasi_cyclic_base() const { return d_base; }
    /*!
     * \brief The base matrix of a binary code whose H is quasi-cyclic in its
     * own row and column order, found from H (a code read from an alist file
     * has no quasi_cyclic_base()).
     *
     * The largest z >= 2 dividing n() and checks() for which every z x z block
     * of H is zero or a cyclic shift of the identity (row r of a block with
     * shift s at column (r + s) mod z) and the punctured columns are whole
     * blocks; quasi_cyclic_base() itself where the code has one; z == 0 where
     * none is found (and for q > 2), or where the base matrix would have
     * more than 2^24 entries. The code is unchanged (it is written as
     * before); decoders use the structure where it is found (the layered
     * order is left in base rows, the GPU's quasi-cyclic kernels). Cost: at
     * most a pass over the edges for each divisor tried (most codes without
     * the structure fail at the first checks), memory O(n/z) for the
     * search.
     */
    base_matrix find_quasi_cyclic_base() const;
    /*!
     * \brief The order in which the layered schedule visits the checks.
     *
     * Row order, unless the code has a better one. A DVB-S2 code's checks
     * fall into Q = (N - K) / 360 layers, layer j the 360 checks j + iQ
     * (i = 0 .. 359), which share no parity bit (in row order, p[r] links
     * every check to the next); the code is visited in runs of a colouring
     * of its checks (as with_coloured_layers(): two checks sharing a bit
     * differ in colour), a run a colour, larger runs first, each layer by
     * layer: 10 to 30 runs (rate 1/2: 13) of up to some thousands of
     * checks, where the layers would take 34 to 139 runs of 360 or fewer.
     * A permutation of 0 .. checks() - 1.
     */
    const std::vector<uint32_t>& layered_check_order() const { return d_check_order; }
    /*!
     * \brief Runs of layered_check_order() whose checks share no variable:
     * run i is positions layered_runs()[i] .. layered_runs()[i+1]-1 of the
     * order (each run as long as it can be, taken greedily from the start;
     * a DVB-S2 code and a code of with_coloured_layers() a run a colour).
     *
     * Updating a run's checks at once gives the result of updating them one
     * after another, so a parallel decoder follows the layered schedule
     * exactly. A quasi-cyclic code's runs are its base rows (z checks each,
     * or longer where consecutive base rows share no column).
     */
    const std::vector<uint32_t>& layered_runs() const { return d_layered_runs; }
    /*!
     * \brief The code with a layered order of few, long runs: its checks
     * grouped by a colouring of the graph in which two checks sharing a bit
     * differ in colour (DSatur), a run a colour, larger runs first, each in
     * the order of layered_check_order().
     *
     * Layered decoding of a code without quasi-cyclic or DVB-S2 structure in
     * row order takes runs of a few checks (the shipped (3,6) n = 1008
     * code: 69 runs, about 7 checks each), and a GPU updates one run at a
     * time; coloured, that code has 7 runs. The result is the same code
     * (H, encoder, punctured bits) with another layered order, so that
     * layered decoders (CPU and GPU alike) follow another sequence of check
     * updates: decisions differ from row order frame by frame, error rates
     * do not (within statistics). Flooding is unaffected. The CUDA fft-bp
     * decoder (q > 2, or binary with fft-bp) decodes layered in row order
     * only, so such a code decodes layered on the CPU (flooding on a GPU). Quasi-cyclic
     * codes are better left in their base rows (Wi-Fi n = 1944: 12 runs of 81, coloured
     * 15). DVB-S2 codes come coloured (layered_check_order()).
     */
    ldpc_code with_coloured_layers() const;

    /*! True when the parity bits accumulate (see the class description). */
    bool has_accumulator_parity() const { return d_accumulator_parity; }

    /*!
     * \brief How encode() finds the parity symbols, for encoders outside this
     * class (the simulator's on the GPU):
     * - accumulator: has_accumulator_parity();
     * - echelon: back-substitution through echelon_pivots() and
     *   echelon_row() (codes from a matrix, 5G NR, 802.11n, 802.16e);
     * - structured: a solver of the code's family that this class keeps to
     *   itself (CCSDS AR4JA).
     */
    enum class encoder_kind { accumulator, echelon, structured };
    encoder_kind encoder() const;
    /*!
     * \brief The sparse row-echelon form that encode() back-substitutes
     * where encoder() is echelon (otherwise unused, and MAY be empty).
     *
     * Going from the last pivot p to the first, parity symbol
     * echelon_pivots()[p] MUST be set to the sum over j of
     * echelon_values()[j] * codeword[echelon_columns()[j]], j from
     * echelon_offsets()[p] to echelon_offsets()[p + 1] - 1 (GF(q) arithmetic):
     * every column there is an information position or the pivot of a later
     * p, and every parity position is a pivot.
     */
    const std::vector<uint32_t>& echelon_pivots() const { return d_echelon_pivot; }
    const std::vector<uint32_t>& echelon_offsets() const { return d_echelon_offsets; }
    const std::vector<uint32_t>& echelon_columns() const { return d_echelon_col; }
    const std::vector<uint8_t>& echelon_values() const { return d_echelon_value; }

    /*!
     * \brief The transmitted symbols of codewords.
     * \param codeword n_frames * n() symbols
     * \param transmitted n_frames * n_transmitted() symbols out
     */
    void
    puncture(const uint8_t* codeword, uint8_t* transmitted, size_t n_frames = 1) const;

    /*! Nonzero entries, row-major. */
    std::vector<entry> entries() const;
    /*! Dense row-major M x N copy of H. */
    std::vector<uint8_t> dense() const;

    /*!
     * \brief Systematic encoding of a batch.
     * \param info n_frames * K symbols, frame after frame
     * \param codeword n_frames * N symbols out; codeword[info_positions()[i]] = info[i]
     */
    void encode(const uint8_t* info, uint8_t* codeword, size_t n_frames = 1) const;

    /*! Number of unsatisfied checks of one frame of N symbols. */
    unsigned syndrome_weight(const uint8_t* codeword) const;

private:
    void build_graph(const std::vector<entry>& entries);
    // The public constructor's work; without eliminate, the encoder is left to
    // set_parity_solver() (a code whose elimination would be slow or would
    // move its information bits).
    ldpc_code(unsigned n,
              unsigned m,
              unsigned q,
              const std::vector<entry>& entries,
              unsigned poly,
              const std::vector<uint32_t>& punctured,
              bool eliminate);
    static ldpc_code lift_base_matrix(const base_matrix& base, bool eliminate);
    void build_encoder();
    // Rank m, the first n - m symbols the information, the others parity (an
    // encoder that is not the elimination's).
    void take_information_first();
    // A structured encoder for a full-rank H (a code made without
    // elimination): the first n - m symbols carry the information, the
    // solver writes the others.
    void set_parity_solver(std::shared_ptr<const detail::parity_solver> solver);
    bool detect_accumulator_parity() const;
    void set_punctured(const std::vector<uint32_t>& punctured);

    unsigned d_n;
    unsigned d_m;
    gf_field d_field;
    unsigned d_rank = 0;

    std::vector<uint32_t> d_check_offsets;
    std::vector<uint32_t> d_edge_variable;
    std::vector<uint8_t> d_edge_coefficient;
    std::vector<uint32_t> d_variable_offsets;
    std::vector<uint32_t> d_variable_edges;

    std::vector<uint32_t> d_info_positions;
    std::vector<uint32_t> d_parity_positions;
    std::vector<uint32_t> d_transmitted_positions;
    std::vector<uint32_t> d_punctured_positions;
    base_matrix d_base;
    bool d_accumulator_parity = false;
    std::vector<uint32_t> d_check_order;
    std::vector<uint32_t> d_layered_runs;
    void build_layered_runs();
    // Reorders each layer (\p layer consecutive places of d_check_order, a
    // layer's checks meant to be updated together) into the fewest runs
    // found that share no bit, and makes those the runs.
    void split_layers_into_runs(unsigned layer);
    // A colour for each of checks[0 .. count - 1] (0, 1, ...), checks of a
    // colour sharing no bit.
    std::vector<uint32_t> clash_colours(const uint32_t* checks, uint32_t count) const;

    // Row-echelon form of H, one row per pivot in elimination order, each row
    // scaled so that its pivot is 1 and stored without the pivot. Row r holds
    // information columns and pivots of later rows only, so back-substitution
    // from the last row to the first yields the parity symbols.
    std::vector<uint32_t> d_echelon_pivot;
    std::vector<uint32_t> d_echelon_offsets;
    std::vector<uint32_t> d_echelon_col;
    std::vector<uint8_t> d_echelon_value;
    std::shared_ptr<const detail::parity_solver> d_parity_solver; // or the echelon
};

/*!
 * \brief A random (dv, dc)-regular code over GF(q) without 4-cycles.
 *
 * Edges are placed variable by variable; each variable picks dv distinct
 * checks among those with the most free sockets, at random among ties, never
 * a check that already shares a variable with one of its other checks (that
 * would close a 4-cycle). A dead end restarts with the next seed, up to
 * \p attempts times. Coefficients are uniform over 1..q-1.
 *
 * \param n variables; n * dv MUST be a multiple of dc
 * \throws std::invalid_argument for impossible parameters, std::runtime_error
 *         when no 4-cycle-free graph was found
 */
GPULDPC_ENGINE_API ldpc_code construct_regular_code(unsigned n,
                                                    unsigned dv,
                                                    unsigned dc,
                                                    unsigned q,
                                                    uint64_t seed,
                                                    unsigned poly = 0,
                                                    unsigned attempts = 100);

/*! Number of 4-cycles in the Tanner graph (pairs of variables sharing 2 checks). */
GPULDPC_ENGINE_API size_t count_4_cycles(const ldpc_code& code);

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_LDPC_CODE_H */
