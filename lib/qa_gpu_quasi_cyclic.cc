/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The quasi-cyclic family of the binary GPU decoder against the CPU reference
// in 8-bit min-sum, frame for frame (CTest label gpu; without a CUDA device
// the case is skipped and says so). As in qa_gpu_min_sum.cc, the decoders'
// tuning starts from gpu_tuning::from_environment(), so that the CTest
// variants' GPULDPC_GPU_DECODER_* and GPULDPC_SHARED_MEMORY_LIMIT apply, and
// GPULDPC_GPU_TEST_SMALL=1 shrinks the batches.

#include "qa_gpu_min_sum.h"
#include <sstream>

using namespace gr::gpuldpc;
namespace utf = boost::unit_test;

namespace {

using qa::base_tuning;
using qa::check_identical;
using qa::compute_major;
using qa::fixed_point;
using qa::gpu_present;
using qa::make_batch;
using qa::punctured_qc_code;
using qa::run;
using qa::small;


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

} // namespace

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
    auto wifi = [](unsigned n, const char* rate) {
        return std::make_shared<ldpc_code>(ldpc_code::wifi(n, rate));
    };
    auto wimax = [](unsigned n, const char* rate) {
        return std::make_shared<ldpc_code>(ldpc_code::wimax(n, rate));
    };
    auto ar4ja = [](unsigned k, const char* rate) {
        return std::make_shared<ldpc_code>(ldpc_code::ar4ja(k, rate));
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
        { "wifi 648 1/2", wifi(648, "1/2"), 2.0 },
        { "wifi 648 2/3", wifi(648, "2/3"), 2.8 },
        { "wifi 1944 3/4", wifi(1944, "3/4"), 3.2 },
        // IEEE 802.16e: z = 24 (the smallest), z = 56 with rate 2/3A's shifts
        // taken modulo z, z = 96 at rate 3/4B, and rate 5/6 (rows of 20
        // blocks: profile any20, as IEEE 802.11n n = 1944's rate 5/6; n = 648
        // and 1296, 21 and 22: any24, signs of positions 20 to 23 in the
        // fp16 word's mag2)
        { "wimax 576 1/2", wimax(576, "1/2"), 2.2 },
        { "wimax 1344 2/3A", wimax(1344, "2/3A"), 2.8 },
        { "wimax 2304 3/4B", wimax(2304, "3/4B"), 3.2 },
        { "wimax 2304 5/6", wimax(2304, "5/6"), 4.0 },
        { "wifi 648 5/6", wifi(648, "5/6"), 4.2 },
        { "wifi 1296 5/6", wifi(1296, "5/6"), 4.0 },
        { "wifi 1944 5/6", wifi(1944, "5/6"), 4.0 },
        // CCSDS AR4JA: z = M / 4 (128, 32 with rows of 18 blocks, 256), the
        // last M bits punctured
        { "ar4ja 1024 1/2", ar4ja(1024, "1/2"), 1.8 },
        { "ar4ja 1024 4/5", ar4ja(1024, "4/5"), 3.5 },
        { "ar4ja 4096 2/3", ar4ja(4096, "2/3"), 2.2 },
        // lifting sizes above the pair kernels' blocks of 384 threads: the
        // strided instances, a thread two checks of a row (z = 512), and
        // two or three (z = 1000: 352 threads; z = 777: 288)
        { "ar4ja 4096 1/2", ar4ja(4096, "1/2"), 1.6 },
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
        cases.push_back(
            { "wifi 1296 2/3 from an alist",
              std::make_shared<ldpc_code>(ldpc_code::read(file, "wifi.alist", alist)),
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
        cases.push_back({ "ar4ja 16384 2/3", ar4ja(16384, "2/3"), 2.0 });
        cases.push_back({ "ar4ja 16384 4/5", ar4ja(16384, "4/5"), 3.0 });
    }
    const bool chosen = base_tuning().on_chip && base_tuning().quasi_cyclic;
    uint32_t seed = 40;
    // codes the three-smallest rule decoded in fp16 pairs
    size_t three_in_pairs = 0;
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
            llr8[i] = int8_t(
                std::isfinite(batch.llr[i])
                    ? std::clamp(std::nearbyint(batch.llr[i] * 4.0f), -128.0f, 127.0f)
                    : 0.0f);
        for (int variant = 0; variant < 9; ++variant) {
            // early termination, a frame a lane and (sm_90) pairs; no early
            // termination in pairs; early termination in pairs with the kernel
            // that loops over a check's positions, and with the one with
            // checks unrolled by row degree in 16-bit integer pairs rather
            // than fp16 (where the unrolled one in fp16 would be chosen); in
            // fp16 with 16-byte message words only, and with compact words
            // wherever rows allow them (rows of up to 12 blocks); the
            // three-smallest rule a frame a lane, and where pairs are allowed
            // (fp16 pairs with checks unrolled)
            const bool et = variant != 2,
                       pairs = (variant > 0 && variant < 7) || variant == 8,
                       loop = variant == 3, integer = variant == 4,
                       wide_words = variant == 5, compact = variant == 6,
                       three = variant >= 7;
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
            if (three)
                cfg.min_sum_magnitude = min_sum_magnitude_rule::three_smallest;
            auto cpu = batch_decoder::make(c.code, cfg, "cpu");
            auto gpu = batch_decoder::make(c.code, cfg, "cuda");
            auto cfg_turns = cfg;
            cfg_turns.gpu.launch_frames = 5;
            cfg_turns.gpu.split_blocks = 2;
            auto turns = batch_decoder::make(c.code, cfg_turns, "cuda");
            const std::string what =
                c.name + (et ? " ET" : " fixed") + (pairs ? " pairs" : "") +
                (loop ? " loop" : "") + (integer ? " integer" : "") +
                (wide_words ? " 16-byte words" : "") + (compact ? " compact words" : "") +
                (three ? " three-smallest" : "");
            BOOST_TEST_MESSAGE(what << ": " << gpu->kernel_variant());
            if (chosen)
                BOOST_CHECK_MESSAGE(gpu->kernel_variant().find("quasi-cyclic") !=
                                        std::string::npos,
                                    what << " takes " << gpu->kernel_variant());
            // in 16-bit pairs at Z > 24 (up to 8 lanes) with a profile (5G
            // NR's rows, or rows of up to 24 blocks): checks unrolled by row
            // degree; the loop kernel where turned off
            const std::string& kv = gpu->kernel_variant();
            // three-smallest: checks unrolled by row degree (sm_90) where a
            // row's checks fit the unrolled blocks' 384 threads, else in a
            // loop; unrolled in fp16 pairs where pairs are allowed, else a
            // frame a lane
            if (three) {
                const bool unrolled = kv.find("checks unrolled") != std::string::npos;
                const bool in_pairs =
                    kv.find("two frames a lane in fp16 pairs") != std::string::npos;
                BOOST_CHECK_MESSAGE(
                    kv.find("three smallest") != std::string::npos &&
                        (in_pairs || kv.find("a frame a lane") != std::string::npos),
                    what << " takes " << kv);
                if (in_pairs) {
                    BOOST_CHECK_MESSAGE(pairs && unrolled && most_blocks <= 24,
                                        what << " takes " << kv);
                    ++three_in_pairs;
                }
                if (unrolled)
                    BOOST_CHECK_LE(base.z, 384u);
                if (chosen && unrollable && base.z <= 384 && base_tuning().lanes == 0 &&
                    base_tuning().quasi_cyclic_unrolled && compute_major() >= 9)
                    BOOST_CHECK_MESSAGE(unrolled, what << " takes " << kv);
            }
            const bool unrolled_expected =
                chosen && unrollable && !loop && !three &&
                base_tuning().quasi_cyclic_unrolled &&
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
    // the three-smallest rule took its fp16 pairs (5G NR, Wi-Fi, WiMAX at Z
    // above 24) wherever the default tuning allows them
    if (chosen && compute_major() >= 9 && base_tuning().quasi_cyclic_unrolled &&
        base_tuning().quasi_cyclic_half && base_tuning().lanes == 0)
        BOOST_CHECK_GT(three_in_pairs, 0u);
}
