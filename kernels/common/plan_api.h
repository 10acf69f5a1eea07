/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_KERNELS_PLAN_API_H
#define INCLUDED_GPULDPC_KERNELS_PLAN_API_H

// The host planning of the kernel families (binary/plan.h, gfq/plan.h) is
// compiled into the engine library, which hides its symbols by default; the
// tests of the choice rules call these functions from outside it.
#define GPULDPC_PLAN_API __attribute__((visibility("default")))

#endif /* INCLUDED_GPULDPC_KERNELS_PLAN_API_H */
