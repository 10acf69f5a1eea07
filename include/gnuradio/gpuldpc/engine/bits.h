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

namespace gr {
namespace gpuldpc {

/*! Bytes needed for \p bits packed bits. */
inline size_t packed_size(size_t bits) { return (bits + 7) / 8; }

/*! Packs \p n bits (0/1) into packed_size(n) bytes; unused low bits are 0. */
inline void pack_bits(const uint8_t* bits, size_t n, uint8_t* bytes)
{
    for (size_t i = 0; i < packed_size(n); ++i)
        bytes[i] = 0;
    for (size_t i = 0; i < n; ++i)
        bytes[i / 8] |= uint8_t((bits[i] & 1) << (7 - i % 8));
}

/*! Unpacks the first \p n bits of \p bytes, MSB first. */
inline void unpack_bits(const uint8_t* bytes, size_t n, uint8_t* bits)
{
    for (size_t i = 0; i < n; ++i)
        bits[i] = (bytes[i / 8] >> (7 - i % 8)) & 1;
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
