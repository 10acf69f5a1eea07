/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BENCH_COMMON_H
#define INCLUDED_GPULDPC_BENCH_COMMON_H

#include "report.h"
#include <gnuradio/gpuldpc/engine/gpu_tuning.h>
#include <cuda_runtime_api.h>
#include <cstddef>
#include <functional>

namespace gr {
namespace gpuldpc {
namespace bench {

/*!
 * \brief What every section measures with.
 *
 * The tuning is read from the environment once, by main: every decoder a
 * section makes starts from it, so a run under GPULDPC_SHARED_MEMORY_LIMIT
 * (or another GPULDPC_* knob) measures the variants that setting chooses.
 */
struct context {
    report& out;
    cudaStream_t stream; //!< everything timed by events runs on it
    gpu_tuning tuning;
};

//! The device (0) the bench measures, with the shared memory the engines
//! may use under \p tuning.
device_description describe_device(const gpu_tuning& tuning);

//! Hardware threads of the host, at least 1: the CPU baselines use them all.
int host_cores();

//! Median time (ms) of \p reps runs of \p fn, timed by events on \p stream,
//! after a warm-up.
double time_ms(const std::function<void()>& fn, int reps, cudaStream_t stream);

//! Median time (ms) of \p reps runs of \p fn by the host clock, after a
//! warm-up.
double wall_ms(const std::function<void()>& fn, int reps);

//! Baseline of the on-device sections: cudaMemcpy device to device of
//! \p bytes, timed by the host around 8 copies and a synchronisation; ms per
//! copy.
double copy_ms(const void* d_in, void* d_out, size_t bytes, int reps);

//! GB/s of a pass that reads and writes \p bytes in \p ms.
inline double read_write_gbps(size_t bytes, double ms)
{
    return 2.0 * double(bytes) / ms / 1e6;
}

//! FP32 operations per second of the current device: SMs x FP32 lanes x clock.
double fp32_peak_flops();

} // namespace bench
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BENCH_COMMON_H */
