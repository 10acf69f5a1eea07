# Copyright 2026 gr-gpuldpc authors.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# cmake -DINPUT=file -DOUTPUT=file.cc -DSYMBOL=name -P EmbedBinary.cmake
# Writes a C++ source defining `const unsigned char NAME[]` and `NAME_size`
# in namespace gr::gpuldpc::kernels.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR size "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}"
     "// Generated from ${INPUT}; do not edit.\n#include <cstddef>\n"
     "namespace gr { namespace gpuldpc { namespace kernels {\n"
     "extern const unsigned char ${SYMBOL}[] = { ${bytes} 0 };\n"
     "extern const size_t ${SYMBOL}_size = ${size};\n"
     "} } }\n")
