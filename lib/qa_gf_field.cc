/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/gf_field.h>
#include <boost/test/unit_test.hpp>
#include <stdexcept>
#include <vector>

using gr::gpuldpc::gf_field;

namespace {

// Carry-less product reduced modulo poly: the definition of field
// multiplication, independent of the log/exp tables.
unsigned reference_mul(unsigned a, unsigned b, unsigned m, unsigned poly)
{
    unsigned prod = 0;
    for (unsigned i = 0; i < m; ++i)
        if (b & (1u << i))
            prod ^= a << i;
    for (int bit = 2 * int(m) - 2; bit >= int(m); --bit)
        if (prod & (1u << bit))
            prod ^= poly << (bit - int(m));
    return prod;
}

// Number of primitive polynomials of degree m: phi(2^m - 1) / m.
unsigned expected_primitive_count(unsigned m)
{
    const unsigned n = (1u << m) - 1;
    unsigned phi = 0;
    for (unsigned k = 1; k <= n; ++k) {
        unsigned a = k, b = n;
        while (b) {
            const unsigned t = a % b;
            a = b;
            b = t;
        }
        phi += a == 1;
    }
    return phi / m;
}

void check_axioms(const gf_field& f)
{
    const unsigned q = f.q();
    const unsigned m = f.m();
    for (unsigned a = 0; a < q; ++a) {
        BOOST_REQUIRE_EQUAL(f.mul(a, 0), 0);
        BOOST_REQUIRE_EQUAL(f.mul(a, 1), a);
        BOOST_REQUIRE_EQUAL(f.add(a, a), 0);
        if (a != 0) {
            BOOST_REQUIRE_EQUAL(f.mul(a, f.inv(a)), 1);
            BOOST_REQUIRE_EQUAL(f.exp(f.log(a)), a);
        }
        for (unsigned b = 0; b < q; ++b) {
            BOOST_REQUIRE_EQUAL(f.mul(a, b), reference_mul(a, b, m, f.polynomial()));
            BOOST_REQUIRE_EQUAL(f.mul(a, b), f.mul(b, a));
            if (b != 0)
                BOOST_REQUIRE_EQUAL(f.div(f.mul(a, b), b), a);
        }
    }
    // alpha generates the multiplicative group: exp hits every nonzero element once.
    std::vector<int> seen(q, 0);
    for (unsigned e = 0; e < q - 1; ++e)
        seen[f.exp(e)]++;
    BOOST_REQUIRE_EQUAL(seen[0], 0);
    for (unsigned a = 1; a < q; ++a)
        BOOST_REQUIRE_EQUAL(seen[a], 1);
    // associativity and distributivity on a stride that covers small fields fully
    const unsigned step = q <= 64 ? 1 : 7;
    for (unsigned a = 0; a < q; a += step)
        for (unsigned b = 0; b < q; b += (step == 1 ? 1 : 3))
            for (unsigned c = 0; c < q; ++c) {
                BOOST_REQUIRE_EQUAL(f.mul(f.mul(a, b), c), f.mul(a, f.mul(b, c)));
                BOOST_REQUIRE_EQUAL(f.mul(a, f.add(b, c)),
                                    f.add(f.mul(a, b), f.mul(a, c)));
            }
    // the plain table view agrees with the member functions
    const auto t = f.tables();
    BOOST_REQUIRE_EQUAL(t.q, q);
    BOOST_REQUIRE_EQUAL(t.m, m);
    for (unsigned a = 1; a < q; ++a) {
        BOOST_REQUIRE_EQUAL(t.inv[a], f.inv(a));
        BOOST_REQUIRE_EQUAL(t.log[a], f.log(a));
        BOOST_REQUIRE_EQUAL(t.mul[a * q + (q - 1)], f.mul(a, q - 1));
    }
    for (unsigned e = 0; e < 2 * (q - 1); ++e)
        BOOST_REQUIRE_EQUAL(t.exp[e], f.exp(e));
}

} // namespace

BOOST_AUTO_TEST_CASE(default_polynomials_are_primitive_and_documented)
{
    const unsigned documented[9] = { 0, 0x3, 0x7, 0xb, 0x13, 0x25, 0x43, 0x89, 0x11d };
    for (unsigned m = 1; m <= 8; ++m) {
        BOOST_CHECK_EQUAL(gf_field::default_polynomial(m), documented[m]);
        BOOST_CHECK(gf_field::is_primitive(m, documented[m]));
        gf_field f(m);
        BOOST_CHECK_EQUAL(f.q(), 1u << m);
        BOOST_CHECK_EQUAL(f.polynomial(), documented[m]);
    }
}

BOOST_AUTO_TEST_CASE(axioms_hold_for_every_primitive_polynomial)
{
    for (unsigned m = 1; m <= 8; ++m) {
        unsigned primitive = 0;
        for (unsigned poly = 1u << m; poly < (2u << m); ++poly) {
            if (!gf_field::is_primitive(m, poly)) {
                BOOST_CHECK_THROW(gf_field(m, poly), std::invalid_argument);
                continue;
            }
            ++primitive;
            // all fields for small m; default and two alternatives for large m
            if (m <= 6 || poly == gf_field::default_polynomial(m) || primitive <= 2)
                check_axioms(gf_field(m, poly));
        }
        BOOST_CHECK_EQUAL(primitive, expected_primitive_count(m));
    }
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_rejected_with_a_message)
{
    BOOST_CHECK_THROW(gf_field(0), std::invalid_argument);
    BOOST_CHECK_THROW(gf_field(9), std::invalid_argument);
    BOOST_CHECK_THROW(gf_field(8, 0x1d), std::invalid_argument);  // degree too low
    BOOST_CHECK_THROW(gf_field(8, 0x31d), std::invalid_argument); // degree too high
    try {
        gf_field(8, 0x11b); // AES polynomial: irreducible but not primitive
        BOOST_FAIL("0x11b accepted");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        BOOST_CHECK(what.find("poly=0x11b") != std::string::npos);
        BOOST_CHECK(what.find("not a primitive") != std::string::npos);
    }
    gf_field f(4);
    BOOST_CHECK_THROW(f.checked_inv(0), std::domain_error);
    BOOST_CHECK_THROW(f.checked_div(3, 0), std::domain_error);
    BOOST_CHECK_THROW(f.checked_div(16, 1), std::invalid_argument);
    BOOST_CHECK_EQUAL(f.checked_div(f.mul(5, 9), 9), 5);
}
