/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The CUDA decoder of binary codes in 8-bit fixed-point min-sum against the
// CPU reference, which runs the same integer arithmetic: identical decisions,
// iteration counts and status on every frame (CTest label gpu; without a
// CUDA device every case is skipped and says so). GPULDPC_GPU_TEST_SMALL=1
// shrinks the batches, for compute-sanitizer runs. The decoders' tuning
// starts from gpu_tuning::from_environment(), so that the CTest variants'
// GPULDPC_GPU_DECODER_* and GPULDPC_SHARED_MEMORY_LIMIT (which moves codes to
// the global variant) apply to every case; a case changes fields from there.

#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/bits.h>
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <gnuradio/gpuldpc/engine/device.h>
#include <boost/test/unit_test.hpp>
#ifdef GPULDPC_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <type_traits>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

using namespace gr::gpuldpc;
namespace utf = boost::unit_test;

namespace {

using qa::gpu_present;
using qa::make_batch;

using qa::small;

// the compute capability's major number of the device that "cuda" takes
int compute_major()
{
    const auto devices = cuda_devices();
    const auto zero = std::find_if(
        devices.begin(), devices.end(), [](const auto& d) { return d.index == 0; });
    BOOST_REQUIRE(zero != devices.end());
    return zero->compute_major;
}

// The tuning every case starts from: the environment's, read once.
const gpu_tuning& base_tuning()
{
    static const gpu_tuning tuning = gpu_tuning::from_environment();
    return tuning;
}

decoder_config
fixed_point(decoder_schedule schedule, unsigned iterations, bool early_termination = true)
{
    decoder_config cfg;
    cfg.gpu = base_tuning();
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.schedule = schedule;
    cfg.max_iterations = iterations;
    cfg.early_termination = early_termination;
    return cfg;
}

struct result {
    std::vector<uint8_t> bits, codeword;
    std::vector<frame_status> status;
};

template <typename T>
result run(batch_decoder& d, const std::vector<T>& llr, size_t frames)
{
    result r;
    // bytes a decoder leaves unwritten show (packed: the last byte's low bits)
    r.bits.assign(frames * d.info_bytes_per_frame(), 0xa5);
    r.codeword.resize(frames * d.code().n());
    r.status.resize(frames);
    if constexpr (std::is_same_v<T, int8_t>)
        d.decode_int8(
            llr.data(), frames, r.bits.data(), r.status.data(), r.codeword.data());
    else
        d.decode(llr.data(), frames, r.bits.data(), r.status.data(), r.codeword.data());
    return r;
}

void check_identical(const result& g, const result& c, const std::string& what)
{
    BOOST_TEST_CONTEXT(what)
    {
        BOOST_CHECK(g.bits == c.bits);
        BOOST_CHECK(g.codeword == c.codeword);
        BOOST_REQUIRE_EQUAL(g.status.size(), c.status.size());
        size_t differ = 0;
        for (size_t f = 0; f < g.status.size(); ++f)
            differ += g.status[f].converged != c.status[f].converged ||
                      g.status[f].iterations != c.status[f].iterations ||
                      g.status[f].syndrome_weight != c.status[f].syndrome_weight ||
                      g.status[f].invalid_inputs != c.status[f].invalid_inputs;
        BOOST_CHECK_EQUAL(differ, 0u);
    }
}

// A punctured quasi-cyclic code: 4 x 8 blocks of 32, base column 0 not sent.
// A base matrix whose rows of 6 blocks (compact words) come before rows of
// 14 (16-byte words), at an odd lifting size with a lane a block: the
// 16-byte words of a row after an odd number of 8-byte ones stay aligned.
ldpc_code::sptr mixed_rows_qc_code(unsigned z = 259)
{
    std::mt19937 rng(12);
    ldpc_code::base_matrix base;
    base.rows = 4;
    base.cols = 20;
    base.z = z;
    base.shifts.assign(size_t(base.rows) * base.cols, -1);
    const std::vector<std::vector<unsigned>> columns = {
        { 0, 1, 2, 3, 4, 5 },
        { 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 },
        { 0, 2, 4, 6, 8, 10 },
        { 1, 3, 5, 7, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19 },
    };
    for (unsigned i = 0; i < base.rows; ++i)
        for (const unsigned j : columns[i])
            base.shifts[i * base.cols + j] = int32_t(rng() % base.z);
    return std::make_shared<ldpc_code>(ldpc_code::from_base_matrix(base));
}

// Base rows of the given numbers of blocks on cols columns lifted by z,
// random shifts: row i on the columns from 5 i on, cyclically (the rows of
// the profiles any20 and any24 beyond the standards' 19 to 22 blocks).
ldpc_code::sptr long_rows_qc_code(uint32_t seed,
                                  unsigned z,
                                  unsigned cols,
                                  const std::vector<unsigned>& degrees)
{
    std::mt19937 rng(seed);
    ldpc_code::base_matrix base;
    base.rows = unsigned(degrees.size());
    base.cols = cols;
    base.z = z;
    base.shifts.assign(size_t(base.rows) * base.cols, -1);
    for (unsigned i = 0; i < base.rows; ++i)
        for (unsigned k = 0; k < degrees[i]; ++k)
            base.shifts[i * cols + (5 * i + k) % cols] = int32_t(rng() % z);
    return std::make_shared<ldpc_code>(ldpc_code::from_base_matrix(base));
}

ldpc_code::sptr punctured_qc_code()
{
    std::mt19937 rng(11);
    ldpc_code::base_matrix base;
    base.rows = 4;
    base.cols = 8;
    base.z = 32;
    base.shifts.assign(32, -1);
    for (unsigned j = 0; j < base.cols; ++j)
        for (unsigned i = 0; i < base.rows; ++i)
            if (i != j % 4)
                base.shifts[i * base.cols + j] = int32_t(rng() % base.z);
    base.transmitted = { 0, 1, 1, 1, 1, 1, 1, 1 };
    return std::make_shared<ldpc_code>(ldpc_code::from_base_matrix(base));
}

// \p r with its information bits packed as a decoder with pack_info_bits
// gives them
result packed(const result& r, size_t info_bits)
{
    result p = r;
    const size_t frames = r.status.size(), bytes = packed_size(info_bits);
    p.bits.assign(frames * bytes, 0);
    for (size_t f = 0; f < frames; ++f)
        pack_bits(&r.bits[f * info_bits], info_bits, &p.bits[f * bytes]);
    return p;
}

// GPU and CPU on the same frames near the waterfall (failures, many
// iterations, frames that converge at different iterations) and noiseless
// frames (codewords at once: 0 iterations), both schedules, with and without
// early termination, float and 8-bit input.
void check_code(ldpc_code::sptr code, double ebn0_db, size_t noisy_frames, uint32_t seed)
{
    const auto noisy = make_batch(*code, noisy_frames, ebn0_db, seed);
    const auto clean = make_batch(*code, 2, INFINITY, seed + 1);
    std::vector<float> llr = noisy.llr;
    llr.insert(llr.end(), clean.llr.begin(), clean.llr.end());
    const size_t frames = noisy_frames + 2;
    // bad values: counted and erased alike
    llr[3] = NAN;
    llr[llr.size() / 2] = -INFINITY;
    std::vector<int8_t> llr8(llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        llr8[i] = int8_t(std::isfinite(llr[i])
                             ? std::clamp(std::nearbyint(llr[i] * 4.0f), -128.0f, 127.0f)
                             : 0.0f);
    // one frame a lane, and two in pairs (fp16 where exact, else 16-bit
    // integers in the global variant)
    for (bool pairs : { false, true })
        for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered })
            for (bool et : { true, false }) {
                auto cfg = fixed_point(sched, et ? 30 : 12, et);
                cfg.gpu.pairs = pairs;
                auto gpu = batch_decoder::make(code, cfg, "cuda");
                auto cfg_packed = cfg;
                cfg_packed.pack_info_bits = true;
                // packed in launches of 16 frames: the offsets of later ones
                cfg_packed.gpu.launch_frames = 16;
                auto gpu_packed = batch_decoder::make(code, cfg_packed, "cuda");
                auto cpu = batch_decoder::make(code, cfg, "cpu");
                const std::string what = "n=" + std::to_string(code->n()) + " " +
                                         to_string(sched) + (et ? " ET" : " fixed") +
                                         (pairs ? " pairs" : "");
                BOOST_TEST_MESSAGE(what << " on " << gpu->device_name());
                const auto c = run(*cpu, llr, frames);
                check_identical(run(*gpu, llr, frames), c, what + " float input");
                const auto c8 = run(*cpu, llr8, frames);
                check_identical(run(*gpu, llr8, frames), c8, what + " int8 input");
                check_identical(run(*gpu_packed, llr8, frames),
                                packed(c8, cpu->info_bits_per_frame()),
                                what + " int8 input, packed bits");
                size_t failed = 0, iterated = 0;
                for (const auto& s : c.status) {
                    failed += !s.converged;
                    iterated += s.iterations > 2;
                    if (!et)
                        BOOST_CHECK_EQUAL(s.iterations, cfg.max_iterations);
                }
                BOOST_TEST_MESSAGE("  " << failed << " of " << frames
                                        << " frames failed, " << iterated
                                        << " took more than 2 iterations");
                BOOST_CHECK_EQUAL(
                    c.status[0].invalid_inputs +
                        c.status[llr.size() / 2 / gpu->llr_per_frame()].invalid_inputs,
                    2u);
                // a noiseless frame is a codeword at once, unless bits are
                // punctured: they start as erasures and take an iteration
                if (et)
                    BOOST_CHECK_EQUAL(c.status[frames - 1].iterations,
                                      code->punctured_positions().empty() ? 0u : 1u);
            }
}

} // namespace

