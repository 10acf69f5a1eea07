/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_FUZZ_INPUT_H
#define INCLUDED_GPULDPC_FUZZ_INPUT_H

// What the fuzz targets share: their entry point (libFuzzer's, also driven by
// replay_main.cc over a corpus), a reader of the fuzzer's bytes as numbers,
// and the report of a broken invariant (an abort, which libFuzzer and the
// replay test both count as a failure).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace gr {
namespace gpuldpc {
namespace fuzz {

// Takes numbers off the front of the input; 0 once it is used up.
class input_reader
{
public:
    input_reader(const uint8_t* data, size_t size) : d_data(data), d_size(size) {}

    bool empty() const { return d_size == 0; }
    size_t remaining() const { return d_size; }
    const uint8_t* data() const { return d_data; }

    template <typename T>
    T take()
    {
        T v{};
        const size_t n = d_size < sizeof v ? d_size : sizeof v;
        std::memcpy(&v, d_data, n);
        d_data += n;
        d_size -= n;
        return v;
    }
    uint8_t byte() { return take<uint8_t>(); }

private:
    const uint8_t* d_data;
    size_t d_size;
};

[[noreturn]] inline void broken(const char* what)
{
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

} // namespace fuzz
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_FUZZ_INPUT_H */
