/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "report.h"
#include <gnuradio/gpuldpc/engine/device.h>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace gr {
namespace gpuldpc {
namespace bench {

namespace {

std::string json_escape(const std::string& s)
{
    std::string o;
    for (char c : s)
        o += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return o;
}

} // namespace

report::report(device_description device) : d_device(std::move(device)) {}

void report::write_json(const std::string& path, const std::string& commit) const
{
    const std::string& device = d_device.name;
    const std::string& cap = d_device.shared_memory_cap;
    std::ofstream f(path);
    f << "{\n  \"device\": \"" << json_escape(device) << "\",\n  \"commit\": \""
      << json_escape(commit) << "\",\n  \"build\": \"" << json_escape(build_info())
      << "\",\n  \"shared_memory_limit\": " << d_device.shared_memory_limit
      << ",\n  \"shared_memory_device_limit\": " << d_device.shared_memory_device_limit
      << ",\n  \"shared_memory_cap\": "
      << (cap.empty() ? std::string("null") : "\"" + json_escape(cap) + "\"")
      << ",\n  \"records\": [\n";
    for (size_t i = 0; i < d_records.size(); ++i) {
        const record& r = d_records[i];
        f << "    {\"device\": \"" << json_escape(device) << "\", \"section\": \""
          << r.section << "\", \"name\": \"" << json_escape(r.name)
          << "\", \"n\": " << r.n << ", \"batch\": " << r.batch
          << ", \"value\": " << r.value << ", \"unit\": \"" << r.unit
          << "\", \"gb_per_s\": " << r.gbps << ", \"baseline\": \""
          << json_escape(r.baseline_name) << "\", \"baseline_value\": " << r.baseline
          << ", \"ratio\": " << r.ratio << ", \"shared_memory_bytes\": " << r.shared_bytes
          << ", \"shared_memory_limit\": " << d_device.shared_memory_limit
          << ", \"variant\": \"" << json_escape(r.variant) << "\"}"
          << (i + 1 < d_records.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
}

std::string format(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int size = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    if (size < 0) {
        va_end(again);
        throw std::runtime_error(std::string("format: bad format ") + fmt);
    }
    std::string s(size_t(size) + 1, '\0');
    std::vsnprintf(&s[0], s.size(), fmt, again);
    va_end(again);
    s.resize(size_t(size));
    return s;
}

std::string table::line(const std::vector<std::string>& cells) const
{
    std::string out;
    for (size_t i = 0; i < cells.size() && i < d_columns.size(); ++i) {
        const column& c = d_columns[i];
        const size_t width = size_t(c.width);
        const std::string pad(cells[i].size() < width ? width - cells[i].size() : 0, ' ');
        if (i > 0)
            out += ' ';
        out += c.left ? cells[i] + pad : pad + cells[i];
    }
    return out;
}

void table::print_header() const
{
    std::vector<std::string> headers;
    for (const column& c : d_columns)
        headers.push_back(c.header);
    std::printf("%s\n", line(headers).c_str());
}

void table::print_row(const std::vector<std::string>& cells,
                      const std::string& tail) const
{
    std::printf("%s%s\n", line(cells).c_str(), tail.c_str());
}

} // namespace bench
} // namespace gpuldpc
} // namespace gr
