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
/* BINDTOOL_HEADER_FILE(spectral_transform.h) */
/* BINDTOOL_HEADER_FILE_HASH(07f61182a1defe8de3a2e622a06f55bb) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/spectral_transform.h>

namespace {
template <class T>
void bind_one(py::module& m, const char* name)
{
    using block = gr::gpuldpc::spectral_transform<T>;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        name,
        "Spectral transform of vectors of n = 2^k items: kind 'walsh', 'reed-muller', "
        "'arithmetic' or 'haar', forward or inverse, algorithm 'cooley-tukey' or "
        "'constant-geometry' (identical results).")
        .def(py::init(&block::make),
             py::arg("n"),
             py::arg("kind") = "walsh",
             py::arg("forward") = true,
             py::arg("algorithm") = "cooley-tukey",
             py::arg("device") = "auto")
        .def("device_name", &block::device_name);
}
} // namespace

void bind_spectral_transform(py::module& m)
{
    bind_one<int32_t>(m, "spectral_transform_ii");
    bind_one<float>(m, "spectral_transform_ff");
}
