/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FFT_H
#define INCLUDED_GPULDPC_FFT_H

#include <gnuradio/gpuldpc/api.h>
#include <gnuradio/sync_block.h>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {

/*!
 * \brief Batched FFT of complex vectors with fft.fft_vcc's conventions.
 * \ingroup gpuldpc
 *
 * \details
 * Vectors of \p fft_size complex samples in and out; forward or inverse
 * (unnormalised, as fft_vcc); an optional \p window (empty or fft_size taps)
 * multiplies the input; \p shift moves DC to the centre of a forward output
 * and, for an inverse transform, expects the centred layout at the input.
 * Every vector a work() call offers is transformed as one batch.
 */
class GPULDPC_API fft : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<fft> sptr;
    static sptr make(int fft_size,
                     bool forward = true,
                     const std::vector<float>& window = std::vector<float>(),
                     bool shift = false,
                     int nthreads = 1,
                     const std::string& device = "auto");

    /*! Where the block transforms now: "cpu" or the GPU's name (any thread). */
    virtual std::string device_name() const = 0;
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FFT_H */