BOOST_AUTO_TEST_CASE(gpu_min_sum_equals_cpu, *utf::precondition(gpu_present()))
{
    const size_t frames = small() ? 5 : 70; // more than two blocks of frames
    check_code(std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5)),
               2.0,
               frames,
               1);
    check_code(punctured_qc_code(), 4.0, frames, 2);
    // 5G NR BG1: punctured columns, bits of degree up to 30 (beliefs beyond
    // fp16's exact range: on chip one frame a lane in both schedules; in the
    // global variant 16-bit integer pairs on sm_90 and later)
    check_code(
        std::make_shared<ldpc_code>(ldpc_code::nr(1, 16)), 2.5, small() ? 2 : 40, 7);
    // coloured layers: runs of up to 95 checks on chip
    check_code(std::make_shared<ldpc_code>(
                   construct_regular_code(1008, 3, 6, 2, 5).with_coloured_layers()),
               2.0,
               frames,
               6);
    // on chip in pairs, a block's threads beyond 32 a lane
    check_code(std::make_shared<ldpc_code>(ldpc_code::wifi(1944, "1/2")),
               2.5,
               small() ? 5 : 40,
               5);
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2", "short")),
               1.5,
               small() ? 2 : 40,
               3);
    // DVB-S2 at other rates: checks of 4 to 5 edges (1/4) and of 30 (9/10)
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/4", "short")),
               1.0,
               small() ? 2 : 40,
               8);
    check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("8/9", "short")),
               3.8,
               small() ? 2 : 40,
               9);
    if (!small()) {
        check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2")), 1.0, 33, 4);
        check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("3/5")), 2.3, 21, 10);
        check_code(std::make_shared<ldpc_code>(ldpc_code::dvbs2("9/10")), 3.9, 21, 11);
    }
}

