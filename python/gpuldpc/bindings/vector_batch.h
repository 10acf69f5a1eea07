/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BINDINGS_VECTOR_BATCH_H
#define INCLUDED_GPULDPC_BINDINGS_VECTOR_BATCH_H

// The transforms' execute() in Python: a batch of vectors of one length.

#include "array_args.h"
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace pyargs {

enum class gil { keep, release };

/*!
 * \p run(in, out, vectors) over \p x_arg, an array of shape (vectors, n) or
 * (n,) converted as array_arg() does; returns an array of the same shape.
 * gil::release runs it without the GIL (the GPU engines: their copies and
 * kernels touch no Python object, and other Python threads go on meanwhile).
 */
template <typename T, typename F>
pybind11::array_t<T>
apply_to_vectors(pybind11::handle x_arg, const char* func, size_t n, gil mode, F&& run)
{
    const auto x = array_arg<T>(x_arg, func, "x");
    if (x.ndim() < 1 || x.ndim() > 2 || size_t(x.shape(x.ndim() - 1)) != n)
        throw pybind11::value_error("input must have shape (vectors, " +
                                    std::to_string(n) + ") or (" + std::to_string(n) +
                                    ",)");
    pybind11::array_t<T> out(
        std::vector<pybind11::ssize_t>(x.shape(), x.shape() + x.ndim()));
    const size_t vectors = x.ndim() == 2 ? size_t(x.shape(0)) : 1;
    const T* in = x.data();
    T* o = out.mutable_data();
    if (mode == gil::release) {
        pybind11::gil_scoped_release release;
        run(in, o, vectors);
    } else {
        run(in, o, vectors);
    }
    return out;
}

} // namespace pyargs
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BINDINGS_VECTOR_BATCH_H */
