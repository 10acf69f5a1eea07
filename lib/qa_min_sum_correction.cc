/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Choices a decoder makes for its code: min_sum_scale="auto" (the scale each
// structure gets, that decoders take it, and that it decodes a low-rate 5G NR
// code where 13/16 fails) and the layered order of a code without structure.

#include "qa_helpers.h"
#include <gnuradio/gpuldpc/engine/decoder.h>
#include <initializer_list>
#include <boost/test/unit_test.hpp>
#include <sstream>

using namespace gr::gpuldpc;

namespace {

// Frame errors (information bits) of 8-bit layered min-sum, 10 iterations, on
// the CPU with \p cfg's correction and magnitude rule.
size_t layered_frame_errors(ldpc_code::sptr code,
                            const qa::noisy_batch& batch,
                            decoder_config cfg)
{
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.schedule = decoder_schedule::layered;
    cfg.max_iterations = 10;
    cfg.threads = 2;
    const size_t k = code->k(), frames = batch.info_bits.size() / k;
    auto dec = batch_decoder::make(code, cfg, "cpu");
    std::vector<uint8_t> bits(batch.info_bits.size());
    std::vector<frame_status> st(frames);
    dec->decode(batch.llr.data(), frames, bits.data(), st.data());
    size_t wrong = 0;
    for (size_t f = 0; f < frames; ++f)
        wrong += !std::equal(bits.begin() + f * k,
                             bits.begin() + (f + 1) * k,
                             batch.info_bits.begin() + f * k);
    return wrong;
}

// Min-sum with the smallest magnitude and the automatic correction (the
// default rule where checks are large; min_sum_auto_magnitude() takes
// three-smallest for the low-rate codes below).
decoder_config plain_min_sum()
{
    decoder_config c;
    c.min_sum_magnitude = min_sum_magnitude_rule::smallest;
    return c;
}

} // namespace

BOOST_AUTO_TEST_CASE(auto_correction_by_structure)
{
    // docs/min_sum_correction.md: offset min-sum where the parity bits
    // accumulate (0.25; 0.5 with checks of 5.5 edges or more on average from 20
    // iterations on, of 10.5 or more at every count), 15/16 and 0.5 elsewhere
    const auto smallest = min_sum_magnitude_rule::smallest;
    // each code's pair at each count: the scale, the offset for the count
    auto expect = [&](std::initializer_list<const char*> names,
                      std::initializer_list<unsigned> counts,
                      float scale,
                      auto offset_at) {
        for (const char* name : names) {
            const auto code = ldpc_code::load(name);
            for (unsigned iterations : counts) {
                const auto c = min_sum_auto_correction(code, smallest, iterations);
                BOOST_TEST_CONTEXT(name << ", " << iterations << " iterations")
                {
                    BOOST_CHECK_EQUAL(c.scale, scale);
                    BOOST_CHECK_EQUAL(c.offset, offset_at(iterations));
                }
            }
        }
    };
    expect({ "dvbs2:1/4", "dvbs2:1/3", "dvbs2:1/2:short" },
           { 10u, 20u, 50u },
           1.0f,
           [](unsigned) { return 0.25f; });
    expect({ "dvbs2:2/5", "dvbs2:1/2", "dvbs2:2/3", "dvbs2:2/3:short" },
           { 1u, 10u, 19u, 20u, 50u },
           1.0f,
           [](unsigned iterations) { return iterations >= 20 ? 0.5f : 0.25f; });
    expect({ "dvbs2:3/5", "dvbs2:3/4", "dvbs2:9/10" },
           { 1u, 10u, 50u },
           1.0f,
           [](unsigned) { return 0.5f; });
    // without iterations given: the decoders' default of 50
    BOOST_CHECK_EQUAL(min_sum_auto_correction(ldpc_code::load("dvbs2:1/2")).offset, 0.5f);
    expect({ "nr:1:16", "nr:1:16:4", "nr:2:16:8", "wifi:1944:1/2", "wifi:648:3/4" },
           { 10u, 50u },
           15.0f / 16.0f,
           [](unsigned) { return 0.5f; });
}

BOOST_AUTO_TEST_CASE(auto_correction_of_two_smallest)
{
    const auto two = min_sum_magnitude_rule::two_smallest;
    const auto nr = min_sum_auto_correction(ldpc_code::nr(1, 16), two);
    BOOST_CHECK_EQUAL(nr.scale, 1.0f);
    BOOST_CHECK_EQUAL(nr.offset, 0.25f);
    const auto s2 = min_sum_auto_correction(ldpc_code::dvbs2("1/4", "short"), two);
    BOOST_CHECK_EQUAL(s2.scale, 1.0f);
    BOOST_CHECK_EQUAL(s2.offset, 0.0f);
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.min_sum_magnitude = two;
    const auto dec =
        batch_decoder::make(std::make_shared<ldpc_code>(ldpc_code::nr(1, 16)), cfg, "cpu");
    BOOST_CHECK_EQUAL(dec->config().min_sum_scale, 1.0f);
    BOOST_CHECK_EQUAL(dec->config().min_sum_offset, 0.25f);
}

BOOST_AUTO_TEST_CASE(auto_correction_of_three_smallest)
{
    const auto three = min_sum_magnitude_rule::three_smallest;
    for (const auto& code : { ldpc_code::nr(2, 16), ldpc_code::wifi(648, "1/2") }) {
        const auto c = min_sum_auto_correction(code, three);
        BOOST_CHECK_EQUAL(c.scale, 1.0f);
        BOOST_CHECK_EQUAL(c.offset, 0.25f);
    }
    const auto s2 = min_sum_auto_correction(ldpc_code::dvbs2("1/2", "short"), three);
    BOOST_CHECK_EQUAL(s2.scale, 1.0f);
    BOOST_CHECK_EQUAL(s2.offset, 0.0f);
}

BOOST_AUTO_TEST_CASE(decoders_take_the_auto_correction_or_the_given_one)
{
    const auto code = std::make_shared<ldpc_code>(ldpc_code::dvbs2("1/4", "short"));
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    BOOST_CHECK_EQUAL(cfg.min_sum_scale, min_sum_scale_auto);
    BOOST_CHECK_EQUAL(cfg.min_sum_offset, min_sum_offset_auto);
    auto config_of = [&](const decoder_config& c) {
        return batch_decoder::make(code, c, "cpu")->config();
    };
    // the correction of the rule the decoder takes (min_sum_magnitude "auto":
    // three-smallest on this code of checks of 4 edges, scale 1 without offset)
    const auto rule = min_sum_auto_magnitude(*code);
    BOOST_CHECK(config_of(cfg).min_sum_magnitude == rule);
    const auto chosen = min_sum_auto_correction(*code, rule);
    BOOST_CHECK_EQUAL(chosen.offset, 0.0f);
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_scale, chosen.scale);
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_offset, chosen.offset);
    // a given scale: offset 0 unless given
    cfg.min_sum_scale = 0.75f;
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_scale, 0.75f);
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_offset, 0.0f);
    cfg.min_sum_offset = 0.5f;
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_offset, 0.5f);
    // a given offset with the chosen scale
    cfg.min_sum_scale = min_sum_scale_auto;
    cfg.min_sum_offset = 1.0f;
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_scale, chosen.scale);
    BOOST_CHECK_EQUAL(config_of(cfg).min_sum_offset, 1.0f);
    // the decoder's iterations choose: checks of 10 edges, 0.25 below 20
    // iterations, 0.5 from 20 on
    {
        const auto large = std::make_shared<ldpc_code>(ldpc_code::dvbs2("2/3", "short"));
        decoder_config c;
        c.algorithm = decoder_algorithm::min_sum;
        c.messages = message_precision::int8;
        for (unsigned iterations : { 10u, 20u }) {
            c.max_iterations = iterations;
            const auto got = batch_decoder::make(large, c, "cpu")->config();
            BOOST_CHECK_EQUAL(got.min_sum_scale, 1.0f);
            BOOST_CHECK_EQUAL(got.min_sum_offset, iterations >= 20 ? 0.5f : 0.25f);
        }
    }
    BOOST_CHECK_EQUAL(parse_min_sum_scale("auto"), min_sum_scale_auto);
    BOOST_CHECK_EQUAL(parse_min_sum_offset("auto"), min_sum_offset_auto);
    BOOST_CHECK_EQUAL(parse_min_sum_scale("0.625"), 0.625f);
    for (const char* bad : { "", "0.5x", "automatic" }) {
        BOOST_CHECK_EXCEPTION(parse_min_sum_scale(bad),
                              std::invalid_argument,
                              [](const std::invalid_argument& e) {
                                  return std::string(e.what()).find("min_sum_scale=") ==
                                         0;
                              });
        BOOST_CHECK_EXCEPTION(parse_min_sum_offset(bad),
                              std::invalid_argument,
                              [](const std::invalid_argument& e) {
                                  return std::string(e.what()).find(
                                             "min_sum_offset=") == 0;
                              });
    }
    cfg.min_sum_offset = -0.5f;
    BOOST_CHECK_THROW(config_of(cfg), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(auto_correction_decodes_low_rate_nr_where_13_16_fails)
{
    // 5G NR BG1 Z=16 at rate 1/3, 8-bit layered min-sum, 10 iterations, 2 dB:
    // measured (scripts/min_sum_scale_sweep.py, 400 frames) auto (15/16,
    // offset 0.5) reaches FER 1e-2 at 1.70 dB, 13/16 at 2.33 dB, float
    // sum-product at 1.47 dB. Over 1000 frames auto's expected errors are
    // below 10 and 13/16's above 30; the bounds sit 3 standard deviations
    // (Poisson) beyond them.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(1, 16));
    const size_t frames = 1000;
    const auto batch = qa::make_batch(*code, frames, 2.0, 38);
    decoder_config scaled = plain_min_sum();
    scaled.min_sum_scale = 13.0f / 16.0f;
    scaled.min_sum_offset = 0.0f;
    const size_t with_auto = layered_frame_errors(code, batch, plain_min_sum());
    const size_t with_13 = layered_frame_errors(code, batch, scaled);
    BOOST_TEST_MESSAGE("frame errors of 1000: auto " << with_auto << ", 13/16 "
                                                     << with_13);
    BOOST_CHECK_LE(with_auto, 20u);
    BOOST_CHECK_GE(with_13, 14u);
    BOOST_CHECK_LT(with_auto, with_13);
}

BOOST_AUTO_TEST_CASE(layered_binary_decoders_colour_a_code_without_structure)
{
    // DVB-S2 short rate 1/2 through an alist: no accumulator layers known, a
    // run a check in row order
    std::stringstream alist;
    ldpc_code::dvbs2("1/2", "short").write(alist);
    const auto code =
        std::make_shared<ldpc_code>(ldpc_code::read(alist, "dvbs2-short-1-2.alist"));
    BOOST_REQUIRE_EQUAL(code->layered_runs().size() - 1, code->checks());
    decoder_config cfg;
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    cfg.schedule = decoder_schedule::layered;
    cfg.threads = 2;
    const auto layered = batch_decoder::make(code, cfg, "cpu");
    const size_t runs = layered->code().layered_runs().size() - 1;
    BOOST_TEST_MESSAGE("coloured runs: " << runs);
    BOOST_CHECK_LE(runs, 20u);
    BOOST_CHECK_EQUAL(layered->code().n(), code->n());
    BOOST_CHECK_EQUAL(layered->code().num_edges(), code->num_edges());
    // the same code: its frames decode
    const auto batch = qa::make_batch(*code, 4, 3.0, 5);
    std::vector<uint8_t> bits(batch.info_bits.size());
    std::vector<frame_status> st(4);
    layered->decode(batch.llr.data(), 4, bits.data(), st.data());
    BOOST_CHECK(bits == batch.info_bits);
    // flooding, fft-bp and quasi-cyclic codes keep their order
    cfg.schedule = decoder_schedule::flooding;
    BOOST_CHECK(batch_decoder::make(code, cfg, "cpu")->code_ptr() == code);
    cfg.schedule = decoder_schedule::layered;
    cfg.algorithm = decoder_algorithm::fft_bp;
    cfg.messages = message_precision::fp32;
    BOOST_CHECK(batch_decoder::make(code, cfg, "cpu")->code_ptr() == code);
    const auto wifi = std::make_shared<ldpc_code>(ldpc_code::wifi(648, "1/2"));
    cfg.algorithm = decoder_algorithm::min_sum;
    BOOST_CHECK(batch_decoder::make(wifi, cfg, "cpu")->code_ptr() == wifi);
}

BOOST_AUTO_TEST_CASE(two_smallest_magnitudes_decode_low_rate_nr_closer_to_sum_product)
{
    // 5G NR BG1 Z=16 at rate 1/3, 8-bit layered, 10 iterations, 1.5 dB, 2000
    // frames: measured with two noise draws (numpy seed 7; these frames) the
    // automatic pair 64 and 41 frame errors, two-smallest with scale 1 and
    // offset 0.25 21 and 16, float sum-product 15. Bounds 3 standard
    // deviations (Poisson) from the means (52, 18.5): two-smallest at most 32,
    // the automatic pair at least 30.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(1, 16));
    const size_t frames = 2000;
    const auto batch = qa::make_batch(*code, frames, 1.5, 39);
    decoder_config two; // its automatic pair: scale 1, offset 0.25
    two.min_sum_magnitude = min_sum_magnitude_rule::two_smallest;
    const size_t with_two = layered_frame_errors(code, batch, two);
    const size_t with_auto = layered_frame_errors(code, batch, plain_min_sum());
    BOOST_TEST_MESSAGE("frame errors of 2000: two-smallest " << with_two << ", auto pair "
                                                             << with_auto);
    BOOST_CHECK_LE(with_two, 32u);
    BOOST_CHECK_GE(with_auto, 30u);
    BOOST_CHECK_LT(with_two, with_auto);
    // the GPU decoders do not run it: device "auto" takes the CPU
    two.algorithm = decoder_algorithm::min_sum;
    two.messages = message_precision::fp32;
    BOOST_CHECK_EQUAL(batch_decoder::make(code, two, "auto")->device_name(), "cpu");
}

BOOST_AUTO_TEST_CASE(three_smallest_magnitudes_decode_nr_rate_one_fifth_closer_still)
{
    // 5G NR BG2 Z=64 at rate 1/5, 8-bit layered, 10 iterations, 0.9 dB,
    // 1000 frames: measured with two noise draws (seeds 39, these frames, and
    // 40) three-smallest with its automatic pair (1, 0.25) 9 and 7 frame
    // errors (with (1, 0) 22 and 17), two-smallest with its pair (1, 0.25) 43
    // and 32, the automatic min-sum pair 71 and 46, float sum-product 4 and
    // 4. Bounds 3 standard deviations (Poisson) from the means (8, 58.5):
    // three-smallest at most 16, the automatic pair at least 35.
    const auto code = std::make_shared<ldpc_code>(ldpc_code::nr(2, 64));
    const auto batch = qa::make_batch(*code, 1000, 0.9, 39);
    decoder_config three;
    three.min_sum_magnitude = min_sum_magnitude_rule::three_smallest;
    decoder_config two;
    two.min_sum_magnitude = min_sum_magnitude_rule::two_smallest;
    const size_t with_three = layered_frame_errors(code, batch, three);
    const size_t with_two = layered_frame_errors(code, batch, two);
    const size_t with_auto = layered_frame_errors(code, batch, plain_min_sum());
    BOOST_TEST_MESSAGE("frame errors of 1000: three-smallest "
                       << with_three << ", two-smallest " << with_two << ", auto pair "
                       << with_auto);
    BOOST_CHECK_LE(with_three, 16u);
    BOOST_CHECK_GE(with_auto, 35u);
    BOOST_CHECK_LT(with_three, with_two);
    // the default decoder (min_sum_magnitude "auto") is three-smallest here:
    // most of the code's checks have 6 edges or fewer
    BOOST_CHECK_EQUAL(layered_frame_errors(code, batch, decoder_config{}), with_three);
}

BOOST_AUTO_TEST_CASE(auto_magnitude_by_check_size)
{
    // min_sum_auto_magnitude(): three-smallest in the 8-bit rule where more
    // than half the checks have 6 edges or fewer, else smallest; the float
    // rule keeps smallest
    const auto three = min_sum_magnitude_rule::three_smallest;
    const auto smallest = min_sum_magnitude_rule::smallest;
    struct case_ {
        const char* name;
        min_sum_magnitude_rule want;
    };
    const std::vector<case_> cases = {
        { "nr:1:8", three },            // 46 rows, median degree 5
        { "nr:2:8", three },            // 42 rows, 4
        { "nr:1:8:16", smallest },      // 8
        { "nr:2:8:8", smallest },       // half the checks of 6 or fewer
        { "wifi:648:1/2", smallest },   // 7 and 8
        { "dvbs2:1/4:short", three },   // 4
        { "dvbs2:1/2:short", three },   // 92 % of 6 or fewer
        { "dvbs2:2/3:short", smallest } // 10
    };
    for (const auto& c : cases) {
        BOOST_TEST_CONTEXT(c.name)
        {
            const auto code = ldpc_code::load(c.name);
            BOOST_CHECK(min_sum_auto_magnitude(code) == c.want);
            BOOST_CHECK(min_sum_auto_magnitude(code, message_precision::fp32) ==
                        smallest);
        }
    }
    // a check of exactly 6 edges counts as small: a (3,6)-regular code
    BOOST_CHECK(min_sum_auto_magnitude(construct_regular_code(120, 3, 6, 2, 5)) == three);

    // decoders take it and report it, with the correction of the rule taken
    const auto low = std::make_shared<ldpc_code>(ldpc_code::nr(2, 8));
    const auto high = std::make_shared<ldpc_code>(ldpc_code::wifi(648, "1/2"));
    decoder_config cfg;
    BOOST_CHECK(cfg.min_sum_magnitude == min_sum_magnitude_rule::automatic);
    cfg.algorithm = decoder_algorithm::min_sum;
    cfg.messages = message_precision::int8;
    const auto low_cfg = batch_decoder::make(low, cfg, "cpu")->config();
    BOOST_CHECK(low_cfg.min_sum_magnitude == three);
    BOOST_CHECK_EQUAL(low_cfg.min_sum_scale, 1.0f);
    BOOST_CHECK_EQUAL(low_cfg.min_sum_offset, 0.25f);
    const auto high_cfg = batch_decoder::make(high, cfg, "cpu")->config();
    BOOST_CHECK(high_cfg.min_sum_magnitude == smallest);
    BOOST_CHECK_EQUAL(high_cfg.min_sum_scale, 15.0f / 16.0f);
    BOOST_CHECK_EQUAL(high_cfg.min_sum_offset, 0.5f);
    // a given rule stays; float min-sum and sum-product report smallest
    cfg.min_sum_magnitude = smallest;
    BOOST_CHECK(batch_decoder::make(low, cfg, "cpu")->config().min_sum_magnitude ==
                smallest);
    cfg.min_sum_magnitude = min_sum_magnitude_rule::automatic;
    cfg.messages = message_precision::fp32;
    BOOST_CHECK(batch_decoder::make(low, cfg, "cpu")->config().min_sum_magnitude ==
                smallest);
    cfg.algorithm = decoder_algorithm::sum_product;
    BOOST_CHECK(batch_decoder::make(low, cfg, "cpu")->config().min_sum_magnitude ==
                smallest);

    BOOST_CHECK(parse_min_sum_magnitude("auto") == min_sum_magnitude_rule::automatic);
    BOOST_CHECK_EQUAL(to_string(min_sum_magnitude_rule::automatic), "auto");
    // the correction is that of a rule: "auto" names none
    BOOST_CHECK_EXCEPTION(
        min_sum_auto_correction(*low, min_sum_magnitude_rule::automatic),
        std::invalid_argument,
        [](const std::invalid_argument& e) {
            return std::string(e.what()).find("min_sum_magnitude='auto'") == 0;
        });
}
