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
/* BINDTOOL_HEADER_FILE(engine/fault_injection.h)                                  */
/* BINDTOOL_HEADER_FILE_HASH(4ae0275dda35f94d7fc8fa623781096e) */
/***********************************************************************************/

#include <pybind11/pybind11.h>

namespace py = pybind11;

#include <gnuradio/gpuldpc/engine/fault_injection.h>

void bind_fault_injection(py::module& m)
{
    using namespace gr::gpuldpc;
    m.def("inject_cuda_fault",
          &inject_cuda_fault,
          py::arg("kind"),
          py::arg("nth"),
          "Arms an injected GPU fault: the nth (>= 1) checked CUDA call of kind "
          "'allocation', 'launch', 'copy' or 'sync' from now on fails once, as a real "
          "failure would (tests of the CPU fall-back; the environment variable "
          "GPULDPC_INJECT_CUDA_FAULT=KIND:N does the same when the library loads).");
    m.def("clear_cuda_fault", &clear_cuda_fault, "Disarms a fault that has not fired.");
    m.def("injected_cuda_faults",
          &injected_cuda_faults,
          "How many injected faults have fired in this process.");
}
