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
/* BINDTOOL_HEADER_FILE(fwht.h)                                            */
/* BINDTOOL_HEADER_FILE_HASH(52c986169c4483ca05b0b957b40dd65f) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/fwht.h>

void bind_fwht(py::module& m)
{
    using gr::gpuldpc::fwht;
    py::class_<fwht, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<fwht>>(
        m,
        "fwht",
        "Fast Walsh-Hadamard transform of float vectors of n = 2^k (2 ... 32768) items. "
        "normalization: 'none', '1/n', 'orthonormal'; ordering: 'natural', 'sequency'.")
        .def(py::init(&fwht::make),
             py::arg("n"),
             py::arg("normalization") = "none",
             py::arg("ordering") = "natural",
             py::arg("device") = "auto")
        .def("device_name", &fwht::device_name);
}
