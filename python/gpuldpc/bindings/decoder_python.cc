/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/***********************************************************************************/
/* This file is maintained by hand; the hash below is the MD5 of the header it    */
/* binds, so that the build notices when the header changes.                       */
/***********************************************************************************/

/* BINDTOOL_GEN_AUTOMATIC(0)                                                       */
/* BINDTOOL_USE_PYGCCXML(0)                                                        */
/* BINDTOOL_HEADER_FILE(engine/decoder.h)                                          */
/* BINDTOOL_HEADER_FILE_HASH(482d444848834b3e857a15a837d88c82) */
/***********************************************************************************/

#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <type_traits>

namespace py = pybind11;

#include "array_args.h"
#include <gnuradio/gpuldpc/engine/decoder.h>

namespace {

using namespace gr::gpuldpc;
using pyargs::array_arg;

template <class Array>
size_t frames_of(const Array& a, size_t width, const char* arg, const char* dtype)
{
    if (a.ndim() == 1 && size_t(a.shape(0)) == width)
        return 1;
    if (a.ndim() == 2 && size_t(a.shape(1)) == width)
        return size_t(a.shape(0));
    std::string shape = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
        shape += (i ? ", " : "") + std::to_string(a.shape(i));
    shape += a.ndim() == 1 ? ",)" : ")";
    throw py::value_error(std::string(arg) + " has shape " + shape +
                          "; expected (frames, " + std::to_string(width) + ") " + dtype);
}

enum class input_kind { llr, symbol_ll, llr_int8 };

// decode_device() or decode_device_int8() on device addresses given as
// integers, without the GIL while the device decodes
template <class T,
          void (batch_decoder::*decode)(const T*, size_t, uint8_t*, frame_status*)>
void decode_at(batch_decoder& d,
               uintptr_t llr,
               size_t n_frames,
               uintptr_t info_bits,
               uintptr_t status)
{
    py::gil_scoped_release release;
    (d.*decode)(reinterpret_cast<const T*>(llr),
                n_frames,
                reinterpret_cast<uint8_t*>(info_bits),
                reinterpret_cast<frame_status*>(status));
}

template <class Array>
py::tuple run(batch_decoder& d, Array in, input_kind kind, bool return_codeword)
{
    const ldpc_code& c = d.code();
    const bool symbols = kind == input_kind::symbol_ll;
    const size_t width = symbols ? size_t(c.n_transmitted()) * c.q() : d.llr_per_frame();
    const size_t frames = frames_of(in,
                                    width,
                                    symbols ? "symbol_ll" : "llr",
                                    kind == input_kind::llr_int8 ? "int8" : "float32");
    py::array_t<uint8_t> bits({ frames, d.info_bytes_per_frame() });
    py::array_t<frame_status> status(frames);
    py::array_t<uint8_t> cw;
    uint8_t* cw_ptr = nullptr;
    if (return_codeword) {
        cw = py::array_t<uint8_t>({ frames, size_t(c.n()) * c.bits_per_symbol() });
        cw_ptr = cw.mutable_data();
    }
    const auto* src = in.data();
    uint8_t* b = bits.mutable_data();
    frame_status* st = status.mutable_data();
    {
        py::gil_scoped_release release;
        if constexpr (std::is_same_v<
                          std::remove_cv_t<std::remove_pointer_t<decltype(src)>>,
                          int8_t>)
            d.decode_int8(src, frames, b, st, cw_ptr);
        else if (symbols)
            d.decode_symbol_llr(src, frames, b, st, cw_ptr);
        else
            d.decode(src, frames, b, st, cw_ptr);
    }
    if (return_codeword)
        return py::make_tuple(bits, status, cw);
    return py::make_tuple(bits, status);
}

} // namespace

