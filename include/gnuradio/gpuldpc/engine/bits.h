/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_BITS_H
#define INCLUDED_GPULDPC_ENGINE_BITS_H

// Conversions between GF(2^m) symbols, unpacked bits (one 0/1 per byte) and
// packed bytes, all MSB first as GNU Radio's pack/unpack blocks do.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gr {
namespace gpuldpc {

/*! Bytes needed for \p bits packed bits. */
inline size_t packed_size(size_t bits) { return (bits + 7) / 8; }

/*! Packs \p n bits (0/1) into packed_size(n) bytes; unused low bits are 0. */
inline void pack_bits(const uint8_t* bits, size_t n, uint8_t* bytes)
{
    // Eight bits a byte: the lowest bit of each of 8 bytes (first byte lowest)
    // times 2^63 + 2^54 + ... + 2^0 lands bit i alone at position 63 - i, with
    // no carries (the products' positions 8i + 63 - 9j are all distinct).
    const size_t whole = n / 8;
    for (size_t i = 0; i < whole; ++i) {
        uint64_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        std::memcpy(&x, bits + 8 * i, 8);
#else
        for (unsigned b = 0; b < 8; ++b)
            x |= uint64_t(bits[8 * i + b]) << (8 * b);
#endif
        x &= 0x0101010101010101ull;
        bytes[i] = uint8_t((x * 0x8040201008040201ull) >> 56);
    }
    if (n % 8) {
        unsigned last = 0;
        for (size_t i = whole * 8; i < n; ++i)
            last |= unsigned(bits[i] & 1) << (7 - i % 8);
        bytes[whole] = uint8_t(last);
    }
}

/*! Unpacks the first \p n bits of \p bytes, MSB first. */
inline void unpack_bits(const uint8_t* bytes, size_t n, uint8_t* bits)
{
    for (size_t i = 0; i < n; ++i)
        bits[i] = (bytes[i / 8] >> (7 - i % 8)) & 1;
}

/*!
 * Writes \p n bits, bit i being \p bit_at(i) (0 or 1), as one 0/1 a byte or,
 * with \p packed, as pack_bits() would pack them.
 */
template <typename BitAt>
inline void write_bits(size_t n, bool packed, uint8_t* out, BitAt bit_at)
{
    if (!packed) {
        for (size_t i = 0; i < n; ++i)
            out[i] = uint8_t(bit_at(i));
        return;
    }
    for (size_t i0 = 0; i0 < n; i0 += 8) {
        const size_t end = i0 + 8 < n ? i0 + 8 : n;
        unsigned byte = 0;
        for (size_t i = i0; i < end; ++i)
            byte |= unsigned(bit_at(i)) << (7 - (i - i0));
        out[i0 / 8] = uint8_t(byte);
    }
}

/*! n symbols of m bits -> n * m bits. */
inline void symbols_to_bits(const uint8_t* symbols, size_t n, unsigned m, uint8_t* bits)
{
    for (size_t i = 0; i < n; ++i)
        for (unsigned b = 0; b < m; ++b)
            bits[i * m + b] = (symbols[i] >> (m - 1 - b)) & 1;
}

/*! n * m bits -> n symbols of m bits (only the lowest bit of each input byte counts). */
inline void bits_to_symbols(const uint8_t* bits, size_t n, unsigned m, uint8_t* symbols)
{
    for (size_t i = 0; i < n; ++i) {
        unsigned s = 0;
        for (unsigned b = 0; b < m; ++b)
            s = (s << 1) | (bits[i * m + b] & 1);
        symbols[i] = uint8_t(s);
    }
}

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_BITS_H */
