/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/butterfly_network.h>
#include <gnuradio/gpuldpc/engine/gf_field.h>
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace gr {
namespace gpuldpc {

namespace {

using cf = std::complex<float>;

butterfly_network::kernel make_kernel(cf k00, cf k01, cf k10, cf k11, float div = 1.0f)
{
    butterfly_network::kernel k;
    k.k[0] = k00;
    k.k[1] = k01;
    k.k[2] = k10;
    k.k[3] = k11;
    k.div = div;
    return k;
}

} // namespace

butterfly_network butterfly_network::spectral(size_t n, spectral_kind kind, bool forward)
{
    checked_log2(n, 2, 32768, "n");
    butterfly_network net;
    net.n = unsigned(n);
    if (kind == spectral_kind::haar) {
        // in place with growing stride, then the ordered layout (as the CPU
        // reference's Cooley-Tukey variant)
        std::vector<uint16_t> ordered(n);
        ordered[0] = 0;
        for (size_t h = 1; h < n; h *= 2)
            for (size_t t = 0; t < n / (2 * h); ++t)
                ordered[n / (2 * h) + t] = uint16_t((2 * t + 1) * h);
        if (forward) {
            net.kernels.push_back(make_kernel(1, 1, 1, -1));
            for (size_t h = 1; h < n; h *= 2) {
                net.stages.emplace_back();
                for (size_t j = 0; j < n; j += 2 * h)
                    net.stages.back().push_back({ uint16_t(j), uint16_t(j + h) });
            }
            net.post_perm = ordered; // out[k] = x[ordered[k]]
        } else {
            net.kernels.push_back(make_kernel(1, 1, 1, -1, 2.0f));
            net.pre_perm.assign(n, 0); // x[ordered[k]] = in[k]
            for (size_t k = 0; k < n; ++k)
                net.pre_perm[ordered[k]] = uint16_t(k);
            for (size_t h = n / 2; h >= 1; h /= 2) {
                net.stages.emplace_back();
                for (size_t j = 0; j < n; j += 2 * h)
                    net.stages.back().push_back({ uint16_t(j), uint16_t(j + h) });
            }
        }
        return net;
    }
    switch (kind) {
    case spectral_kind::walsh:
        net.kernels.push_back(make_kernel(1, 1, 1, -1));
        if (!forward)
            net.final_div = float(n);
        break;
    case spectral_kind::reed_muller:
        net.mod2 = true;
        net.kernels.push_back(make_kernel(1, 0, 1, 1));
        break;
    case spectral_kind::arithmetic:
        net.kernels.push_back(forward ? make_kernel(1, 0, -1, 1)
                                      : make_kernel(1, 0, 1, 1));
        break;
    case spectral_kind::haar:
        break;
    }
    // index bits from the most significant down, as the CPU reference
    for (size_t h = n / 2; h >= 1; h /= 2) {
        net.stages.emplace_back();
        for (size_t i = 0; i < n; i += 2 * h)
            for (size_t j = i; j < i + h; ++j)
                net.stages.back().push_back({ uint16_t(j), uint16_t(j + h) });
    }
    return net;
}

butterfly_network butterfly_network::fft(size_t n, bool forward)
{
    const unsigned k = checked_log2(n, 2, 16384, "n");
    butterfly_network net;
    net.n = unsigned(n);
    net.pre_perm.resize(n);
    for (size_t i = 0; i < n; ++i) {
        size_t r = 0;
        for (unsigned b = 0; b < k; ++b)
            r |= ((i >> b) & 1u) << (k - 1 - b);
        net.pre_perm[i] = uint16_t(r);
    }
    // one kernel per twiddle factor w^t, t < n/2: (a, b) -> (a + w b, a - w b)
    const double sign = forward ? -1.0 : 1.0;
    for (size_t t = 0; t < n / 2; ++t) {
        const cf w(float(std::cos(2 * M_PI * double(t) / double(n))),
                   float(sign * std::sin(2 * M_PI * double(t) / double(n))));
        net.kernels.push_back(make_kernel(1, w, 1, -w));
    }
    for (size_t h = 1; h < n; h *= 2) {
        net.stages.emplace_back();
        net.kernel_ids.emplace_back();
        for (size_t i = 0; i < n; i += 2 * h)
            for (size_t j = i; j < i + h; ++j) {
                net.stages.back().push_back({ uint16_t(j), uint16_t(j + h) });
                net.kernel_ids.back().push_back(uint16_t((j - i) * (n / (2 * h))));
            }
    }
    return net;
}

butterfly_network butterfly_network::walsh_gf_log_order(unsigned m, unsigned poly)
{
    const gf_field f(m, poly);
    const size_t q = f.q();
    butterfly_network net = spectral(q, spectral_kind::walsh, true);
    // position in exponent order -> element: 0 -> 0, e + 1 -> alpha^e
    std::vector<uint16_t> element(q);
    element[0] = 0;
    for (size_t e = 0; e + 1 < q; ++e)
        element[e + 1] = f.exp(unsigned(e));
    std::vector<uint16_t> position(q);
    for (size_t p = 0; p < q; ++p)
        position[element[p]] = uint16_t(p);
    // gather to natural order: x_nat[a] = in[position[a]]; back: out[p] = X[element[p]]
    net.pre_perm = position;
    net.post_perm = element;
    return net;
}

size_t butterfly_network::bank_conflicts() const
{
    size_t extra = 0;
    for (const auto& stage : stages) {
        for (size_t g = 0; g < stage.size(); g += 32) {
            for (int side = 0; side < 2; ++side) {
                std::map<unsigned, std::vector<unsigned>> banks;
                for (size_t p = g; p < std::min(stage.size(), g + 32); ++p) {
                    const unsigned a = side ? stage[p].second : stage[p].first;
                    auto& v = banks[a % 32];
                    if (std::find(v.begin(), v.end(), a) == v.end())
                        v.push_back(a);
                }
                size_t worst = 1;
                for (const auto& b : banks)
                    worst = std::max(worst, b.second.size());
                extra += worst - 1;
            }
        }
    }
    return extra;
}

void butterfly_network::reorder_for_banks()
{
    for (size_t s = 0; s < stages.size(); ++s) {
        auto& stage = stages[s];
        const bool with_ids = !kernel_ids.empty();
        std::vector<size_t> order;
        order.reserve(stage.size());
        std::vector<char> taken(stage.size(), 0);
        // candidates bucketed by the bank of i
        std::vector<std::vector<size_t>> by_bank(32);
        for (size_t p = stage.size(); p-- > 0;)
            by_bank[stage[p].first % 32].push_back(p);
        size_t left = stage.size();
        while (left > 0) {
            // addresses per bank already in this warp group, for x[i] and x[j]
            unsigned count_i[32] = { 0 }, count_j[32] = { 0 };
            for (int slot = 0; slot < 32 && left > 0; ++slot) {
                // the pair that adds the least to the group's conflicts; a
                // conflict-free one ends the search at once
                size_t pick = SIZE_MAX;
                unsigned best = ~0u;
                for (unsigned bank = 0; bank < 32 && best > 0; ++bank) {
                    auto& bucket = by_bank[bank];
                    while (!bucket.empty() && taken[bucket.back()])
                        bucket.pop_back();
                    // the last few candidates only: construction stays fast
                    for (size_t t = bucket.size(), seen = 0; t-- > 0 && seen < 64;
                         ++seen) {
                        const size_t p = bucket[t];
                        if (taken[p])
                            continue;
                        const unsigned score =
                            std::max(count_i[bank], count_j[stage[p].second % 32]);
                        if (score < best) {
                            best = score;
                            pick = p;
                            if (score == 0)
                                break;
                        }
                    }
                }
                taken[pick] = 1;
                --left;
                count_i[stage[pick].first % 32]++;
                count_j[stage[pick].second % 32]++;
                order.push_back(pick);
            }
        }
        std::vector<std::pair<uint16_t, uint16_t>> pairs(stage.size());
        std::vector<uint16_t> ids(with_ids ? stage.size() : 0);
        for (size_t k = 0; k < order.size(); ++k) {
            pairs[k] = stage[order[k]];
            if (with_ids)
                ids[k] = kernel_ids[s][order[k]];
        }
        stage.swap(pairs);
        if (with_ids)
            kernel_ids[s].swap(ids);
    }
}

} // namespace gpuldpc
} // namespace gr