void bind_decoder(py::module& m)
{
    m.def(
        "min_sum_auto_correction",
        [](std::shared_ptr<ldpc_code> code,
           const std::string& magnitude,
           long long max_iterations) {
            const auto c = min_sum_auto_correction(
                *code,
                parse_min_sum_magnitude(magnitude),
                pyargs::int_arg<unsigned>(
                    max_iterations, "max_iterations", "1 .. 100000", 1, 100000));
            return std::make_pair(c.scale, c.offset);
        },
        py::arg("code"),
        py::arg("min_sum_magnitude") = "smallest",
        py::arg("max_iterations") = 50,
        "(scale, offset): the min-sum correction that min_sum_scale='auto' and "
        "min_sum_offset='auto' take for the code decoded in up to max_iterations "
        "iterations (decoders pass theirs): scale 1 and offset 0.25 where the "
        "parity bits accumulate (DVB-S2), offset 0.5 there where checks have 5.5 "
        "edges or more on average and max_iterations >= 20, else 15/16 and 0.5 "
        "(with min_sum_magnitude='two-smallest' or 'three-smallest': 1 and 0, else 1 "
        "and 0.25); "
        "measured by simulation (docs/min_sum_correction.md).");

    m.def(
        "min_sum_auto_magnitude",
        [](std::shared_ptr<ldpc_code> code, const std::string& messages) {
            return to_string(
                min_sum_auto_magnitude(*code, parse_message_precision(messages)));
        },
        py::arg("code"),
        py::arg("messages") = "int8",
        "The check rule that min_sum_magnitude='auto' (the default) takes for the "
        "code decoded by min-sum with these messages: 'three-smallest' with "
        "messages='int8' where more than half the checks have 6 edges or fewer (5G NR "
        "BG1 at 29 to 46 rows, BG2 at 9 to 42, DVB-S2 rates 1/4 to 2/5), else 'smallest' "
        "(docs/min_sum_correction.md).");

    PYBIND11_NUMPY_DTYPE(
        frame_status, converged, iterations, syndrome_weight, invalid_inputs);
    py::class_<batch_decoder, std::shared_ptr<batch_decoder>>(
        m,
        "batch_decoder",
        "Batch LDPC decoder: the CPU reference and, with device='cuda' or 'auto', the\n"
        "GPU decoders (fft-bp for any q; for binary codes min-sum in 8 bits or fp32 and\n"
        "sum-product in fp32), behind one interface.\n\n"
        "batch_decoder(code, algorithm='auto', schedule='flooding', max_iterations=50,\n"
        "              early_termination=True, min_sum_scale='auto',\n"
        "              min_sum_offset='auto',"
        " flip_llr_sign=False, threads=0, device='auto',\n"
        "              messages='fp32', llr_scale=4.0, pack_info_bits=False,\n"
        "              min_sum_magnitude='auto')\n\n"
        "algorithm: auto (fft-bp for q > 2, sum-product for q = 2), fft-bp, log-fft-bp,\n"
        "sum-product, min-sum. min_sum_scale, min_sum_offset: 'auto' (the defaults:\n"
        "the correction chosen for the code, the rule taken and max_iterations,\n"
        "min_sum_auto_correction(code, rule, max_iterations)) or a\n"
        "factor in (0, 1] and an offset >= 0 (a given scale: offset 0 unless given).\n"
        "min_sum_magnitude: 'auto' (the default: min_sum_auto_magnitude(code,\n"
        "messages), three-smallest for 8-bit min-sum where most checks are small,\n"
        "else smallest; the min_sum_magnitude property says which), 'smallest'\n"
        "(min-sum), 'two-smallest' or 'three-smallest' (the two or three smallest\n"
        "input magnitudes combined exactly: closer to sum-product on low-rate codes;\n"
        "two-smallest on the CPU, three-smallest also on the GPU with messages='int8').\n"
        "LLRs follow GNU Radio: log(P(1)/P(0)), positive means 1\n"
        "(flip_llr_sign=True for the opposite). NaN and +-Inf inputs become 0 "
        "(erasures)\n"
        "and are counted per frame in the status field invalid_inputs. messages: fp32 "
        "or\n"
        "fp16 (fft-bp): check-to-variable messages stored in half precision, half the\n"
        "memory and traffic; the CPU rounds them the same way; int8 (min-sum): 8-bit\n"
        "fixed-point min-sum, llr_scale steps per unit of LLR. decode_int8() takes\n"
        "8-bit LLRs, value v meaning v / llr_scale. pack_info_bits: the decoded bits\n"
        "come packed, 8 a byte MSB first (info_bytes_per_frame bytes a frame).\n\n"
        "device: 'auto' (the default: a GPU decoder when a CUDA device is usable and\n"
        "runs the algorithm, else the CPU reference; the device property says which),\n"
        "'cpu', 'cuda', 'cuda:N', or several GPUs: 'cuda:N,M,...' or 'cuda:all' (a\n"
        "call's frames shared among them, begun batches in turn).\n\n"
        "Array arguments are checked, not cast: float32 inputs take any real integer\n"
        "or floating dtype (rounded to float32), decode_int8 takes int8 only (other\n"
        "values would wrap), complex inputs any numeric dtype but bool; another dtype\n"
        "raises TypeError naming the argument. Lists go through numpy.asarray.")
        .def(py::init([](std::shared_ptr<ldpc_code> code,
                         const std::string& algorithm,
                         const std::string& schedule,
                         long long max_iterations,
                         bool early_termination,
                         const py::object& min_sum_scale,
                         const py::object& min_sum_offset,
                         bool flip_llr_sign,
                         long long threads,
                         const std::string& device,
                         const std::string& messages,
                         float llr_scale,
                         bool pack_info_bits,
                         const std::string& min_sum_magnitude) {
                 decoder_config cfg;
                 cfg.algorithm = parse_decoder_algorithm(algorithm);
                 cfg.schedule = parse_decoder_schedule(schedule);
                 cfg.max_iterations = pyargs::int_arg<unsigned>(
                     max_iterations, "max_iterations", "1..100000", 1, 100000);
                 cfg.early_termination = early_termination;
                 cfg.min_sum_scale = pyargs::min_sum_scale_arg(min_sum_scale);
                 cfg.min_sum_offset = gr::gpuldpc::pyargs::min_sum_offset_arg(min_sum_offset);
                 cfg.flip_llr_sign = flip_llr_sign;
                 cfg.threads = pyargs::int_arg<unsigned>(
                     threads, "threads", "0 (all cores) .. 1024", 0, 1024);
                 cfg.messages = parse_message_precision(messages);
                 cfg.llr_scale = llr_scale;
                 cfg.pack_info_bits = pack_info_bits;
                 cfg.min_sum_magnitude = parse_min_sum_magnitude(min_sum_magnitude);
                 // the Python edge: GPULDPC_* tuning variables apply here
                 cfg.gpu = gpu_tuning::from_environment();
                 return batch_decoder::make(code, cfg, device);
             }),
             py::arg("code"),
             py::arg("algorithm") = "auto",
             py::arg("schedule") = "flooding",
             py::arg("max_iterations") = 50,
             py::arg("early_termination") = true,
             py::arg("min_sum_scale") = "auto",
             py::arg("min_sum_offset") = "auto",
             py::arg("flip_llr_sign") = false,
             py::arg("threads") = 0,
             py::arg("device") = "auto",
             py::arg("messages") = "fp32",
             py::arg("llr_scale") = 4.0f,
             py::arg("pack_info_bits") = false,
             py::arg("min_sum_magnitude") = "auto")
        .def(
            "decode",
            [](batch_decoder& d, py::object llr, bool return_codeword) {
                return run(d,
                           array_arg<float>(llr, "decode", "llr"),
                           input_kind::llr,
                           return_codeword);
            },
            py::arg("llr"),
            py::arg("return_codeword") = false,
            "llr: float32 (frames, n * bits_per_symbol); other real integer or "
            "floating dtypes are rounded to float32, complex or bool raise TypeError. "
            "Returns (bits, status) or "
            "(bits, status, codeword_bits): bits uint8 (frames, k * bits_per_symbol), "
            "status a structured array (converged, iterations, syndrome_weight, "
            "invalid_inputs). With pack_info_bits, bits is (frames, "
            "info_bytes_per_frame), packed.")
        .def(
            "decode_symbol_llr",
            [](batch_decoder& d, py::object ll, bool return_codeword) {
                return run(d,
                           array_arg<float>(ll, "decode_symbol_llr", "symbol_ll"),
                           input_kind::symbol_ll,
                           return_codeword);
            },
            py::arg("symbol_ll"),
            py::arg("return_codeword") = false,
            "symbol_ll: float32 (frames, n_transmitted * q) log-likelihoods "
            "log P(symbol = x) (dtypes as decode()'s llr).")
        .def(
            "decode_symbols",
            [](batch_decoder& d,
               py::object symbols_arg,
               const std::string& constellation_name,
               py::object noise_var_arg,
               bool return_codeword) {
                const auto symbols = array_arg<std::complex<float>>(
                    symbols_arg, "decode_symbols", "symbols");
                const auto noise_var =
                    array_arg<float>(noise_var_arg, "decode_symbols", "noise_var");
                const ldpc_code& c = d.code();
                const auto points = constellation::make(constellation_name);
                const size_t frames =
                    frames_of(symbols, c.n_transmitted(), "symbols", "complex64");
                std::vector<float> nv(frames);
                if (noise_var.size() == 1)
                    std::fill(nv.begin(), nv.end(), noise_var.data()[0]);
                else if (size_t(noise_var.size()) == frames)
                    std::copy_n(noise_var.data(), frames, nv.begin());
                else
                    throw py::value_error("noise_var has " +
                                          std::to_string(noise_var.size()) +
                                          " values; expected 1 or one a frame (" +
                                          std::to_string(frames) + ")");
                py::array_t<uint8_t> bits({ frames, d.info_bytes_per_frame() });
                py::array_t<frame_status> status(frames);
                py::array_t<uint8_t> cw;
                uint8_t* cw_ptr = nullptr;
                if (return_codeword) {
                    cw = py::array_t<uint8_t>(
                        { frames, size_t(c.n()) * c.bits_per_symbol() });
                    cw_ptr = cw.mutable_data();
                }
                const auto* y = symbols.data();
                uint8_t* b = bits.mutable_data();
                frame_status* st = status.mutable_data();
                {
                    py::gil_scoped_release release;
                    d.decode_symbols(y, frames, points, nv.data(), b, st, cw_ptr);
                }
                if (return_codeword)
                    return py::make_tuple(bits, status, cw);
                return py::make_tuple(bits, status);
            },
            py::arg("symbols"),
            py::arg("constellation"),
            py::arg("noise_var"),
            py::arg("return_codeword") = false,
            "symbols: complex64 (frames, n_transmitted) received points of the "
            "constellation matched to the code (code symbol x sent as "
            "constellation.points()[x]; GF(64) on 'gpuldpc-64qam', binary on "
            "'gpuldpc-bpsk'); "
            "complex128 and real integer or floating dtypes are converted, bool "
            "raises TypeError. noise_var: N0 = E|n|^2, one value or one a frame "
            "(float32, dtypes as decode()'s llr). The decoder takes the "
            "symbol log-likelihoods -|y - x|^2 / N0, no bit taken as independent of "
            "the others of its symbol. Returns what decode() returns.")
        .def(
            "decode_int8",
            [](batch_decoder& d, py::object llr, bool return_codeword) {
                return run(d,
                           array_arg<int8_t>(llr, "decode_int8", "llr"),
                           input_kind::llr_int8,
                           return_codeword);
            },
            py::arg("llr"),
            py::arg("return_codeword") = false,
            "llr: int8 (frames, llr_per_frame), value v the LLR v / llr_scale; "
            "-128 counts as -127. Only int8 is taken (any other dtype raises "
            "TypeError: wider values would wrap); a list of Python ints is taken when "
            "every value lies in -128..127. Returns what decode() returns.")
        .def("decode_device",
             &decode_at<float, &batch_decoder::decode_device>,
             py::arg("llr"),
             py::arg("n_frames"),
             py::arg("info_bits"),
             py::arg("status"),
             "Decodes frames already in GPU memory (device='cuda'); the arguments are "
             "device addresses, e.g. CuPy's a.data.ptr or PyTorch's t.data_ptr(): "
             "llr n_frames * llr_per_frame float32, info_bits n_frames * "
             "info_bytes_per_frame uint8, status n_frames records of 16 bytes "
             "(uint8 converged at offset 0; uint32 iterations, syndrome_weight, "
             "invalid_inputs at 4, 8, 12). Returns when the results are in place; "
             "a CPU decoder raises RuntimeError.")
        .def("decode_device_int8",
             &decode_at<int8_t, &batch_decoder::decode_device_int8>,
             py::arg("llr"),
             py::arg("n_frames"),
             py::arg("info_bits"),
             py::arg("status"),
             "decode_device() for 8-bit LLRs in GPU memory (int8, value v the LLR v / "
             "llr_scale, as decode_int8()): llr n_frames * llr_per_frame int8. Raises "
             "RuntimeError where decodes_device_int8 is false (CPU decoders, GPU "
             "decoders of float input).")
        .def_property_readonly("decodes_device_int8",
                               &batch_decoder::decodes_device_int8,
                               "Whether decode_device_int8() decodes (a GPU decoder "
                               "with 8-bit input).")
        .def_property_readonly(
            "algorithm", [](const batch_decoder& d) { return to_string(d.algorithm()); })
        .def_property_readonly(
            "schedule",
            [](const batch_decoder& d) { return to_string(d.config().schedule); })
        .def_property_readonly(
            "messages",
            [](const batch_decoder& d) { return to_string(d.config().messages); })
        .def_property_readonly(
            "llr_scale", [](const batch_decoder& d) { return d.config().llr_scale; })
        .def_property_readonly(
            "min_sum_scale",
            [](const batch_decoder& d) { return d.config().min_sum_scale; },
            "The min-sum scale the decoder applies ('auto' resolved).")
        .def_property_readonly(
            "min_sum_offset",
            [](const batch_decoder& d) { return d.config().min_sum_offset; },
            "The min-sum offset the decoder applies ('auto' resolved).")
        .def_property_readonly("min_sum_magnitude",
                               [](const batch_decoder& d) {
                                   return to_string(d.config().min_sum_magnitude);
                               })
        .def_property_readonly(
            "max_iterations",
            [](const batch_decoder& d) { return d.config().max_iterations; })
        .def_property_readonly("device", &batch_decoder::device_name)
        .def_property_readonly("threads", &batch_decoder::threads)
        .def_property_readonly(
            "kernel_variant",
            &batch_decoder::kernel_variant,
            "The GPU kernel variant chosen for this code and device, in words ('' on "
            "the CPU).")
        .def("preferred_batch",
             &batch_decoder::preferred_batch,
             "Frames a call should hold for the decoder to be busy throughout (0: no "
             "preference).")
        .def("efficient_chunk",
             &batch_decoder::efficient_chunk,
             "Frames of a call that decodes at about the speed of larger ones (0: "
             "none smaller than preferred_batch()).")
        .def("whole_round_batch",
             &batch_decoder::whole_round_batch,
             py::arg("frames"),
             "frames, or the frames of whole rounds of a CPU decoder's SIMD groups "
             "where a last round would be mostly idle (frames itself on a GPU).")
        .def("workspaces",
             &batch_decoder::workspaces,
             "Per-thread workspaces allocated so far (one per worker a call has used).")
        .def_property_readonly("code",
                               [](const batch_decoder& d) {
                                   return std::const_pointer_cast<ldpc_code>(
                                       d.code_ptr());
                               })
        .def_property_readonly("llr_per_frame", &batch_decoder::llr_per_frame)
        .def_property_readonly("info_bits_per_frame", &batch_decoder::info_bits_per_frame)
        .def_property_readonly("info_bytes_per_frame",
                               &batch_decoder::info_bytes_per_frame)
        .def_property_readonly("pack_info_bits", [](const batch_decoder& d) {
            return d.config().pack_info_bits;
        });
}
