/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_GPULDPC_ENGINE_CONFIG_H
#define INCLUDED_GPULDPC_ENGINE_CONFIG_H

/*!
 * \file
 * Export macro of the engine library (gpuldpc-engine). The engine headers
 * include no GNU Radio header and the library links no GNU Radio library, so
 * that the engine can be used from plain C++ programs.
 */

#if defined(_WIN32)
#ifdef gpuldpc_engine_EXPORTS
#define GPULDPC_ENGINE_API __declspec(dllexport)
#else
#define GPULDPC_ENGINE_API __declspec(dllimport)
#endif
#else
#define GPULDPC_ENGINE_API __attribute__((visibility("default")))
#endif

#endif /* INCLUDED_GPULDPC_ENGINE_CONFIG_H */
