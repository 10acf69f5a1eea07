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
 * Export macro of the engine. The engine headers include no GNU Radio header,
 * so that the engine can be used from plain C++ programs.
 */

#if defined(_WIN32)
#ifdef gnuradio_gpuldpc_EXPORTS
#define GPULDPC_ENGINE_API __declspec(dllexport)
#else
#define GPULDPC_ENGINE_API __declspec(dllimport)
#endif
#else
#define GPULDPC_ENGINE_API __attribute__((visibility("default")))
#endif

#endif /* INCLUDED_GPULDPC_ENGINE_CONFIG_H */
