/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CUDA_ON_DEVICE_H
#define INCLUDED_GPULDPC_ENGINE_CUDA_ON_DEVICE_H

// The device side of the GPU engines that are not decoders (transforms, the
// soft demapper); CUDA builds only.

#include "cuda_resources.h"
#include <memory>
#include <new>
#include <string>
#include <utility>

namespace gr {
namespace gpuldpc {
namespace cuda {

/*! "<device name> (cuda:N)": what an engine's device_name() says. */
inline std::string device_label(int device)
{
    cudaDeviceProp prop;
    GPULDPC_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return std::string(prop.name) + " (cuda:" + std::to_string(device) + ")";
}

/*!
 * \brief An engine's device state (streams, buffers, plans) that is made,
 * used and destroyed with the engine's device current, the calling thread's
 * device restored after each: the engines' contract lets any thread make,
 * use and destroy them.
 */
template <typename State>
class on_device
{
public:
    //! State(args...) with \p device current.
    template <typename... Args>
    explicit on_device(int device, Args&&... args) : d_device(device)
    {
        scoped_device on(device);
        d_state = std::make_unique<State>(std::forward<Args>(args)...);
    }
    ~on_device()
    {
        // its streams, buffers and plans belong to the device
        scoped_device on(d_device, std::nothrow);
        d_state.reset();
    }
    on_device(const on_device&) = delete;
    on_device& operator=(const on_device&) = delete;

    //! One public call: \p f(state) with the device current.
    template <typename F>
    decltype(auto) operator()(F&& f)
    {
        scoped_device on(d_device);
        return f(*d_state);
    }
    //! What was chosen at construction (host data only).
    const State& state() const { return *d_state; }

private:
    int d_device;
    std::unique_ptr<State> d_state;
};

} // namespace cuda
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CUDA_ON_DEVICE_H */
