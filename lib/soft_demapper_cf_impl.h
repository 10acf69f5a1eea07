/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_SOFT_DEMAPPER_CF_IMPL_H
#define INCLUDED_GPULDPC_SOFT_DEMAPPER_CF_IMPL_H

#include "block_common.h"
#include <gnuradio/gpuldpc/engine/soft_demapper.h>
#include <gnuradio/gpuldpc/soft_demapper_cf.h>
#include <atomic>
#include <memory>

namespace gr {
namespace gpuldpc {

class soft_demapper_cf_impl : public soft_demapper_cf
{
public:
    soft_demapper_cf_impl(const soft_demapper& demapper,
                          float noise_var,
                          const std::string& noise_var_tag_key,
                          const std::string& device);

    void set_noise_var(float noise_var) override;
    bool start() override;
    float noise_var() const override { return d_noise_var.load(); }
    int bits_per_symbol() const override { return int(d_demapper.bits_per_symbol()); }
    uint64_t bad_noise_var_tags() const override { return d_bad_tags.load(); }
    std::string device_name() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const soft_demapper d_demapper;
    const pmt::pmt_t d_tag_key; // PMT_NIL: no tag
    std::atomic<float> d_noise_var;
    // noise_var or the last set_noise_var(): a new run starts from it, not
    // from the last tag of the run before
    std::atomic<float> d_set_noise_var;
    std::atomic<uint64_t> d_bad_tags{ 0 };
    std::vector<gr::tag_t> d_tags;
    std::unique_ptr<soft_demapper_cuda> d_gpu; // null: the CPU path
    device_status d_where;

    void demap(const std::complex<float>* y, size_t n, float noise_var, float* llr);
};

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_SOFT_DEMAPPER_CF_IMPL_H */
