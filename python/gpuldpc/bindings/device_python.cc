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
/* BINDTOOL_HEADER_FILE(engine/device.h)                                           */
/* BINDTOOL_HEADER_FILE_HASH(58e1d70d5506bf5145976a385bea2b22) */
/***********************************************************************************/

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/engine/device.h>

void bind_device(py::module& m)
{
    using namespace gr::gpuldpc;
    py::class_<cuda_device_info>(m, "cuda_device_info")
        .def_readonly("index", &cuda_device_info::index)
        .def_readonly("name", &cuda_device_info::name)
        .def_readonly("compute_major", &cuda_device_info::compute_major)
        .def_readonly("compute_minor", &cuda_device_info::compute_minor)
        .def("__repr__", [](const cuda_device_info& d) {
            return "cuda:" + std::to_string(d.index) + " " + d.name + " (sm_" +
                   std::to_string(d.compute_major) + std::to_string(d.compute_minor) +
                   ")";
        });
    m.def("cuda_compiled", &cuda_compiled, "True when built with the CUDA backend.");
    m.def("cuda_devices", &cuda_devices, "Usable CUDA devices (empty without a GPU).");
    m.def("build_info", &build_info, "Version and backend of this build.");
}
