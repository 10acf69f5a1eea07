/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Array and integer arguments of the Python bindings, checked instead of cast.
 *
 * pybind11's array_t with forcecast converts whatever it is given: float or
 * int16 values for int8 LLRs wrap modulo 256, complex values lose their
 * imaginary part, encode(0.7) becomes symbol 0, and the call returns a wrong
 * result that looks right. The bindings take such arguments as Python objects
 * and convert them here only where the conversion keeps every value;
 * anything else raises TypeError (a dtype the argument does not take) or
 * ValueError (an integer out of range), naming the function, the argument,
 * the dtype given and the one expected.
 *
 * The rules, by the element type the engine takes (README, "Python"):
 * - float32 (LLRs, log-likelihoods, noise variances, transform inputs): any
 *   real integer or floating dtype, rounded to the nearest float32 (finite
 *   float64 values beyond float32's range saturate at +-FLT_MAX; NaN and
 *   +-inf stay invalid inputs). Not bool (bits are no soft values), not
 *   complex.
 * - complex64 (received points, FFT inputs): the same and complex dtypes
 *   (complex128 rounded to complex64). Not bool.
 * - int8 (8-bit LLRs): int8 only; every other integer dtype holds values
 *   that would wrap.
 * - uint8 (bits, GF(q) symbols, entries of H): uint8 and bool.
 * - int32 (base matrix shifts, integer transforms): any integer dtype, every
 *   value checked to fit int32 (else ValueError): numpy makes integer arrays
 *   int64 by default, and these values are small.
 * Python scalars and (nested) lists have no dtype of their own: they go
 * through numpy.asarray and the same rules, except that integers for an
 * integer argument are taken when every value fits its type (else
 * ValueError), since numpy gives them int64 whatever their size.
 * A non-contiguous array of a taken dtype is copied into C order.
 */

#ifndef INCLUDED_GPULDPC_BINDINGS_ARRAY_ARGS_H
#define INCLUDED_GPULDPC_BINDINGS_ARRAY_ARGS_H

#include <pybind11/numpy.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <pybind11/pybind11.h>
#include <algorithm>
#include <type_traits>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace pyargs {

namespace py = pybind11;

template <typename T>
using c_array = py::array_t<T, py::array::c_style | py::array::forcecast>;

// accepts(): the dtypes taken as they are; values_checked: whether arrays of
// other integer dtypes are taken when every value fits
template <typename T>
struct element_rule;

template <>
struct element_rule<float> {
    static constexpr bool values_checked = false;
    static bool accepts(char kind, py::ssize_t)
    {
        return kind == 'i' || kind == 'u' || kind == 'f';
    }
    static const char* expected()
    {
        return "float32 (or another real integer or floating dtype)";
    }
};

template <>
struct element_rule<std::complex<float>> {
    static constexpr bool values_checked = false;
    static bool accepts(char kind, py::ssize_t)
    {
        return kind == 'i' || kind == 'u' || kind == 'f' || kind == 'c';
    }
    static const char* expected()
    {
        return "complex64 (or another complex, floating or integer dtype)";
    }
};

template <>
struct element_rule<int8_t> {
    static constexpr bool values_checked = false;
    static bool accepts(char kind, py::ssize_t size) { return kind == 'i' && size == 1; }
    static const char* expected() { return "int8"; }
};

template <>
struct element_rule<uint8_t> {
    static constexpr bool values_checked = false;
    static bool accepts(char kind, py::ssize_t size)
    {
        return (kind == 'u' && size == 1) || kind == 'b';
    }
    static const char* expected() { return "uint8 or bool"; }
};

template <>
struct element_rule<int32_t> {
    static constexpr bool values_checked = true;
    static bool accepts(char kind, py::ssize_t size)
    {
        return (kind == 'i' && size <= 4) || (kind == 'u' && size <= 2);
    }
    static const char* expected()
    {
        return "int32 (or another integer dtype, its values within int32)";
    }
};

// str(x) of a Python object
inline std::string text(py::handle h)
{
    PyObject* s = PyObject_Str(h.ptr());
    if (!s)
        throw py::error_already_set();
    return py::reinterpret_steal<py::str>(s).cast<std::string>();
}

inline std::string where(const char* func, const char* arg)
{
    return std::string(func) + ": " + arg;
}

template <typename T>
const char* type_name()
{
    if constexpr (std::is_same_v<T, int8_t>)
        return "int8";
    else if constexpr (std::is_same_v<T, uint8_t>)
        return "uint8";
    else
        return "int32";
}

// Integers of a wider dtype for an integer argument (Python integers, which
// numpy makes int64 or uint64, or arrays where the rule checks values):
// every value must fit T.
template <typename T>
void check_integer_range(const py::array& a, const char* func, const char* arg)
{
    if (a.size() == 0)
        return;
    const long long lo = std::numeric_limits<T>::min();
    const long long hi = std::numeric_limits<T>::max();
    auto out_of_range = [&](const std::string& value) {
        throw py::value_error(
            where(func, arg) + " holds " + value + ", outside " + type_name<T>() +
            "'s range; allowed: " + std::to_string(lo) + ".." + std::to_string(hi));
    };
    if (a.dtype().kind() == 'u') {
        const auto u = c_array<unsigned long long>::ensure(a);
        if (!u)
            throw py::error_already_set();
        for (py::ssize_t i = 0; i < u.size(); ++i)
            if (u.data()[i] > static_cast<unsigned long long>(hi))
                out_of_range(std::to_string(u.data()[i]));
        return;
    }
    const auto s = c_array<long long>::ensure(a);
    if (!s)
        throw py::error_already_set();
    for (py::ssize_t i = 0; i < s.size(); ++i)
        if (s.data()[i] < lo || s.data()[i] > hi)
            out_of_range(std::to_string(s.data()[i]));
}