BOOST_AUTO_TEST_CASE(gpu_min_sum_wide_pairs_equal_cpu, *utf::precondition(gpu_present()))
{
    // 5G NR BG1 in the global variant: bits of degree up to 30, where fp16
    // pairs are not exact, take 16-bit integer pairs on devices of compute
    // capability 9.0 and later (else, and with them off, one frame a lane);
    // every way gives the CPU's results on every frame. 131 frames: two full
    // groups of 64 and a partial one, whose last lane has one frame, near the
    // waterfall, so that the frames of a lane converge at different
    // iterations (a lane keeps a done frame's values while the other
    // decodes). Z = 64: the groups' 8832 checks are several a warp of an
    // H100's grid, so a warp's share of a syndrome count spans checks and
    // groups.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(1, 64));
    const size_t frames = small() ? 3 : 131;
    const auto batch = make_batch(*code, frames, 1.5, 31);
    std::vector<int8_t> llr8(batch.llr.size());
    for (size_t i = 0; i < llr8.size(); ++i)
        llr8[i] =
            int8_t(std::clamp(std::nearbyint(batch.llr[i] * 4.0f), -128.0f, 127.0f));
    for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered })
        for (bool et : { true, false }) {
            auto cfg = fixed_point(sched, et ? 30 : 12, et);
            cfg.gpu.on_chip = false;
            auto cpu = batch_decoder::make(code, cfg, "cpu");
            const auto want = run(*cpu, batch.llr, frames);
            const auto want8 = run(*cpu, llr8, frames);
            if (et && !small()) {
                // frames that stop at different iterations, and failures
                size_t failed = 0;
                unsigned fewest = UINT32_MAX, most = 0;
                for (const auto& st : want.status) {
                    failed += !st.converged;
                    fewest = std::min(fewest, st.iterations);
                    most = std::max(most, st.iterations);
                }
                BOOST_TEST_MESSAGE(to_string(sched)
                                   << ": " << failed << " of " << frames
                                   << " failed, iterations " << fewest << " to " << most);
                BOOST_CHECK_LT(fewest + 2, most);
            }
            for (bool wide : { true, false }) {
                auto cfg_wide = cfg;
                cfg_wide.gpu.wide_pairs = wide;
                auto gpu = batch_decoder::make(code, cfg_wide, "cuda");
                auto cfg_packed = cfg_wide;
                cfg_packed.pack_info_bits = true;
                auto gpu_packed = batch_decoder::make(code, cfg_packed, "cuda");
                const std::string what = to_string(sched) + (et ? " ET" : " fixed") +
                                         (wide ? " wide pairs" : " single");
                // the variant the test is about is the one decoding
                const bool wide_taken =
                    wide && compute_major() >= 9 && cfg_wide.gpu.pairs;
                for (const auto* d : { gpu.get(), gpu_packed.get() }) {
                    const std::string kernel = d->kernel_variant();
                    BOOST_TEST_INFO(what << ": " << kernel);
                    BOOST_CHECK(kernel.find("global") != std::string::npos);
                    BOOST_CHECK_EQUAL(kernel.find("16-bit integer pairs") !=
                                          std::string::npos,
                                      wide_taken);
                    BOOST_CHECK_EQUAL(kernel.find("a frame a lane") != std::string::npos,
                                      !wide_taken);
                }
                check_identical(
                    run(*gpu, batch.llr, frames), want, what + " float input");
                check_identical(run(*gpu, llr8, frames), want8, what + " int8 input");
                check_identical(run(*gpu_packed, llr8, frames),
                                packed(want8, cpu->info_bits_per_frame()),
                                what + " int8 input, packed bits");
            }
        }
}

BOOST_AUTO_TEST_CASE(gpu_min_sum_split_blocks_take_groups_in_turn,
                     *utf::precondition(gpu_present()))
{
    // The split variant (DVB-S2's short frame, layered: beliefs in shared
    // memory, messages in a block's region of global memory) with 3 blocks,
    // each decoding groups one after another in its region: the CPU's
    // results, as with a block a group, and as the global variant's.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2", "short"));
    const size_t frames = small() ? 7 : 41;
    const auto batch = make_batch(*code, frames, 1.4, 21);
    for (bool et : { true, false }) {
        const auto cfg = fixed_point(decoder_schedule::layered, et ? 25 : 10, et);
        const auto want = run(*batch_decoder::make(code, cfg, "cpu"), batch.llr, frames);
        for (bool pairs : { false, true }) {
            const std::string what =
                std::string(et ? "ET" : "fixed") + (pairs ? " pairs" : "");
            auto cfg_pairs = cfg;
            cfg_pairs.gpu.pairs = pairs;
            auto all_blocks = batch_decoder::make(code, cfg_pairs, "cuda");
            auto cfg_three = cfg_pairs;
            cfg_three.gpu.split_blocks = 3;
            auto three_blocks = batch_decoder::make(code, cfg_three, "cuda");
            auto cfg_global = cfg_pairs;
            cfg_global.gpu.split = false;
            auto global = batch_decoder::make(code, cfg_global, "cuda");
            check_identical(run(*all_blocks, batch.llr, frames), want, what);
            check_identical(
                run(*three_blocks, batch.llr, frames), want, what + " 3 blocks");
            check_identical(run(*global, batch.llr, frames), want, what + " global");
        }
    }
}

