/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "common/cuda_hooks.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

#ifdef GPULDPC_HAVE_CUDA
#include "common/device_query.h"
#endif

namespace gr {
namespace gpuldpc {

cuda_error::~cuda_error() = default;

void raise_cuda_error(const std::string& message, int code)
{
    throw cuda_error(message, code);
}

bool cuda_compiled()
{
#ifdef GPULDPC_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

std::vector<cuda_device_info> cuda_devices()
{
    std::vector<cuda_device_info> out;
#ifdef GPULDPC_HAVE_CUDA
    const int count = kernels::cuda_device_count();
    for (int i = 0; i < count; ++i) {
        char name[256] = { 0 };
        int major = 0, minor = 0;
        if (kernels::cuda_device_properties(i, name, sizeof(name), &major, &minor))
            out.push_back(cuda_device_info{ i, name, major, minor });
    }
#endif
    return out;
}

device_spec parse_device(const std::string& device)
{
    if (device == "auto")
        return { device_spec::kind::automatic, 0 };
    if (device == "cpu")
        return { device_spec::kind::cpu, 0 };
    if (device == "cuda")
        return { device_spec::kind::cuda, 0 };
    if (device.rfind("cuda:", 0) == 0 && device.size() > 5 && device.size() < 9 &&
        device.find_first_not_of("0123456789", 5) == std::string::npos)
        return { device_spec::kind::cuda, std::stoi(device.substr(5)) };
    throw std::invalid_argument("device='" + device +
                                "' is unknown; allowed: auto, cpu, cuda, cuda:N");
}

int select_cuda_device(const std::string& device)
{
    const device_spec spec = parse_device(device);
    if (spec.type == device_spec::kind::cpu)
        return -1;
    const size_t count = cuda_devices().size();
    if (spec.type == device_spec::kind::automatic)
        return count > 0 ? 0 : -1;
    if (!cuda_compiled())
        throw std::runtime_error("device='" + device +
                                 "': this build has no CUDA support; allowed: auto, cpu");
    if (size_t(spec.index) >= count)
        throw std::runtime_error(
            "device='" + device + "': " +
            (count == 0
                 ? std::string("no usable CUDA device")
                 : "only " + std::to_string(count) +
                       " CUDA device(s), cuda:0 .. cuda:" + std::to_string(count - 1)) +
            "; allowed: auto, cpu" +
            (count ? ", cuda, cuda:N with N < " + std::to_string(count) : std::string()));
    return spec.index;
}


std::vector<int> cuda_device_list(const std::string& device)
{
    const std::string prefix = "cuda:";
    if (device.rfind(prefix, 0) != 0 ||
        (device != "cuda:all" && device.find(',') == std::string::npos))
        return {};
    const std::string list = device.substr(prefix.size());
    std::vector<int> out;
    if (list == "all") {
        for (const auto& d : cuda_devices())
            out.push_back(d.index);
        if (out.empty())
            throw std::runtime_error("device='" + device + "': no usable CUDA device");
        return out;
    }
    if (list.front() == ',' || list.back() == ',')
        throw std::invalid_argument("device='" + device +
                                    "' is malformed; allowed: cuda:N,M,... or cuda:all");
    std::vector<std::string> items;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
            item.size() > 3)
            throw std::invalid_argument("device='" + device + "': '" + item +
                                        "' is not a device number; allowed: cuda:N,M,... "
                                        "or cuda:all");
        items.push_back(item);
    }
    std::set<int> seen;
    for (const auto& item : items) {
        const int index = select_cuda_device(prefix + item);
        if (!seen.insert(index).second)
            throw std::invalid_argument("device='" + device + "' names cuda:" + item +
                                        " twice; allowed: distinct devices");
        out.push_back(index);
    }
    return out;
}

size_t cuda_shared_memory_limit(int device, const gpu_tuning& tuning)
{
#ifdef GPULDPC_HAVE_CUDA
    const size_t cap = tuning.shared_memory_limit ? tuning.shared_memory_limit : SIZE_MAX;
    const size_t device_limit = kernels::cuda_shared_memory_optin(device);
    // 48 KiB is what every device gives without opting in; the kernels'
    // smallest variants are sized for it
    return std::min(device_limit, std::max(cap, size_t(48) << 10));
#else
    (void)device;
    (void)tuning;
    throw std::runtime_error("this build of gr-gpuldpc has no CUDA support");
#endif
}

std::string build_info()
{
    std::ostringstream s;
    s << "gr-gpuldpc " << GPULDPC_VERSION_STRING;
#ifdef GPULDPC_HAVE_CUDA
    const int v = kernels::cuda_runtime_version();
    s << ", CUDA " << v / 1000 << "." << (v % 1000) / 10 << " (architectures "
      << GPULDPC_CUDA_ARCHITECTURES << ")";
#else
    s << ", CPU only (built without CUDA)";
#endif
    return s.str();
}

} // namespace gpuldpc
} // namespace gr
