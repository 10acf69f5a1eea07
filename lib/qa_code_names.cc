/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpuldpc authors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Codes by name (code_names.h): the shipped codes from any working directory,
// the GPULDPC_CODES_DIR override, and errors that list what names a code.

#include <gnuradio/gpuldpc/engine/code_names.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

using namespace gr::gpuldpc;

namespace {

std::string source_dir()
{
    const char* s = std::getenv("GPULDPC_SOURCE_DIR");
    return s ? s : ".";
}

// Runs the test in an empty temporary directory with GPULDPC_CODES_DIR unset,
// so that no name resolves by accident through the working directory.
struct elsewhere {
    std::string old_cwd;
    std::string dir;
    std::string old_env;
    bool had_env = false;

    elsewhere()
    {
        old_cwd = std::filesystem::current_path().string();
        std::string tmpl = std::filesystem::temp_directory_path().string() +
                           "/gpuldpc-code-names-XXXXXX";
        BOOST_REQUIRE(mkdtemp(tmpl.data()) != nullptr);
        dir = tmpl;
        std::filesystem::current_path(dir);
        if (const char* e = std::getenv("GPULDPC_CODES_DIR")) {
            had_env = true;
            old_env = e;
        }
        unsetenv("GPULDPC_CODES_DIR");
    }
    ~elsewhere()
    {
        std::filesystem::current_path(old_cwd);
        std::filesystem::remove_all(dir);
        if (had_env)
            setenv("GPULDPC_CODES_DIR", old_env.c_str(), 1);
        else
            unsetenv("GPULDPC_CODES_DIR");
    }
};

std::set<std::string> alist_stems(const std::string& dir)
{
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string file = e.path().filename().string();
        if (file.size() > 6 && file.substr(file.size() - 6) == ".alist")
            out.insert(file.substr(0, file.size() - 6));
    }
    return out;
}

bool same_code(const ldpc_code& a, const ldpc_code& b)
{
    if (a.n() != b.n() || a.k() != b.k() || a.q() != b.q())
        return false;
    const auto x = a.entries(), y = b.entries();
    return x.size() == y.size() &&
           std::equal(x.begin(), x.end(), y.begin(), [](const auto& u, const auto& v) {
               return u.row == v.row && u.col == v.col && u.value == v.value;
           });
}

template <typename E>
std::string message_of(const std::string& spec)
{
    try {
        load_named_code(spec);
    } catch (const E& e) {
        return e.what();
    }
    BOOST_ERROR("'" << spec << "' gave no error of the expected type");
    return "";
}

} // namespace

BOOST_AUTO_TEST_CASE(every_shipped_code_loads_by_name_from_elsewhere)
{
    const std::string codes = source_dir() + "/codes";
    const auto files = alist_stems(codes);
    BOOST_REQUIRE_GE(files.size(), 7u);
    elsewhere here;
    const auto names = shipped_codes();
    BOOST_CHECK(std::set<std::string>(names.begin(), names.end()) == files);
    BOOST_CHECK(std::is_sorted(names.begin(), names.end()));
    BOOST_CHECK(!shipped_codes_dir().empty());
    for (const auto& name : files) {
        const auto by_path = ldpc_code::load(codes + "/" + name + ".alist");
        BOOST_CHECK_MESSAGE(same_code(load_named_code(name), by_path), name);
        BOOST_CHECK_MESSAGE(same_code(load_named_code(name + ".alist"), by_path), name);
    }
    // options reach the file: this binary file is no qc file
    code_io_options qc;
    qc.format = code_format::qc;
    BOOST_CHECK_THROW(load_named_code("regular_3_6_n96_gf2", qc), code_file_error);
}

BOOST_AUTO_TEST_CASE(builtin_names)
{
    elsewhere here;
    BOOST_CHECK_EQUAL(load_named_code("dvbs2:1/2:short").n(), 16200u);
    BOOST_CHECK_EQUAL(load_named_code("nr:2:52").n(), 52u * 52);
    BOOST_CHECK_EQUAL(load_named_code("wifi:648:3/4").k(), 486u);
    BOOST_CHECK_EQUAL(load_named_code("wimax:576:5/6").k(), 480u);
    BOOST_CHECK_EQUAL(load_named_code("ar4ja:1024:2/3").n_transmitted(), 1536u);
}