// The quasi-cyclic family (codes with a base matrix, layered, the 8-bit rule)
// against the CPU, frame for frame: 5G NR base graphs 1 and 2 at lifting
// sizes from 2 to 384 and several row counts (groups of 1 to 32 lanes, base
// rows of 3 to 19 blocks), Wi-Fi at its three rates (one read from an alist
// file, its structure found in H), a punctured code from a base matrix, one
// whose rows of 6 blocks precede rows of 14 at an odd lifting size; a
// frame a lane and two in 16-bit pairs (sm_90 and later); early termination
// on and off, float and 8-bit input with a NaN and an infinity; a batch of
// one frame; launches of 5 frames and two blocks taking the groups in turn.
BOOST_AUTO_TEST_CASE(gpu_min_sum_quasi_cyclic_equals_cpu,
                     *utf::precondition(gpu_present()))
{
    struct qc_case {
        std::string name;
        ldpc_code::sptr code;
        double ebn0_db;
    };
    auto nr = [](unsigned bg, unsigned z, unsigned rows) {
        return std::make_shared<ldpc_code>(ldpc_code::nr(bg, z, rows));
    };
    std::vector<qc_case> cases = {
        { "nr:1:2", nr(1, 2, 0), 3.0 },
        { "nr:1:15:16", nr(1, 15, 16), 2.0 },
        // frames whose channel values are a codeword already (retired before
        // the first iteration: their message words are never written) beside
        // frames that iterate
        { "nr:1:15:16 at 5 dB", nr(1, 15, 16), 5.0 },
        { "nr:1:64", nr(1, 64, 0), 1.5 },
        { "nr:1:208:8", nr(1, 208, 8), 2.5 },
        { "nr:1:384:4", nr(1, 384, 4), 3.5 },
        { "nr:2:2:8", nr(2, 2, 8), 3.0 },
        { "nr:2:15", nr(2, 15, 0), 2.0 },
        { "nr:2:64:4", nr(2, 64, 4), 3.5 },
        { "nr:2:208", nr(2, 208, 0), 1.2 },
        // two lanes a block (Z 128 .. 192), checks unrolled by row degree
        { "nr:1:144", nr(1, 144, 0), 1.3 },
        { "nr:2:176:20", nr(2, 176, 20), 1.8 },
        // beliefs of BG1's first columns (up to 30 checks) past the rule's
        // limit of +-1920
        { "nr:1:64 at 6 dB", nr(1, 64, 0), 6.0 },
        { "qc 4x8, z 32", punctured_qc_code(), 4.0 },
        { "qc rows of 6 and 14 blocks, z 259", mixed_rows_qc_code(), 3.5 },
        // every degree's sign bits of the fp16 word: rows of 17, 18 and 20
        // blocks (any20), of 21, 23 and 24 (any24)
        { "qc rows of 17 to 20 blocks, z 40",
          long_rows_qc_code(13, 40, 24, { 17, 18, 20 }),
          4.5 },
        { "qc rows of 21 to 24 blocks, z 33",
          long_rows_qc_code(14, 33, 28, { 23, 21, 24 }),
          4.5 },
        { "wifi 648 1/2", std::make_shared<ldpc_code>(ldpc_code::wifi(648, "1/2")), 2.0 },
        { "wifi 648 2/3", std::make_shared<ldpc_code>(ldpc_code::wifi(648, "2/3")), 2.8 },
        { "wifi 1944 3/4",
          std::make_shared<ldpc_code>(ldpc_code::wifi(1944, "3/4")),
          3.2 },
        // IEEE 802.16e: z = 24 (the smallest), z = 56 with rate 2/3A's shifts
        // taken modulo z, z = 96 at rate 3/4B, and rate 5/6 (rows of 20
        // blocks: profile any20, as IEEE 802.11n n = 1944's rate 5/6; n = 648
        // and 1296, 21 and 22: any24, signs of positions 20 to 23 in the
        // fp16 word's mag2)
        { "wimax 576 1/2",
          std::make_shared<ldpc_code>(ldpc_code::wimax(576, "1/2")),
          2.2 },
        { "wimax 1344 2/3A",
          std::make_shared<ldpc_code>(ldpc_code::wimax(1344, "2/3A")),
          2.8 },
        { "wimax 2304 3/4B",
          std::make_shared<ldpc_code>(ldpc_code::wimax(2304, "3/4B")),
          3.2 },
        { "wimax 2304 5/6",
          std::make_shared<ldpc_code>(ldpc_code::wimax(2304, "5/6")),
          4.0 },
        { "wifi 648 5/6", std::make_shared<ldpc_code>(ldpc_code::wifi(648, "5/6")), 4.2 },
        { "wifi 1296 5/6",
          std::make_shared<ldpc_code>(ldpc_code::wifi(1296, "5/6")),
          4.0 },
        { "wifi 1944 5/6",
          std::make_shared<ldpc_code>(ldpc_code::wifi(1944, "5/6")),
          4.0 },
        // CCSDS AR4JA: z = M / 4 (128, 32 with rows of 18 blocks, 256), the
        // last M bits punctured
        { "ar4ja 1024 1/2",
          std::make_shared<ldpc_code>(ldpc_code::ar4ja(1024, "1/2")),
          1.8 },
        { "ar4ja 1024 4/5",
          std::make_shared<ldpc_code>(ldpc_code::ar4ja(1024, "4/5")),
          3.5 },
        { "ar4ja 4096 2/3",
          std::make_shared<ldpc_code>(ldpc_code::ar4ja(4096, "2/3")),
          2.2 },
        // lifting sizes above the pair kernels' blocks of 384 threads: the
        // strided instances, a thread two checks of a row (z = 512), and
        // two or three (z = 1000: 352 threads; z = 777: 288)
        { "ar4ja 4096 1/2",
          std::make_shared<ldpc_code>(ldpc_code::ar4ja(4096, "1/2")),
          1.6 },
        { "qc rows of 6 and 14 blocks, z 1000", mixed_rows_qc_code(1000), 3.5 },
        { "qc rows of 17 to 20 blocks, z 777",
          long_rows_qc_code(13, 777, 24, { 17, 18, 20 }),
          4.5 },
    };
    {
        // through an alist file: the structure found in H
        code_io_options alist;
        alist.format = code_format::alist;
        std::stringstream file;
        ldpc_code::wifi(1296, "2/3").write(file, alist);
        cases.push_back({ "wifi 1296 2/3 from an alist",
                          std::make_shared<ldpc_code>(
                              ldpc_code::read(file, "wifi.alist", alist)),
                          2.8 });
        // and a .qc file (a base matrix written out and read back)
        code_io_options qc;
        qc.format = code_format::qc;
        std::stringstream qc_file;
        ldpc_code::wifi(1944, "1/2").write(qc_file, qc);
        cases.push_back(
            { "wifi 1944 1/2 from a .qc file",
              std::make_shared<ldpc_code>(ldpc_code::read(qc_file, "wifi.qc", qc)),
              2.0 });
    }
    if (!small()) {
        cases.push_back({ "nr:1:384", nr(1, 384, 0), 1.1 });
        cases.push_back({ "nr:2:384:8", nr(2, 384, 8), 2.5 });
        // strided at z = 1024 (rows of up to 10 blocks, compact words
        // where the L2 would not hold 16-byte ones) and z = 512 with rows
        // of 18 blocks (any20)
        cases.push_back({ "ar4ja 16384 2/3",
                          std::make_shared<ldpc_code>(ldpc_code::ar4ja(16384, "2/3")),
                          2.0 });
        cases.push_back({ "ar4ja 16384 4/5",
                          std::make_shared<ldpc_code>(ldpc_code::ar4ja(16384, "4/5")),
                          3.0 });
    }
    const bool chosen = base_tuning().on_chip && base_tuning().quasi_cyclic;
    uint32_t seed = 40;
    for (const auto& c : cases) {
        // a base matrix that the kernel with checks unrolled by row degree
        // takes (Z > 24, rows of up to 24 blocks or 5G NR's)
        const auto base = c.code->find_quasi_cyclic_base();
        unsigned most_blocks = 0;
        for (unsigned i = 0; i < base.rows; ++i)
            most_blocks = std::max(
                most_blocks,
                unsigned(std::count_if(base.shifts.begin() + size_t(i) * base.cols,
                                       base.shifts.begin() + size_t(i + 1) * base.cols,
                                       [](int32_t s) { return s >= 0; })));
        const bool unrollable = base.z > 24 && base.rows <= 64 &&
                                (most_blocks <= 24 || c.name.rfind("nr:", 0) == 0);
        const size_t frames = small() ? 3 : c.code->n() > 10000 ? 9 : 23;
        auto batch = make_batch(*c.code, frames, c.ebn0_db, ++seed);
        batch.llr[5] = NAN;
        batch.llr[batch.llr.size() - 2] = INFINITY;
        std::vector<int8_t> llr8(batch.llr.size());
        for (size_t i = 0; i < llr8.size(); ++i)
            llr8[i] = int8_t(std::isfinite(batch.llr[i])
                                 ? std::clamp(std::nearbyint(batch.llr[i] * 4.0f),
                                              -128.0f,
                                              127.0f)
                                 : 0.0f);
        for (int variant = 0; variant < 7; ++variant) {
            // early termination, a frame a lane and (sm_90) pairs; no early
            // termination in pairs; early termination in pairs with the kernel
            // that loops over a check's positions, and with the one with
            // checks unrolled by row degree in 16-bit integer pairs rather
            // than fp16 (where the unrolled one in fp16 would be chosen); in
            // fp16 with 16-byte message words only, and with compact words
            // wherever rows allow them (rows of up to 12 blocks)
            const bool et = variant != 2, pairs = variant > 0, loop = variant == 3,
                       integer = variant == 4, wide_words = variant == 5,
                       compact = variant == 6;
            if ((loop || integer || wide_words || compact) && !unrollable)
                continue;
            auto cfg = fixed_point(decoder_schedule::layered, et ? 25 : 8, et);
            cfg.gpu.quasi_cyclic_first = true;
            cfg.gpu.pairs = pairs;
            cfg.gpu.quasi_cyclic_unrolled = !loop && base_tuning().quasi_cyclic_unrolled;
            cfg.gpu.quasi_cyclic_half = !integer && base_tuning().quasi_cyclic_half;
            cfg.gpu.quasi_cyclic_compact = wide_words ? 0u
                                           : compact  ? 2u
                                                     : base_tuning().quasi_cyclic_compact;
            auto cpu = batch_decoder::make(c.code, cfg, "cpu");
            auto gpu = batch_decoder::make(c.code, cfg, "cuda");
            auto cfg_turns = cfg;
            cfg_turns.gpu.launch_frames = 5;
            cfg_turns.gpu.split_blocks = 2;
            auto turns = batch_decoder::make(c.code, cfg_turns, "cuda");
            const std::string what =
                c.name + (et ? " ET" : " fixed") + (pairs ? " pairs" : "") +
                (loop ? " loop" : "") + (integer ? " integer" : "") +
                (wide_words ? " 16-byte words" : "") + (compact ? " compact words" : "");
            BOOST_TEST_MESSAGE(what << ": " << gpu->kernel_variant());
            if (chosen)
                BOOST_CHECK_MESSAGE(
                    gpu->kernel_variant().find("quasi-cyclic") != std::string::npos,
                    what << " takes " << gpu->kernel_variant());
            // in 16-bit pairs at Z > 24 (up to 8 lanes) with a profile (5G
            // NR's rows, or rows of up to 24 blocks): checks unrolled by row
            // degree; the loop kernel where turned off
            const std::string& kv = gpu->kernel_variant();
            const bool unrolled_expected =
                chosen && unrollable && !loop && base_tuning().quasi_cyclic_unrolled &&
                (kv.find("16-bit integer pairs") != std::string::npos ||
                 kv.find("fp16 pairs") != std::string::npos);
            // in fp16 pairs unless turned off
            if (unrolled_expected)
                BOOST_CHECK_MESSAGE(kv.find(!integer && base_tuning().quasi_cyclic_half
                                                ? "fp16 pairs"
                                                : "16-bit integer pairs") !=
                                        std::string::npos,
                                    what << " takes " << kv);
            // in fp16 pairs: compact words where asked for always, none
            // where turned off
            if (unrolled_expected && kv.find("fp16 pairs") != std::string::npos &&
                (wide_words || compact))
                BOOST_CHECK_MESSAGE((kv.find("compact words") != std::string::npos) ==
                                        compact,
                                    what << " takes " << kv);
            if (loop)
                BOOST_CHECK_MESSAGE(gpu->kernel_variant().find("checks unrolled") ==
                                        std::string::npos,
                                    what << " takes " << gpu->kernel_variant());
            if (unrolled_expected)
                BOOST_CHECK_MESSAGE(gpu->kernel_variant().find("checks unrolled") !=
                                        std::string::npos,
                                    what << " takes " << gpu->kernel_variant());
            // a lifting size above the blocks' 384 threads: several checks a
            // thread (rows of up to 20 blocks), where pairs are taken
            if (unrolled_expected && base.z > 384 && most_blocks <= 20 &&
                base_tuning().quasi_cyclic_strided)
                BOOST_CHECK_MESSAGE(kv.find("several checks a thread") !=
                                        std::string::npos,
                                    what << " takes " << kv);
            const auto want = run(*cpu, batch.llr, frames);
            const auto want8 = run(*cpu, llr8, frames);
            check_identical(run(*gpu, batch.llr, frames), want, what + " float input");
            check_identical(run(*gpu, llr8, frames), want8, what + " int8 input");
            check_identical(run(*turns, llr8, frames),
                            want8,
                            what + " int8 input, launches of 5, 2 blocks");
            const std::vector<float> one(batch.llr.begin(),
                                         batch.llr.begin() + gpu->llr_per_frame());
            check_identical(run(*gpu, one, 1), run(*cpu, one, 1), what + " one frame");
            size_t failed = 0;
            for (const auto& s : want.status)
                failed += !s.converged;
            BOOST_TEST_MESSAGE("  " << failed << " of " << frames << " frames failed");
        }
    }
}

