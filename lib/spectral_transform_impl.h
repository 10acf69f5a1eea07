/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_SPECTRAL_TRANSFORM_IMPL_H
#define INCLUDED_GPULDPC_SPECTRAL_TRANSFORM_IMPL_H

#include "block_common.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <gnuradio/gpuldpc/spectral_transform.h>
#include <memory>

namespace gr {
namespace gpuldpc {

template <class T>
class spectral_transform_impl : public spectral_transform<T>
{
public:
    spectral_transform_impl(const spectral_transform_cpu<T>& transform,
                            const std::string& device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    spectral_transform_cpu<T> d_transform;
    std::unique_ptr<butterfly_cuda<T>> d_gpu; // null: the CPU path
    device_status d_where;

public:
    std::string device_name() const override { return d_where.name(); }
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_SPECTRAL_TRANSFORM_IMPL_H */
