/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_SPECTRAL_TRANSFORM_H
#define INCLUDED_GPULDPC_SPECTRAL_TRANSFORM_H

#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/sync_block.h>
#include <cstdint>
#include <string>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Spectral transforms of Gajic-Stankovic on vectors of 2^k items:
 * Walsh, Reed-Muller over GF(2), arithmetic and Haar, forward or inverse.
 * \ingroup gpuldpc
 *
 * \details
 * \p kind: "walsh", "reed-muller", "arithmetic", "haar"; \p algorithm:
 * "cooley-tukey" (in place) or "constant-geometry", which give identical
 * results. Conventions (inverse scaling, Haar coefficient order, Reed-Muller
 * mod 2) are those of gr::gpuldpc::spectral_transform_cpu. T is int32_t
 * (spectral_transform_ii) or float (spectral_transform_ff). Every vector a
 * work() call offers is transformed as one batch.
 */
template <class T>
class GPULDPC_API spectral_transform : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<spectral_transform<T>> sptr;
    static sptr make(int n,
                     const std::string& kind = "walsh",
                     bool forward = true,
                     const std::string& algorithm = "cooley-tukey",
                     const std::string& device = "auto");

    /*! Where the block transforms now: "cpu" or the GPU's name (any thread). */
    virtual std::string device_name() const = 0;
};

typedef spectral_transform<int32_t> spectral_transform_ii;
typedef spectral_transform<float> spectral_transform_ff;

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_SPECTRAL_TRANSFORM_H */