BOOST_AUTO_TEST_CASE(errors_list_the_families_and_the_shipped_codes)
{
    elsewhere here;
    // a family without (all) its parameters, an unknown name, no name
    for (const char* spec : { "dvbs2",
                              "dvbs2:",
                              "dvbs2:1/2:short:x",
                              "nr:1",
                              "nr",
                              "nr:x:52",
                              "wifi:1944",
                              "wifi:big:1/2",
                              "wimax",
                              "wimax:2304",
                              "wimax:1/2:2304",
                              "ar4ja",
                              "ar4ja:1024",
                              "regular_3_6_n97_gf2",
                              "regular_3_6_n96_gf2.qc",
                              "" }) {
        const std::string what = message_of<std::invalid_argument>(spec);
        for (const char* part : { "dvbs2:RATE",
                                  "9/10",
                                  "nr:BG:Z",
                                  "wifi:N:RATE",
                                  "1944",
                                  "wimax:N:RATE",
                                  "3/4B",
                                  "ar4ja:K:RATE",
                                  "16384",
                                  "regular_3_6_n96_gf2",
                                  "regular_2_4_n64_gf256" })
            BOOST_CHECK_MESSAGE(what.find(part) != std::string::npos,
                                "'" << spec << "': " << what << " lacks " << part);
        BOOST_CHECK_MESSAGE(what.find("code '" + std::string(spec) + "'") == 0, what);
    }
    // parameters a family does not have: its own allowed values, with the name
    for (const char* spec : { "dvbs2:7/8",
                              "dvbs2:9/10:short",
                              "nr:3:52",
                              "wifi:1000:1/2",
                              "wimax:2304:7/8",
                              "ar4ja:2048:1/2",
                              "ar4ja:1024:1/3" }) {
        const std::string what = message_of<std::invalid_argument>(spec);
        BOOST_CHECK_MESSAGE(what.find("code '" + std::string(spec) + "': ") == 0 &&
                                what.find("allowed") != std::string::npos,
                            what);
    }
    // a path is a file's error, naming it; a shipped code's path says to use the name
    const std::string missing = message_of<std::runtime_error>("/nonexistent/x.alist");
    BOOST_CHECK_MESSAGE(missing.find("cannot open code file '/nonexistent/x.alist'") == 0,
                        missing);
    const std::string moved =
        message_of<std::runtime_error>("codes/regular_3_6_n1008_gf2.alist");
    BOOST_CHECK_MESSAGE(moved.find("'regular_3_6_n1008_gf2' loads by its name") !=
                            std::string::npos,
                        moved);
}

BOOST_AUTO_TEST_CASE(codes_dir_override)
{
    elsewhere here;
    const std::string dir = here.dir + "/mine";
    std::filesystem::create_directory(dir);
    setenv("GPULDPC_CODES_DIR", dir.c_str(), 1);
    // an override without codes is no silent fall-back to the others
    BOOST_CHECK_EQUAL(shipped_codes_dir(), dir);
    BOOST_CHECK(shipped_codes().empty());
    BOOST_CHECK(message_of<std::invalid_argument>("regular_3_6_n96_gf2")
                    .find("none found (GPULDPC_CODES_DIR='" + dir) != std::string::npos);

    const auto code = construct_regular_code(24, 2, 4, 2, 3);
    code.save(dir + "/small.alist");
    code.save(dir + "/small.qc.txt"); // not a code file by its name
    BOOST_CHECK(shipped_codes() == std::vector<std::string>{ "small" });
    BOOST_CHECK(same_code(load_named_code("small"), code));
    BOOST_CHECK(same_code(load_named_code("small.alist"), code));
    BOOST_CHECK_THROW(load_named_code("small.qc.txt"), std::invalid_argument);
}
