/*
 * Copyright 2020 Free Software Foundation, Inc.
 *
 * This file is part of GNU Radio
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 */

#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace py = pybind11;

// Headers for binding functions
/**************************************/
// The following comment block is used for
// gr_modtool to insert function prototypes
// Please do not delete
/**************************************/
// BINDING_FUNCTION_PROTOTYPES(
void bind_gf_field(py::module& m);
void bind_ldpc_code(py::module& m);
void bind_nr_rate_matching(py::module& m);
void bind_device(py::module& m);
void bind_fault_injection(py::module& m);
void bind_decoder(py::module& m);
void bind_simulation(py::module& m);
void bind_ldpc_decoder(py::module& m);
void bind_ldpc_encoder(py::module& m);
void bind_ldpc_fec_defs(py::module& m);
void bind_fwht(py::module& m);
void bind_spectral_transform(py::module& m);
void bind_fft(py::module& m);
void bind_transforms(py::module& m);
void bind_gpu_transforms(py::module& m);
void bind_soft_demapper(py::module& m);
void bind_soft_demapper_cf(py::module& m);
void bind_packet_noise_estimator_cc(py::module& m);
// ) END BINDING_FUNCTION_PROTOTYPES


// We need this hack because import_array() returns NULL
// for newer Python versions.
// This function is also necessary because it ensures access to the C API
// and removes a warning.
void* init_numpy()
{
    import_array();
    return NULL;
}

PYBIND11_MODULE(gpuldpc_python, m)
{
    // Initialize the numpy C API
    // (otherwise we will see segmentation faults)
    init_numpy();

    // Allow access to base block methods
    py::module::import("gnuradio.gr");

    /**************************************/
    // The following comment block is used for
    // gr_modtool to insert binding function calls
    // Please do not delete
    /**************************************/
    // BINDING_FUNCTION_CALLS(
    bind_gf_field(m);
    bind_ldpc_code(m);
    bind_nr_rate_matching(m);
    bind_device(m);
    bind_fault_injection(m);
    bind_decoder(m);
    bind_simulation(m);
    bind_ldpc_decoder(m);
    bind_ldpc_encoder(m);
    bind_ldpc_fec_defs(m);
    bind_fwht(m);
    bind_spectral_transform(m);
    bind_fft(m);
    bind_transforms(m);
    bind_gpu_transforms(m);
    bind_soft_demapper(m);
    bind_soft_demapper_cf(m);
    bind_packet_noise_estimator_cc(m);
    // ) END BINDING_FUNCTION_CALLS
}
