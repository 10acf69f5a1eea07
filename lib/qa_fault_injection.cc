/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The fault-injection switch itself (no GPU needed): which checked CUDA call
// fails, once, and what is refused.

#include "common/cuda_hooks.h"
#include <gnuradio/gpuldpc/engine/fault_injection.h>
#include <boost/test/unit_test.hpp>
#include <stdexcept>

using namespace gr::gpuldpc;
using detail::cuda_call_kind;

BOOST_AUTO_TEST_CASE(calls_are_sorted_by_their_text)
{
    BOOST_CHECK(detail::cuda_call_kind_of("cudaMalloc(&p, 4)") ==
                cuda_call_kind::allocation);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaMallocHost(&p, 4)") ==
                cuda_call_kind::allocation);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaMemcpyAsync(a, b, 4, k, s)") ==
                cuda_call_kind::copy);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaMemset(a, 0, 4)") == cuda_call_kind::copy);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaGraphLaunch(g, s)") ==
                cuda_call_kind::launch);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaLaunchCooperativeKernel(f)") ==
                cuda_call_kind::launch);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaStreamSynchronize(s)") ==
                cuda_call_kind::sync);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaEventSynchronize(e)") ==
                cuda_call_kind::sync);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaStreamCreateWithFlags(&s, f)") ==
                cuda_call_kind::other);
    BOOST_CHECK(detail::cuda_call_kind_of("cudaGetDevice(&d)") == cuda_call_kind::other);
}

BOOST_AUTO_TEST_CASE(the_nth_call_of_the_kind_fails_once)
{
    const uint64_t fired = injected_cuda_faults();
    inject_cuda_fault("copy", 3);
    BOOST_CHECK(detail::g_cuda_fault_armed.load());
    // other kinds do not count
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::launch));
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::allocation));
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::other));
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::copy));
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::copy));
    BOOST_CHECK(detail::cuda_fault_due(cuda_call_kind::copy));
    BOOST_CHECK_EQUAL(injected_cuda_faults(), fired + 1);
    // once: disarmed after firing
    BOOST_CHECK(!detail::g_cuda_fault_armed.load());
    for (int i = 0; i < 10; ++i)
        BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::copy));
    BOOST_CHECK_EQUAL(injected_cuda_faults(), fired + 1);

    // a new fault replaces the armed one; clearing disarms it
    inject_cuda_fault("launch", 2);
    inject_cuda_fault("allocation", 1);
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::launch));
    clear_cuda_fault();
    BOOST_CHECK(!detail::cuda_fault_due(cuda_call_kind::allocation));
    BOOST_CHECK_EQUAL(injected_cuda_faults(), fired + 1);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_refused_by_name)
{
    try {
        inject_cuda_fault("kernel", 1);
        BOOST_FAIL("kind='kernel' accepted");
    } catch (const std::invalid_argument& e) {
        BOOST_CHECK(std::string(e.what()).find("kind='kernel'") != std::string::npos);
        BOOST_CHECK(std::string(e.what()).find("allocation, launch, copy, sync") !=
                    std::string::npos);
    }
    try {
        inject_cuda_fault("copy", 0);
        BOOST_FAIL("nth=0 accepted");
    } catch (const std::invalid_argument& e) {
        BOOST_CHECK(std::string(e.what()).find("nth=0") != std::string::npos);
    }
    BOOST_CHECK(!detail::g_cuda_fault_armed.load());
}
