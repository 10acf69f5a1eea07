/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/gf_field.h>
#include <sstream>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

void check_m(unsigned m)
{
    if (m < 1 || m > 8) {
        std::ostringstream msg;
        msg << "gf_field: m=" << m << " is out of range; allowed: 1..8 (q = 2..256)";
        throw std::invalid_argument(msg.str());
    }
}

// Multiplicative order of x modulo poly, or 0 when x^k never returns to 1
// within q-1 steps (poly not primitive, or x not a unit).
unsigned order_of_x(unsigned m, unsigned poly)
{
    const unsigned q = 1u << m;
    unsigned e = 1;
    for (unsigned k = 1; k <= q - 1; ++k) {
        e <<= 1;
        if (e & q)
            e ^= poly;
        if (e == 0)
            return 0;
        if (e == 1)
            return k;
    }
    return 0;
}

} // namespace

unsigned gf_field::default_polynomial(unsigned m)
{
    static const unsigned table[9] = { 0, 0x3, 0x7, 0xb, 0x13, 0x25, 0x43, 0x89, 0x11d };
    check_m(m);
    return table[m];
}

bool gf_field::is_primitive(unsigned m, unsigned poly)
{
    check_m(m);
    if ((poly >> m) != 1u)
        return false;
    return order_of_x(m, poly) == (1u << m) - 1;
}

gf_field::gf_field(unsigned m, unsigned poly) : d_m(m), d_q(0), d_poly(poly)
{
    check_m(m);
    d_q = 1u << m;
    if (d_poly == 0)
        d_poly = default_polynomial(m);
    if ((d_poly >> m) != 1u) {
        std::ostringstream msg;
        msg << "gf_field: poly=0x" << std::hex << d_poly << std::dec
            << " does not have degree m=" << m << "; allowed: an integer in [0x"
            << std::hex << (1u << m) << ", 0x" << (2u << m) << ") with bit " << std::dec
            << m << " set, or 0 for the default 0x" << std::hex << default_polynomial(m);
        throw std::invalid_argument(msg.str());
    }
    const unsigned order = order_of_x(m, d_poly);
    if (order != d_q - 1) {
        std::ostringstream msg;
        msg << "gf_field: poly=0x" << std::hex << d_poly << std::dec
            << " is not a primitive polynomial of degree " << m << " (x has ";
        if (order == 0)
            msg << "no finite order";
        else
            msg << "order " << order;
        msg << ", a primitive polynomial gives order " << d_q - 1
            << "); allowed: a primitive polynomial, or 0 for the default 0x" << std::hex
            << default_polynomial(m);
        throw std::invalid_argument(msg.str());
    }

    d_exp.resize(2 * (d_q - 1));
    d_log.assign(d_q, 0xff);
    unsigned e = 1;
    for (unsigned k = 0; k < d_q - 1; ++k) {
        d_exp[k] = static_cast<uint8_t>(e);
        d_exp[k + d_q - 1] = static_cast<uint8_t>(e);
        d_log[e] = static_cast<uint8_t>(k);
        e <<= 1;
        if (e & d_q)
            e ^= d_poly;
    }

    d_inv.assign(d_q, 0);
    for (unsigned a = 1; a < d_q; ++a)
        d_inv[a] = d_exp[(d_q - 1 - d_log[a]) % (d_q - 1)];

    d_mul.assign(d_q * d_q, 0);
    for (unsigned a = 1; a < d_q; ++a)
        for (unsigned b = 1; b < d_q; ++b)
            d_mul[a * d_q + b] = d_exp[d_log[a] + d_log[b]];
}

uint8_t gf_field::checked_div(uint8_t a, uint8_t b) const
{
    if (a >= d_q || b >= d_q)
        throw std::invalid_argument("gf_field::div: operand is not an element of GF(" +
                                    std::to_string(d_q) + ")");
    if (b == 0)
        throw std::domain_error("gf_field::div: division by zero");
    return div(a, b);
}

uint8_t gf_field::checked_inv(uint8_t a) const
{
    if (a >= d_q)
        throw std::invalid_argument("gf_field::inv: operand is not an element of GF(" +
                                    std::to_string(d_q) + ")");
    if (a == 0)
        throw std::domain_error("gf_field::inv: zero has no inverse");
    return inv(a);
}

gf_tables_view gf_field::tables() const
{
    return gf_tables_view{ d_m,          d_q,          d_mul.data(),
                           d_exp.data(), d_log.data(), d_inv.data() };
}

} // namespace gpuldpc
} // namespace gr
