/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <algorithm>
#include <random>
#include <sstream>

namespace gr {
namespace gpuldpc {

namespace {

// One attempt at a 4-cycle-free (dv, dc)-regular graph; false on a dead end.
bool try_construct(unsigned n,
                   unsigned m,
                   unsigned dv,
                   unsigned dc,
                   std::mt19937_64& rng,
                   std::vector<std::vector<uint32_t>>& var_checks)
{
    std::vector<unsigned> free_sockets(m, dc);
    std::vector<std::vector<uint32_t>> check_vars(m);
    var_checks.assign(n, {});
    // neighbours2[c] marks, while placing variable v, the checks that would
    // close a 4-cycle: those sharing a variable with a check v already uses.
    std::vector<uint32_t> blocked_stamp(m, UINT32_MAX);
    std::vector<uint32_t> candidates;

    std::vector<uint32_t> order(n);
    for (uint32_t v = 0; v < n; ++v)
        order[v] = v;
    std::shuffle(order.begin(), order.end(), rng);

    for (uint32_t v : order) {
        for (unsigned d = 0; d < dv; ++d) {
            // Block the chosen checks and every check two hops away from them.
            for (uint32_t c : var_checks[v]) {
                blocked_stamp[c] = v;
                for (uint32_t u : check_vars[c])
                    for (uint32_t c2 : var_checks[u])
                        blocked_stamp[c2] = v;
            }
            unsigned best = 0;
            candidates.clear();
            for (uint32_t c = 0; c < m; ++c) {
                if (blocked_stamp[c] == v || free_sockets[c] == 0)
                    continue;
                if (free_sockets[c] > best) {
                    best = free_sockets[c];
                    candidates.clear();
                }
                if (free_sockets[c] == best)
                    candidates.push_back(c);
            }
            if (candidates.empty())
                return false;
            const uint32_t c = candidates[rng() % candidates.size()];
            var_checks[v].push_back(c);
            check_vars[c].push_back(v);
            free_sockets[c]--;
        }
    }
    return true;
}

} // namespace

ldpc_code construct_regular_code(unsigned n,
                                 unsigned dv,
                                 unsigned dc,
                                 unsigned q,
                                 uint64_t seed,
                                 unsigned poly,
                                 unsigned attempts)
{
    if (dv < 1)
        throw std::invalid_argument("construct_regular_code: dv must be at least 1");
    if (dc < 2)
        throw std::invalid_argument("construct_regular_code: dc must be at least 2");
    if (n < dc || (uint64_t(n) * dv) % dc != 0) {
        std::ostringstream msg;
        msg << "construct_regular_code: n=" << n << " is not allowed with dv=" << dv
            << ", dc=" << dc << "; n * dv must be a multiple of dc and n >= dc";
        throw std::invalid_argument(msg.str());
    }
    if (attempts == 0)
        throw std::invalid_argument("construct_regular_code: attempts must be >= 1");
    const unsigned m = unsigned(uint64_t(n) * dv / dc);
    if (dv > m)
        throw std::invalid_argument("construct_regular_code: dv exceeds the number of "
                                    "checks n*dv/dc");

    std::vector<std::vector<uint32_t>> var_checks;
    for (unsigned a = 0; a < attempts; ++a) {
        std::mt19937_64 rng(seed + a);
        if (!try_construct(n, m, dv, dc, rng, var_checks))
            continue;
        std::uniform_int_distribution<unsigned> coef(1, q > 1 ? q - 1 : 1);
        std::vector<ldpc_code::entry> entries;
        for (uint32_t v = 0; v < n; ++v)
            for (uint32_t c : var_checks[v])
                entries.push_back(
                    ldpc_code::entry{ c, v, uint8_t(q == 2 ? 1 : coef(rng)) });
        return ldpc_code(n, m, q, entries, poly);
    }
    std::ostringstream msg;
    msg << "construct_regular_code: no 4-cycle-free (" << dv << "," << dc
        << ")-regular graph with n=" << n << " found in " << attempts
        << " attempts; try a larger n or more attempts";
    throw std::runtime_error(msg.str());
}

} // namespace gpuldpc
} // namespace gr
