/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Encodes one frame with a generated code through the installed library.

#include <gnuradio/gpuldpc/engine/ldpc_code.h>
#include <iostream>
#include <vector>

int main()
{
    const auto code = gr::gpuldpc::construct_regular_code(64, 2, 4, 16, 1);
    std::vector<uint8_t> info(code.k(), 5), cw(code.n());
    code.encode(info.data(), cw.data(), 1);
    const unsigned w = code.syndrome_weight(cw.data());
    std::cout << "n=" << code.n() << " k=" << code.k() << " syndrome weight " << w << "\n";
    return w == 0 ? 0 : 1;
}
