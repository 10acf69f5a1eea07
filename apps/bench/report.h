/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_BENCH_REPORT_H
#define INCLUDED_GPULDPC_BENCH_REPORT_H

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpuldpc {
namespace bench {

/*!
 * \brief One figure of the bench against its baseline, measured in the same
 * run on the same data.
 *
 * Conventions the team's comparisons rely on:
 * - value is in unit; baseline_value (baseline) is the baseline's figure,
 *   named with its unit by baseline_name.
 * - ratio is the figure over the baseline as throughputs, higher is better:
 *   GB/s over GB/s, bits/s over bits/s, or the inverse of the times.
 * - variant says what ran (kernel variant, frame errors, conditions), for
 *   people; scripts compare name, value and ratio.
 */
struct record {
    std::string section, name, unit, baseline_name, variant;
    double n = 0, batch = 0, value = 0, gbps = 0, baseline = 0, ratio = 0;
    size_t shared_bytes = 0; //!< the engine's kernel variant's, per block
};

//! The device the figures are of, written at the head of the JSON document.
struct device_description {
    std::string name;
    int compute_major = 0, compute_minor = 0;
    //! shared memory per block the engines may use (bytes)
    size_t shared_memory_limit = 0;
    //! the device's opt-in limit (bytes)
    size_t shared_memory_device_limit = 0;
    //! the cap that lowers it (gpu_tuning::shared_memory_limit), "" for none
    std::string shared_memory_cap;
};

/*!
 * \brief The records of one run and the JSON document of them.
 *
 * The JSON keys are read by scripts and comparisons across commits: they
 * MUST stay as they are.
 */
class report
{
public:
    explicit report(device_description device);

    const device_description& device() const { return d_device; }
    void add(const record& r) { d_records.push_back(r); }

    //! Writes every record so far, with the device, the commit and the build.
    void write_json(const std::string& path, const std::string& commit) const;

private:
    device_description d_device;
    std::vector<record> d_records;
};

//! printf into a string.
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

//! One column of a printed table.
struct column {
    std::string header;
    int width = 0;     //!< header and cells padded to it; 0: as they are
    bool left = false; //!< padded on the right (text), else on the left (figures)
};

/*!
 * \brief A table on stdout: the columns' widths and alignment in one place,
 * for the header and every row.
 *
 * Cells are separated by one space; a cell wider than its column pushes the
 * rest of the line to the right (printf's behaviour with a field width).
 */
class table
{
public:
    explicit table(std::vector<column> columns) : d_columns(std::move(columns)) {}

    void print_header() const;
    /*!
     * Prints \p cells in the first columns (fewer cells than columns end the
     * row early), then \p tail as it is, then a line break.
     */
    void print_row(const std::vector<std::string>& cells,
                   const std::string& tail = std::string()) const;

private:
    std::string line(const std::vector<std::string>& cells) const;

    std::vector<column> d_columns;
};

} // namespace bench
} // namespace gpuldpc
} // namespace gr

#endif /* INCLUDED_GPULDPC_BENCH_REPORT_H */
