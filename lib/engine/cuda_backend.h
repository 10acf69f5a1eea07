/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CUDA_BACKEND_H
#define INCLUDED_GPULDPC_ENGINE_CUDA_BACKEND_H

// How a GPU engine's public class (fwht_cuda, fft_cuda, butterfly_cuda,
// soft_demapper_cuda) reaches its CUDA implementation. The class holds a
// pointer to an interface, its `impl`, and forwards every member to it; the
// CUDA backend implements the interface (Impl::make, in files compiled only
// with CUDA). A build without CUDA has no implementation and needs no
// stand-ins: make_cuda_backend() throws there, in the engine's constructor,
// so no engine object exists whose other members could be called.

#include <memory>
#include <stdexcept>
#include <utility>

namespace gr {
namespace gpuldpc {

/*!
 * Impl::make(args...): the CUDA implementation of an engine's interface.
 * Throws std::runtime_error in a build without CUDA (before any argument is
 * looked at, as every engine's constructor does there).
 */
template <typename Impl, typename... Args>
std::unique_ptr<Impl> make_cuda_backend(Args&&... args)
{
#ifdef GPULDPC_HAVE_CUDA
    return Impl::make(std::forward<Args>(args)...);
#else
    ((void)args, ...);
    throw std::runtime_error("this build of gr-gpuldpc has no CUDA support");
#endif
}

} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_ENGINE_CUDA_BACKEND_H */