/*!
 * The argument \p obj of \p func named \p arg as a C-contiguous array of T,
 * by the rules above. Raises TypeError or ValueError (see the top).
 */
template <typename T>
c_array<T> array_arg(py::handle obj, const char* func, const char* arg)
{
    const bool ndarray = py::isinstance<py::array>(obj);
    // numpy.asarray: its own errors (a ragged list) reach the caller as they are
    const py::array a = py::reinterpret_borrow<py::array>(
        ndarray ? py::reinterpret_borrow<py::object>(obj)
                : py::module_::import("numpy").attr("asarray")(obj));
    const py::dtype dt = a.dtype();
    const char kind = dt.kind();
    bool ok = element_rule<T>::accepts(kind, dt.itemsize());
    if constexpr (std::is_integral_v<T>) {
        if (!ok && (!ndarray || element_rule<T>::values_checked) &&
            (kind == 'i' || kind == 'u')) {
            check_integer_range<T>(a, func, arg);
            ok = true;
        }
    }
    if (!ok) {
        std::string given = text(dt);
        if (!ndarray)
            given += std::string(" (from a Python ") +
                     text(obj.get_type().attr("__name__")) + ")";
        throw py::type_error(where(func, arg) + " has dtype " + given + "; expected " +
                             element_rule<T>::expected());
    }
    if constexpr (std::is_same_v<T, float>) {
        if (kind == 'f' && dt.itemsize() > 4) {
            // finite values past float32's range saturate (a soft value that
            // large is certain, not an erasure); NaN and +-inf stay as they are
            const py::module_ np = py::module_::import("numpy");
            const float top = std::numeric_limits<float>::max();
            const py::object clipped =
                np.attr("where")(np.attr("isfinite")(a), np.attr("clip")(a, -top, top), a);
            auto out = c_array<T>::ensure(clipped);
            if (!out)
                throw py::error_already_set();
            return out;
        }
    }
    auto out = c_array<T>::ensure(a);
    if (!out)
        throw py::error_already_set();
    return out;
}

/*!
 * An integer argument taken as a signed 64-bit value (pybind11 rejects a
 * negative value for an unsigned parameter with a TypeError that lists the
 * whole signature): returns it as U when it lies in lo..hi, else raises
 * ValueError "NAME=V is out of range; allowed: ALLOWED".
 */
template <typename U>
constexpr long long largest()
{
    return std::numeric_limits<U>::max() >
                   static_cast<unsigned long long>(std::numeric_limits<long long>::max())
               ? std::numeric_limits<long long>::max()
               : static_cast<long long>(std::numeric_limits<U>::max());
}

template <typename U>
U int_arg(long long v,
          const char* name,
          const std::string& allowed,
          long long lo = 0,
          long long hi = largest<U>())
{
    if (v < lo || v > hi)
        throw py::value_error(std::string(name) + "=" + std::to_string(v) +
                              " is out of range; allowed: " + allowed);
    return static_cast<U>(v);
}

/*!
 * The same for an unsigned 64-bit argument (a seed), taken as any Python
 * integer (numpy integers too).
 */
inline uint64_t uint64_arg(py::handle obj, const char* name)
{
    PyObject* index = PyNumber_Index(obj.ptr());
    if (!index) {
        PyErr_Clear();
        throw py::type_error(std::string(name) + " has type " +
                             text(obj.get_type().attr("__name__")) +
                             "; expected an integer");
    }
    const py::int_ v = py::reinterpret_steal<py::int_>(index);
    const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
    if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::value_error(std::string(name) + "=" + text(v) +
                              " is out of range; allowed: 0.." +
                              std::to_string(std::numeric_limits<uint64_t>::max()));
    }
    return u;
}

/*!
 * A min-sum scale or offset argument (\p name): 'auto' (the text \p parse
 * takes) or a number other than \p automatic, the C++ value that stands for
 * 'auto'; the range is checked where the decoder is made.
 */
inline float number_or_auto_arg(const py::object& v,
                                const char* name,
                                const char* allowed,
                                float automatic,
                                float (*parse)(const std::string&))
{
    if (py::isinstance<py::str>(v)) {
        try {
            return parse(v.cast<std::string>());
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
    }
    float x = 0.0f;
    bool number = !py::isinstance<py::bool_>(v);
    if (number) {
        try {
            x = py::cast<float>(py::float_(v));
        } catch (const py::error_already_set&) {
            number = false;
        }
    }
    if (!number)
        throw py::type_error(std::string(name) + "=" + std::string(py::str(py::repr(v))) +
                             " is neither 'auto' nor a number; allowed: 'auto' or " +
                             allowed);
    if (x == automatic)
        throw py::value_error(std::string(name) + "=" + std::string(py::str(v)) +
                              " is out of range; allowed: 'auto' or " + allowed);
    return x;
}
inline float min_sum_scale_arg(const py::object& v)
{
    return number_or_auto_arg(
        v, "min_sum_scale", "(0, 1]", min_sum_scale_auto, parse_min_sum_scale);
}
inline float min_sum_offset_arg(const py::object& v)
{
    return number_or_auto_arg(
        v, "min_sum_offset", ">= 0", min_sum_offset_auto, parse_min_sum_offset);
}

/*! A copy of \p v as a 1-D numpy array. */
template <typename T>
py::array_t<T> to_array(const std::vector<T>& v)
{
    py::array_t<T> out(v.size());
    std::copy(v.begin(), v.end(), out.mutable_data());
    return out;
}

} // namespace pyargs
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BINDINGS_ARRAY_ARGS_H */
