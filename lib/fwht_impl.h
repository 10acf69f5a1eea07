/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FWHT_IMPL_H
#define INCLUDED_GPULDPC_FWHT_IMPL_H

#include "block_common.h"
#include <gnuradio/gpuldpc/engine/gpu_transforms.h>
#include <gnuradio/gpuldpc/engine/transforms.h>
#include <gnuradio/gpuldpc/fwht.h>
#include <memory>

namespace gr {
namespace gpuldpc {

class fwht_impl : public fwht
{
public:
    fwht_impl(const fwht_cpu& transform, const std::string& device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    fwht_cpu d_cpu;
    std::unique_ptr<fwht_cuda> d_gpu; // null: the CPU path
    device_status d_where;

public:
    std::string device_name() const override { return d_where.name(); }
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FWHT_IMPL_H */