BOOST_AUTO_TEST_CASE(gpu_min_sum_batch_sizes_and_frames_alone,
                     *utf::precondition(gpu_present()))
{
    const auto code =
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5));
    const auto cfg = fixed_point(decoder_schedule::layered, 20);
    auto gpu = batch_decoder::make(code, cfg, "cuda");
    auto cpu = batch_decoder::make(code, cfg, "cpu");
    // frames of different SNRs in one batch get what they get alone
    std::vector<float> llr;
    const size_t frames = small() ? 3 : 65;
    for (size_t f = 0; f < frames; ++f) {
        const auto b = make_batch(*code, 1, 1.0 + 0.05 * double(f), uint32_t(100 + f));
        llr.insert(llr.end(), b.llr.begin(), b.llr.end());
    }
    const auto all = run(*gpu, llr, frames);
    check_identical(all, run(*cpu, llr, frames), "mixed SNRs");
    const size_t nl = gpu->llr_per_frame();
    for (size_t f : { size_t(0), frames / 2, frames - 1 }) {
        const std::vector<float> one(llr.begin() + f * nl, llr.begin() + (f + 1) * nl);
        const auto alone = run(*gpu, one, 1);
        BOOST_CHECK(std::equal(
            alone.bits.begin(), alone.bits.end(), all.bits.begin() + f * code->k()));
        BOOST_CHECK_EQUAL(alone.status[0].iterations, all.status[f].iterations);
    }
    // launches of 16 frames at most: the same results
    auto cfg16 = cfg;
    cfg16.gpu.launch_frames = 16;
    auto split = batch_decoder::make(code, cfg16, "cuda");
    check_identical(run(*split, llr, frames), all, "launches of 16 frames");
    // symbol log-likelihoods (0, l) carry the LLR l
    std::vector<float> symbol_ll(2 * llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        symbol_ll[2 * i + 1] = llr[i];
    for (batch_decoder* d : { gpu.get(), cpu.get() }) {
        result r;
        r.bits.resize(frames * d->info_bits_per_frame());
        r.codeword.resize(frames * code->n());
        r.status.resize(frames);
        d->decode_symbol_llr(
            symbol_ll.data(), frames, r.bits.data(), r.status.data(), r.codeword.data());
        check_identical(r, all, "symbol log-likelihoods on " + d->device_name());
    }
    // two outstanding batches give decode()'s results
    const auto three = make_batch(*code, 3 * (small() ? 2 : 17), 2.0, 9);
    qa::check_outstanding_batches(*gpu, three.llr, small() ? 2 : 17);
    // and so do two outstanding 8-bit batches, in the decoder's host buffers
    std::vector<int8_t> steps(llr.size());
    for (size_t i = 0; i < llr.size(); ++i)
        steps[i] = int8_t(std::clamp(std::nearbyint(llr[i] * 4.0f), -127.0f, 127.0f));
    const auto want8 = run(*cpu, steps, frames);
    const size_t half = frames / 2, nb = gpu->info_bits_per_frame();
    auto in = gpu->host_buffer(steps.size());
    auto bits = gpu->host_buffer(frames * nb);
    auto status = gpu->host_buffer(frames * sizeof(frame_status));
    auto* in8 = static_cast<int8_t*>(in.get());
    auto* b = static_cast<uint8_t*>(bits.get());
    auto* st = static_cast<frame_status*>(status.get());
    std::copy(steps.begin(), steps.end(), in8);
    const uint64_t t1 = gpu->begin_decode_int8(in8, half, b, st);
    const uint64_t t2 =
        gpu->begin_decode_int8(in8 + half * nl, frames - half, b + half * nb, st + half);
    gpu->end_decode(t1);
    gpu->end_decode(t2);
    BOOST_CHECK(std::equal(b, b + frames * nb, want8.bits.begin()));
    for (size_t f = 0; f < frames; ++f)
        BOOST_CHECK_EQUAL(st[f].iterations, want8.status[f].iterations);
}

