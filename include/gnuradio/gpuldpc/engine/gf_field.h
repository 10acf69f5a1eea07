/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_GF_FIELD_H
#define INCLUDED_GPULDPC_ENGINE_GF_FIELD_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstdint>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Plain view of the lookup tables of a GF(2^m), for kernels.
 *
 * All pointers refer to memory owned by a gf_field and stay valid as long as
 * that object lives. The layout is flat so that the tables can be copied to
 * device memory (constant or shared) as they are:
 * - mul[a * q + b] = a * b
 * - exp[e] = alpha^e for e in [0, 2(q-1)), so that exp[log a + log b] needs
 *   no reduction modulo q-1
 * - log[a] = e with alpha^e = a for a != 0; log[0] = 0xff (undefined)
 * - inv[a] = a^-1 for a != 0; inv[0] = 0 (undefined)
 */
struct gf_tables_view {
    unsigned m;
    unsigned q;
    const uint8_t* mul;
    const uint8_t* exp;
    const uint8_t* log;
    const uint8_t* inv;
};

/*!
 * \brief The finite field GF(2^m), m = 1..8, in polynomial representation.
 *
 * Elements are the integers 0..q-1, bit i being the coefficient of x^i.
 * Addition is XOR. Multiplication is modulo a primitive polynomial of degree
 * m, written as an integer with bit m set (x^8+x^4+x^3+x^2+1 = 0x11d).
 *
 * Default primitive polynomials (default_polynomial(m)):
 * | m | polynomial             | integer |
 * |---|------------------------|---------|
 * | 1 | x + 1                  | 0x3     |
 * | 2 | x^2 + x + 1            | 0x7     |
 * | 3 | x^3 + x + 1            | 0xb     |
 * | 4 | x^4 + x + 1            | 0x13    |
 * | 5 | x^5 + x^2 + 1          | 0x25    |
 * | 6 | x^6 + x + 1            | 0x43    |
 * | 7 | x^7 + x^3 + 1          | 0x89    |
 * | 8 | x^8 + x^4 + x^3 + x^2 + 1 | 0x11d |
 * The GF(64) and GF(256) choices match the RPTU non-binary LDPC code
 * database, so its files load with the default.
 *
 * Contract:
 * - The constructor MUST reject m outside 1..8 and a polynomial that is not
 *   primitive of degree m (std::invalid_argument naming the argument).
 * - mul/add/inv/div/log/exp MUST be called with elements < q; inv, div and log
 *   are undefined for 0 and do not check (the checked variants throw).
 * - The object is immutable after construction and safe to share between
 *   threads.
 */
class GPULDPC_ENGINE_API gf_field
{
public:
    /*! Default primitive polynomial of degree m (table above). */
    static unsigned default_polynomial(unsigned m);

    /*! True when poly is a primitive polynomial of degree m over GF(2). */
    static bool is_primitive(unsigned m, unsigned poly);

    /*!
     * \param m bits per symbol, 1..8 (q = 2^m)
     * \param poly field polynomial with bit m set; 0 selects the default
     */
    explicit gf_field(unsigned m, unsigned poly = 0);

    unsigned m() const { return d_m; }
    unsigned q() const { return d_q; }
    unsigned polynomial() const { return d_poly; }

    uint8_t add(uint8_t a, uint8_t b) const { return a ^ b; }
    uint8_t mul(uint8_t a, uint8_t b) const { return d_mul[(unsigned)a * d_q + b]; }
    uint8_t inv(uint8_t a) const { return d_inv[a]; }
    uint8_t div(uint8_t a, uint8_t b) const { return mul(a, d_inv[b]); }
    /*! Discrete logarithm to base alpha; a must be nonzero. */
    uint8_t log(uint8_t a) const { return d_log[a]; }
    /*! alpha^e for any e >= 0. */
    uint8_t exp(unsigned e) const { return d_exp[e % (d_q - 1)]; }

    /*! div() that throws std::domain_error when b == 0. */
    uint8_t checked_div(uint8_t a, uint8_t b) const;
    /*! inv() that throws std::domain_error when a == 0. */
    uint8_t checked_inv(uint8_t a) const;

    /*! Row a of the multiplication table: mul_row(a)[b] = a * b. */
    const uint8_t* mul_row(uint8_t a) const { return &d_mul[(unsigned)a * d_q]; }

    gf_tables_view tables() const;

private:
    unsigned d_m;
    unsigned d_q;
    unsigned d_poly;
    std::vector<uint8_t> d_mul; // q * q
    std::vector<uint8_t> d_exp; // 2 (q - 1)
    std::vector<uint8_t> d_log; // q
    std::vector<uint8_t> d_inv; // q
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_GF_FIELD_H */
