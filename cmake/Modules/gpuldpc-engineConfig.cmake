# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# find_package(gpuldpc-engine): the GNU Radio-free engine alone, target
# gnuradio::gpuldpc-engine. Needs no GNU Radio installation.

include(CMakeFindDependencyMacro)
find_dependency(Threads)
include("${CMAKE_CURRENT_LIST_DIR}/gpuldpc-engineTargets.cmake")
