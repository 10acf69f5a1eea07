/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "block_common.h"
#include "rate_limited_log.h"
#include "soft_demapper_cf_impl.h"
#include <gnuradio/io_signature.h>
#include <cmath>
#include <complex>
#include <limits>

namespace gr {
namespace gpuldpc {

namespace {

void check_noise_var(float noise_var)
{
    if (!(noise_var >= std::numeric_limits<float>::min()) || !std::isfinite(noise_var))
        throw std::invalid_argument("noise_var=" + std::to_string(noise_var) +
                                    " is out of range; allowed: finite and > 0, at least "
                                    "1.2e-38 (N0 = E|n|^2 of the complex noise)");
}

} // namespace

soft_demapper_cf::sptr soft_demapper_cf::make(const std::string& constellation,
                                              const std::string& demapping,
                                              float noise_var,
                                              const std::string& noise_var_tag_key,
                                              const std::string& device)
{
    check_noise_var(noise_var);
    const soft_demapper demapper(constellation::make(constellation),
                                 parse_demapping(demapping));
    return gnuradio::make_block_sptr<soft_demapper_cf_impl>(
        demapper, noise_var, noise_var_tag_key, device);
}

soft_demapper_cf::sptr
soft_demapper_cf::make_from_constellation(gr::digital::constellation_sptr c,
                                          const std::string& demapping,
                                          float noise_var,
                                          const std::string& noise_var_tag_key,
                                          const std::string& device)
{
    if (!c)
        throw std::invalid_argument("constellation: none given; allowed: a "
                                    "digital.constellation object or a name");
    if (c->dimensionality() != 1)
        throw std::invalid_argument("constellation has " +
                                    std::to_string(c->dimensionality()) +
                                    " complex dimensions a symbol; allowed: 1");
    const std::vector<gr_complex> points = c->points();
    // the bits a point carries, as constellation_soft_decoder_cf reads them
    std::vector<unsigned> labels(points.size());
    const std::vector<int> pre_diff = c->pre_diff_code();
    for (size_t i = 0; i < points.size(); ++i)
        labels[i] = c->apply_pre_diff_code() && i < pre_diff.size()
                        ? unsigned(pre_diff[i])
                        : unsigned(i);
    check_noise_var(noise_var);
    const soft_demapper demapper(
        constellation::from_points("digital.constellation", points, labels),
        parse_demapping(demapping));
    return gnuradio::make_block_sptr<soft_demapper_cf_impl>(
        demapper, noise_var, noise_var_tag_key, device);
}

soft_demapper_cf_impl::soft_demapper_cf_impl(const soft_demapper& demapper,
                                             float noise_var,
                                             const std::string& noise_var_tag_key,
                                             const std::string& device)
    : gr::sync_interpolator("soft_demapper_cf",
                            gr::io_signature::make(1, 1, sizeof(std::complex<float>)),
                            gr::io_signature::make(1, 1, sizeof(float)),
                            demapper.bits_per_symbol()),
      d_demapper(demapper),
      d_tag_key(noise_var_tag_key.empty() ? pmt::PMT_NIL : pmt::mp(noise_var_tag_key)),
      d_noise_var(noise_var),
      d_set_noise_var(noise_var)
{
    d_gpu = choose_engine<soft_demapper_cuda>(device, d_logger, [this](int index) {
        return std::make_unique<soft_demapper_cuda>(d_demapper, index);
    });
    d_where.set(d_gpu.get());
}

std::string soft_demapper_cf_impl::device_name() const { return d_where.name(); }

void soft_demapper_cf_impl::demap(const std::complex<float>* y,
                                  size_t n,
                                  float noise_var,
                                  float* llr)
{
    run_on_gpu_or_cpu(
        d_gpu,
        d_logger,
        [&](soft_demapper_cuda& gpu) { gpu.demap(y, n, noise_var, llr); },
        [&] { d_demapper.demap(y, n, noise_var, llr); },
        &d_where);
}

void soft_demapper_cf_impl::set_noise_var(float noise_var)
{
    check_noise_var(noise_var);
    d_set_noise_var.store(noise_var);
    d_noise_var.store(noise_var);
}

bool soft_demapper_cf_impl::start()
{
    d_noise_var.store(d_set_noise_var.load());
    return true;
}

int soft_demapper_cf_impl::work(int noutput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    const auto* in = static_cast<const std::complex<float>*>(input_items[0]);
    float* out = static_cast<float*>(output_items[0]);
    const unsigned m = d_demapper.bits_per_symbol();
    const size_t symbols = size_t(noutput_items) / m;
    const uint64_t first = nitems_read(0);
    size_t done = 0;
    if (!pmt::is_null(d_tag_key)) {
        // each tag's value holds from its symbol on
        get_tags_in_window(d_tags, 0, 0, symbols, d_tag_key);
        for (const auto& tag : d_tags) {
            const size_t at = size_t(tag.offset - first);
            if (at > done) {
                demap(in + done, at - done, d_noise_var.load(), out + done * m);
                done = at;
            }
            double v = NAN;
            pmt_real_number(tag.value, v);
            // a value that is no normal positive float would make every LLR NaN
            if (std::isfinite(v) && float(v) >= std::numeric_limits<float>::min() &&
                std::isfinite(float(v))) {
                d_noise_var.store(float(v));
            } else {
                const uint64_t bad = ++d_bad_tags;
                if (should_log(bad))
                    d_logger->warn("a '{}' tag whose value is not a positive number was "
                                   "ignored ({} so far)",
                                   pmt::symbol_to_string(d_tag_key),
                                   bad);
            }
        }
    }
    if (symbols > done)
        demap(in + done, symbols - done, d_noise_var.load(), out + done * m);
    return int(symbols * m);
}

} // namespace gpuldpc
} // namespace gr