#ifdef GPULDPC_HAVE_CUDA
BOOST_AUTO_TEST_CASE(gpu_min_sum_from_device_memory, *utf::precondition(gpu_present()))
{
    const auto code =
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5));
    for (bool pack : { false, true }) {
        auto cfg = fixed_point(decoder_schedule::flooding, 20);
        cfg.pack_info_bits = pack;
        cfg.gpu.launch_frames = 16;
        auto gpu = batch_decoder::make(code, cfg, "cuda");
        const size_t frames = small() ? 3 : 40;
        const auto b = make_batch(*code, frames, 2.0, 12);
        const auto want = run(*batch_decoder::make(code, cfg, "cpu"), b.llr, frames);
        float* llr = nullptr;
        uint8_t* bits = nullptr;
        frame_status* status = nullptr;
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&llr),
                                 b.llr.size() * sizeof(float)) == cudaSuccess);
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&bits), want.bits.size()) ==
                      cudaSuccess);
        BOOST_REQUIRE(cudaMalloc(reinterpret_cast<void**>(&status),
                                 frames * sizeof(frame_status)) == cudaSuccess);
        cudaMemcpy(
            llr, b.llr.data(), b.llr.size() * sizeof(float), cudaMemcpyHostToDevice);
        BOOST_REQUIRE(cudaMemset(bits, 0xa5, want.bits.size()) == cudaSuccess);
        gpu->decode_device(llr, frames, bits, status);
        std::vector<uint8_t> got(want.bits.size());
        std::vector<frame_status> got_status(frames);
        cudaMemcpy(got.data(), bits, got.size(), cudaMemcpyDeviceToHost);
        cudaMemcpy(got_status.data(),
                   status,
                   frames * sizeof(frame_status),
                   cudaMemcpyDeviceToHost);
        cudaFree(llr);
        cudaFree(bits);
        cudaFree(status);
        BOOST_CHECK(got == want.bits);
        for (size_t f = 0; f < frames; ++f) {
            BOOST_CHECK_EQUAL(got_status[f].converged, want.status[f].converged);
            BOOST_CHECK_EQUAL(got_status[f].iterations, want.status[f].iterations);
            BOOST_CHECK_EQUAL(got_status[f].syndrome_weight,
                              want.status[f].syndrome_weight);
            BOOST_CHECK_EQUAL(got_status[f].invalid_inputs,
                              want.status[f].invalid_inputs);
        }
    }
}
#endif

