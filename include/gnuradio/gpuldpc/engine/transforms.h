/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_TRANSFORMS_H
#define INCLUDED_GPULDPC_ENGINE_TRANSFORMS_H

#include <gnuradio/gpuldpc/engine/config.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*! Scaling of the Walsh-Hadamard transform. */
enum class fwht_normalization {
    none,        //!< X[u] = sum_x (-1)^<u,x> x[x]
    inverse_n,   //!< times 1/N (then applying it twice is the identity up to 1/N)
    orthonormal, //!< times 1/sqrt(N): an orthonormal, self-inverse transform
};

/*! Order of the Walsh-Hadamard coefficients. */
enum class fwht_ordering {
    natural,  //!< Hadamard (natural) order: row u of the Sylvester matrix
    sequency, //!< by number of sign changes: X_seq[k] = X_nat[bitrev(k ^ (k >> 1))]
};

/*! Parses "none", "1/n", "orthonormal" (argument name "normalization"). */
GPULDPC_ENGINE_API fwht_normalization parse_fwht_normalization(const std::string& s);
/*! Parses "natural", "sequency" (argument name "ordering"). */
GPULDPC_ENGINE_API fwht_ordering parse_fwht_ordering(const std::string& s);

/*!
 * \brief Batched fast Walsh-Hadamard transform of float vectors, N = 2 ... 32768
 * on the CPU (the CUDA implementation takes the same parameters).
 *
 * Contract: execute() transforms n_vectors vectors of N floats, vector after
 * vector; in and out MAY be the same buffer. The object holds no per-call
 * state and is safe to use from several threads.
 */
class GPULDPC_ENGINE_API fwht_cpu
{
public:
    static constexpr size_t min_length = 2;
    static constexpr size_t max_length = 32768;

    fwht_cpu(size_t n, fwht_normalization normalization, fwht_ordering ordering);

    size_t length() const { return d_n; }
    fwht_normalization normalization() const { return d_normalization; }
    fwht_ordering ordering() const { return d_ordering; }
    /*! Scale applied after the butterflies (1, 1/N or 1/sqrt(N)). */
    float scale() const { return d_scale; }
    /*! For sequency order: output k takes natural coefficient permutation()[k]. */
    const std::vector<uint32_t>& permutation() const { return d_perm; }

    void execute(const float* in, float* out, size_t n_vectors) const;

private:
    size_t d_n;
    fwht_normalization d_normalization;
    fwht_ordering d_ordering;
    float d_scale;
    std::vector<uint32_t> d_perm;
};

/*! The spectral transforms of Gajic-Stankovic. */
enum class spectral_kind {
    walsh,       //!< Kronecker power of [[1, 1], [1, -1]] (Hadamard order)
    reed_muller, //!< Kronecker power of [[1, 0], [1, 1]] over GF(2): values mod 2
    arithmetic,  //!< Kronecker power of [[1, 0], [-1, 1]]; inverse [[1, 0], [1, 1]]
    haar,        //!< unnormalised Haar: sums and differences, coarse to fine order
};

/*! How the butterflies are scheduled; both give identical results. */
enum class butterfly_algorithm {
    cooley_tukey,      //!< in place, stage s pairs (j, j + 2^s)
    constant_geometry, //!< every stage pairs (i, i + N/2) into (2i, 2i + 1)
};

GPULDPC_ENGINE_API spectral_kind parse_spectral_kind(const std::string& s);
GPULDPC_ENGINE_API butterfly_algorithm parse_butterfly_algorithm(const std::string& s);

/*!
 * \brief Batched spectral transform of int32 or float vectors of length 2^k.
 *
 * Forward and inverse:
 * - Walsh: inverse = forward then division by N (int32: exact for spectra of
 *   integer vectors, truncating otherwise).
 * - Reed-Muller over GF(2): self-inverse; inputs are taken mod 2 (floats are
 *   rounded to the nearest integer first); outputs are 0 or 1.
 * - Arithmetic: the inverse kernel [[1, 0], [1, 1]] undoes the forward one.
 * - Haar: output [s, d_1, d_2 (2), d_3 (4), ...], sums s = a + b and
 *   differences d = a - b per level; the inverse halves (int32: exact for
 *   spectra of integer vectors).
 * int32 arithmetic wraps modulo 2^32 on overflow. Both algorithms give
 * bit-identical results for int32 and identical results for float (the same
 * operations on the same operands).
 */
template <typename T>
class GPULDPC_ENGINE_API spectral_transform_cpu
{
public:
    spectral_transform_cpu(
        size_t n,
        spectral_kind kind,
        bool forward,
        butterfly_algorithm algorithm = butterfly_algorithm::cooley_tukey);

    size_t length() const { return d_n; }
    spectral_kind kind() const { return d_kind; }
    bool forward() const { return d_forward; }
    butterfly_algorithm algorithm() const { return d_algorithm; }

    /*! Transforms n_vectors vectors; in and out may alias. Not reentrant. */
    void execute(const T* in, T* out, size_t n_vectors);

private:
    void kronecker(T* x);
    void haar(T* x);

    size_t d_n;
    unsigned d_log2n;
    spectral_kind d_kind;
    bool d_forward;
    butterfly_algorithm d_algorithm;
    std::vector<T> d_work; // ping-pong buffer of the constant-geometry algorithm
};

extern template class GPULDPC_ENGINE_API spectral_transform_cpu<int32_t>;
extern template class GPULDPC_ENGINE_API spectral_transform_cpu<float>;

/*! log2(n) when n is a power of two in [lo, hi]; throws naming \p arg otherwise. */
GPULDPC_ENGINE_API unsigned
checked_log2(size_t n, size_t lo, size_t hi, const std::string& arg);

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_TRANSFORMS_H */
