/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_RATE_LIMITED_LOG_H
#define INCLUDED_GPULDPC_RATE_LIMITED_LOG_H

#include <cstdint>

namespace gr {
namespace gpuldpc {

/*!
 * Whether the count-th occurrence of a recurring event gets a log line: the
 * first ten, then every power of two, so that a stream of bad data stays
 * visible without flooding the log. Totals go to the "stats" port anyway.
 */
inline bool should_log(uint64_t count)
{
    return count <= 10 || (count & (count - 1)) == 0;
}

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_RATE_LIMITED_LOG_H */