BOOST_AUTO_TEST_CASE(gpu_min_sum_arguments)
{
    const auto code = std::make_shared<ldpc_code>(construct_regular_code(96, 3, 6, 2, 5));
    // auto and cuda run 8-bit min-sum on a GPU when there is one; without
    // one, auto takes the CPU and cuda is an error
    auto cfg = fixed_point(decoder_schedule::layered, 10);
    if (cuda_devices().empty()) {
        BOOST_CHECK_EQUAL(batch_decoder::make(code, cfg, "auto")->device_name(), "cpu");
        BOOST_CHECK_THROW(batch_decoder::make(code, cfg, "cuda"), std::runtime_error);
    } else {
        BOOST_CHECK_NE(batch_decoder::make(code, cfg, "auto")->device_name(), "cpu");
        BOOST_CHECK_NE(batch_decoder::make(code, cfg, "cuda")->device_name(), "cpu");
    }
    // float min-sum and sum-product (also what auto resolves to) likewise
    for (auto alg : { decoder_algorithm::min_sum,
                      decoder_algorithm::sum_product,
                      decoder_algorithm::automatic }) {
        cfg.algorithm = alg;
        cfg.messages = message_precision::fp32;
        BOOST_CHECK_EQUAL(batch_decoder::make(code, cfg, "auto")->device_name() == "cpu",
                          cuda_devices().empty());
    }
    // messages in half precision are for fft-bp: the error names the choices
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::fp16;
    BOOST_CHECK_THROW(batch_decoder::make(code, cfg, "cuda"), std::invalid_argument);
}

namespace {

decoder_config
floating(decoder_algorithm alg, decoder_schedule schedule, unsigned iterations)
{
    decoder_config cfg;
    cfg.gpu = base_tuning();
    cfg.algorithm = alg;
    cfg.messages = message_precision::fp32;
    cfg.schedule = schedule;
    cfg.max_iterations = iterations;
    cfg.early_termination = true;
    return cfg;
}

} // namespace

// Float min-sum and sum-product against the CPU reference's rules. Min-sum
// is the same single-precision arithmetic in the same order (differences,
// minima, one multiply, sums in edge order): every frame's decisions and
// status equal, at high SNR and near the waterfall, float and 8-bit input.
// Sum-product runs in the phi form in single precision, the CPU's through
// tanh in double: the decisions at high SNR equal; near the waterfall the
// frames that only one of the two fails (a paired count) balance within
// 4 sigma (|b - c| <= 4 sqrt(b + c), McNemar).
BOOST_AUTO_TEST_CASE(gpu_float_binary_equals_cpu, *utf::precondition(gpu_present()))
{
    const size_t frames = small() ? 6 : 200, noisy_frames = small() ? 6 : 400;
    const std::vector<ldpc_code::sptr> codes{
        std::make_shared<ldpc_code>(construct_regular_code(1008, 3, 6, 2, 5)),
        punctured_qc_code(),
        std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/2", "short")),
    };
    // 8-bit input at the decoders' default llr_scale: v / llr_scale each
    const float to_steps = decoder_config{}.llr_scale;
    auto eight_bit = [&](const std::vector<float>& llr) {
        std::vector<int8_t> out(llr.size());
        for (size_t i = 0; i < llr.size(); ++i)
            out[i] = int8_t(
                std::isfinite(llr[i])
                    ? std::clamp(std::nearbyint(llr[i] * to_steps), -127.0f, 127.0f)
                    : 0.0f);
        return out;
    };
    for (const auto& code : codes)
        for (auto alg : { decoder_algorithm::min_sum, decoder_algorithm::sum_product })
            for (auto sched : { decoder_schedule::flooding, decoder_schedule::layered }) {
                const auto cfg = floating(alg, sched, 30);
                const bool exact = alg == decoder_algorithm::min_sum;
                auto gpu = batch_decoder::make(code, cfg, "cuda");
                auto cpu = batch_decoder::make(code, cfg, "cpu");
                const std::string what = "n=" + std::to_string(code->n()) + " " +
                                         to_string(alg) + " " + to_string(sched);
                // high SNR: the sent frames, NaN/Inf counted alike
                auto high = make_batch(*code, frames, 5.0, 21);
                high.llr[5] = NAN;
                high.llr[high.llr.size() - 1] = INFINITY;
                const auto g = run(*gpu, high.llr, frames);
                const auto c = run(*cpu, high.llr, frames);
                BOOST_TEST_CONTEXT(what << ", 5 dB")
                {
                    BOOST_CHECK(g.bits == high.info_bits);
                    BOOST_CHECK(g.bits == c.bits);
                    BOOST_CHECK(g.codeword == c.codeword);
                    size_t differ = 0;
                    for (size_t f = 0; f < frames; ++f)
                        differ +=
                            g.status[f].converged != c.status[f].converged ||
                            g.status[f].invalid_inputs != c.status[f].invalid_inputs ||
                            g.status[f].iterations > cfg.max_iterations;
                    BOOST_CHECK_EQUAL(differ, 0u);
                }
                if (exact)
                    check_identical(g, c, what + ", 5 dB");
                const auto high8 = eight_bit(high.llr);
                if (exact)
                    check_identical(run(*gpu, high8, frames),
                                    run(*cpu, high8, frames),
                                    what + ", 5 dB, 8-bit input");
                else
                    BOOST_CHECK(run(*gpu, high8, frames).bits ==
                                run(*cpu, high8, frames).bits);
                // the waterfall
                const auto low = make_batch(*code, noisy_frames, 1.75, 22);
                const auto low8 = eight_bit(low.llr);
                for (bool eight : { false, true }) {
                    const auto gl = eight ? run(*gpu, low8, noisy_frames)
                                          : run(*gpu, low.llr, noisy_frames);
                    const auto cl = eight ? run(*cpu, low8, noisy_frames)
                                          : run(*cpu, low.llr, noisy_frames);
                    const std::string where =
                        what + ", 1.75 dB" + (eight ? ", 8-bit input" : "");
                    if (exact) {
                        check_identical(gl, cl, where);
                        continue;
                    }
                    const size_t nb = gpu->info_bits_per_frame();
                    size_t gpu_only = 0, cpu_only = 0, both = 0;
                    for (size_t f = 0; f < noisy_frames; ++f) {
                        const auto sent = low.info_bits.begin() + f * nb;
                        const bool eg =
                            !std::equal(sent, sent + nb, gl.bits.begin() + f * nb);
                        const bool ec =
                            !std::equal(sent, sent + nb, cl.bits.begin() + f * nb);
                        gpu_only += eg && !ec;
                        cpu_only += ec && !eg;
                        both += eg && ec;
                    }
                    BOOST_TEST_MESSAGE(where << ": frames failed by both " << both
                                             << ", GPU only " << gpu_only << ", CPU only "
                                             << cpu_only << " of " << noisy_frames);
                    BOOST_TEST_CONTEXT(where)
                    {
                        BOOST_CHECK_LE(std::abs(double(gpu_only) - double(cpu_only)),
                                       4.0 * std::sqrt(double(gpu_only + cpu_only)));
                    }
                }
            }
}
