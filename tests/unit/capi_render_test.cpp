// dace_sdfg_render (docs/render.md): pictures drawn by libdace_render.so, which libdace.so
// loads on the first call. The reference for what must be drawn is the SDFG as the C API
// lists it (dace_region_list_blocks, dace_state_list_nodes, dace_node_get_kind,
// dace_conditional_list_branches, dace_node_get_nested_sdfg), not the renderer: every node
// must be drawn once under its documented id (b<block>n<node>, with a prefix per region,
// branch and nested SDFG) with the class of its kind, and no other node. The bytes must equal
// what the `dace render` command writes for the same file in another process; bad requests
// are refused naming the argument, with nothing written.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "capi_program_test_util.h"

namespace {

namespace fs = std::filesystem;

using Ids = std::vector<dace_id_t>;

// DACE_ERROR_UNSUPPORTED from dace_sdfg_render: a skip (with the reason) in a build configured
// without Graphviz, where no renderer exists; a failure in a build with Graphviz, whose
// renderer module must be there and load.
#ifdef LIBDACE_HAVE_GRAPHVIZ
#define NO_RENDERER(why) FAIL() << "this build has Graphviz, yet dace_sdfg_render is unsupported: " << (why)
#else
#define NO_RENDERER(why) GTEST_SKIP() << "no renderer in this build (configured without Graphviz): " << (why)
#endif

Ids list(dace_status_t (*fn)(dace_id_t*, size_t, size_t*, const dace_sdfg_t*, dace_id_t), const dace_sdfg_t* s,
         dace_id_t id) {
  size_t n = 0;
  EXPECT_DACE_OK(fn(nullptr, 0, &n, s, id));
  Ids ids(n);
  if (n) {
    EXPECT_DACE_OK(fn(ids.data(), n, &n, s, id));
  }
  return ids;
}

const char* class_of(dace_node_kind_t kind) {
  switch (kind) {
    case DACE_NODE_ACCESS: return "sdfg-access";
    case DACE_NODE_TASKLET: return "sdfg-tasklet";
    case DACE_NODE_MAP_ENTRY:
    case DACE_NODE_CONSUME_ENTRY: return "sdfg-scope-entry";
    case DACE_NODE_MAP_EXIT:
    case DACE_NODE_CONSUME_EXIT: return "sdfg-scope-exit";
    case DACE_NODE_NESTED_SDFG: return "sdfg-nested";
    case DACE_NODE_LIBRARY: return "sdfg-library";
    default: return "?";
  }
}

// id -> class of every node the C API lists below `region` of `s`.
void expected_nodes(dace_sdfg_t* s, dace_id_t region, const std::string& prefix, std::map<std::string, std::string>& out) {
  for (dace_id_t b : list(dace_region_list_blocks, s, region)) {
    const std::string bid = prefix + "b" + std::to_string(b);
    dace_block_kind_t kind;
    ASSERT_DACE_OK(dace_block_get_kind(&kind, s, b));
    if (kind == DACE_BLOCK_STATE) {
      for (dace_id_t n : list(dace_state_list_nodes, s, b)) {
        dace_node_kind_t nk;
        ASSERT_DACE_OK(dace_node_get_kind(&nk, s, b, n));
        const std::string nid = bid + "n" + std::to_string(n);
        out[nid] = class_of(nk);
        if (nk == DACE_NODE_NESTED_SDFG) {
          dace_sdfg_t* inner = nullptr;
          ASSERT_DACE_OK(dace_node_get_nested_sdfg(&inner, s, b, n));
          expected_nodes(inner, DACE_ROOT_REGION, nid + "_", out);
        }
      }
    } else if (kind == DACE_BLOCK_CONDITIONAL) {
      Ids branches = list(dace_conditional_list_branches, s, b);
      for (size_t k = 0; k < branches.size(); ++k)
        expected_nodes(s, branches[k], bid + "c" + std::to_string(k) + "_", out);
    } else if (kind == DACE_BLOCK_LOOP || kind == DACE_BLOCK_REGION) {
      expected_nodes(s, b, bid + "_", out);
    }
  }
}

// id -> class of every <g class="node sdfg-node sdfg-KIND"> Graphviz wrote ('-' is written
// as &#45; inside attributes); a node drawn twice is reported as "twice".
std::map<std::string, std::string> drawn_nodes(const std::string& svg) {
  static const std::regex group(R"re(<g id="([^"]+)" class="node sdfg&#45;node sdfg&#45;([^"]+)")re");
  std::map<std::string, std::string> drawn;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), group); it != std::sregex_iterator(); ++it) {
    std::string kind = std::regex_replace((*it)[2].str(), std::regex("&#45;"), "-");
    auto [at, fresh] = drawn.emplace((*it)[1].str(), "sdfg-" + kind);
    if (!fresh) at->second = "twice";
  }
  return drawn;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string render(const dace_sdfg_t* sdfg, const char* format) {
  char* text = nullptr;
  EXPECT_DACE_OK(dace_sdfg_render(&text, sdfg, format));
  std::string s = text ? text : "";
  dace_string_free(text);
  return s;
}

// `dace render IN -o OUT` in another process; its exit status. What it printed is in OUT.log.
int cli_render(const std::string& in, const fs::path& out) {
  const fs::path cli = fs::path(LIBDACE_BINARY_DIR) / "bin" / "dace";
  const std::string cmd =
      "'" + cli.string() + "' render '" + in + "' -o '" + out.string() + "' >'" + out.string() + ".log' 2>&1";
  return std::system(cmd.c_str());
}

TEST(CapiRender, CorpusSdfgDrawsEveryNodeTheCApiListsWithTheBytesOfDaceRender) {
  const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/softmax/softmax.gpu.sdfg";
  if (!fs::exists(path)) GTEST_SKIP() << "corpus file not found: " << path;
  const fs::path work = fs::path(LIBDACE_BINARY_DIR) / "tests" / "capi_render_tmp";
  fs::create_directories(work);
  // The CLI says whether this build has Graphviz; the C API must agree with it.
  const int cli_status = cli_render(path, work / "cli.svg");
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_file(&sdfg, path.c_str()));
  char* svg_text = nullptr;
  dace_status_t st = dace_sdfg_render(&svg_text, sdfg, "svg");
  // The last error message belongs to the last failing call: after a success it is an older one.
  const std::string why = st == DACE_OK ? "" : dace_last_error_message();
  if (cli_status != 0) {
    dace_string_free(svg_text);
    dace_sdfg_release(sdfg);
    // E.g. a CLI built with a sanitizer whose report (a leak at exit) sets the exit status.
    ASSERT_NE(st, DACE_OK) << "`dace render` exits " << cli_status << ", yet the C API renders; the CLI printed:\n"
                           << read_file(work / "cli.svg.log");
    EXPECT_EQ(st, DACE_ERROR_UNSUPPORTED) << "the CLI cannot render, the C API should not either: " << why;
    EXPECT_NE(why.find("libdace_render.so"), std::string::npos) << why;
    NO_RENDERER("`dace render` exits " + std::to_string(cli_status) + "; the C API says: " + why);
  }
  ASSERT_EQ(st, DACE_OK) << dace_last_error_message();
  const std::string svg = svg_text;
  dace_string_free(svg_text);

  std::map<std::string, std::string> expected;
  expected_nodes(sdfg, DACE_ROOT_REGION, "", expected);
  ASSERT_GT(expected.size(), 20u);
  size_t nested = 0;
  for (const auto& [id, cls] : expected) nested += id.find('_') != std::string::npos;
  ASSERT_GT(nested, 0u) << "softmax.gpu has nested SDFGs";
  EXPECT_EQ(drawn_nodes(svg), expected);

  EXPECT_EQ(svg, read_file(work / "cli.svg")) << "C API and `dace render` differ";
  const std::string html = render(sdfg, "html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u) << html.substr(0, 80);
  EXPECT_NE(html.find(svg.substr(svg.find("<svg"))), std::string::npos) << "the page embeds the SVG";
  ASSERT_EQ(cli_render(path, work / "cli.html"), 0) << read_file(work / "cli.html.log");
  EXPECT_EQ(html, read_file(work / "cli.html")) << "C API and `dace render` differ";
  EXPECT_EQ(render(sdfg, "svg"), svg) << "same SDFG, same bytes";
  dace_sdfg_release(sdfg);
}

TEST(CapiRender, SdfgBuiltThroughTheCApiIsDrawn) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("axpb_drawn");
  char* svg = nullptr;
  dace_status_t st = dace_sdfg_render(&svg, sdfg, "svg");
  if (st == DACE_ERROR_UNSUPPORTED) {
    std::string why = dace_last_error_message();
    dace_sdfg_release(sdfg);
    NO_RENDERER(why);
  }
  ASSERT_EQ(st, DACE_OK) << dace_last_error_message();
  const std::string picture = svg;
  dace_string_free(svg);
  std::map<std::string, std::string> expected;
  expected_nodes(sdfg, DACE_ROOT_REGION, "", expected);
  // make_axpb's mapped tasklet with external edges: A and s read, B written, one map.
  std::map<std::string, int> kinds;
  for (const auto& [id, cls] : expected) ++kinds[cls];
  EXPECT_EQ(kinds, (std::map<std::string, int>{
                       {"sdfg-access", 3}, {"sdfg-tasklet", 1}, {"sdfg-scope-entry", 1}, {"sdfg-scope-exit", 1}}));
  EXPECT_EQ(drawn_nodes(picture), expected);
  dace_sdfg_release(sdfg);
}

// Graphviz is not thread-safe; the C API serializes drawings, so concurrent calls on
// different SDFGs all succeed with the bytes a lone call gives.
TEST(CapiRender, ConcurrentCallsGiveTheBytesOfALoneCall) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("axpb_threads");
  char* first = nullptr;
  if (dace_sdfg_render(&first, sdfg, "svg") == DACE_ERROR_UNSUPPORTED) {
    std::string why = dace_last_error_message();
    dace_sdfg_release(sdfg);
    NO_RENDERER(why);
  }
  const std::string expected = first ? first : "";
  dace_string_free(first);
  ASSERT_FALSE(expected.empty());
  std::vector<dace_sdfg_t*> copies(4, nullptr);
  for (auto& c : copies) ASSERT_DACE_OK(dace_sdfg_clone(&c, sdfg));
  std::vector<int> mismatches(copies.size(), 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < copies.size(); ++t)
    threads.emplace_back([&, t] {
      for (int k = 0; k < 3; ++k) {
        char* text = nullptr;
        if (dace_sdfg_render(&text, copies[t], "svg") != DACE_OK || !text || expected != text) ++mismatches[t];
        dace_string_free(text);
      }
    });
  for (auto& th : threads) th.join();
  for (size_t t = 0; t < copies.size(); ++t) {
    EXPECT_EQ(mismatches[t], 0) << "thread " << t;
    dace_sdfg_release(copies[t]);
  }
  dace_sdfg_release(sdfg);
}

TEST(CapiRender, RefusesBadRequestsNamingTheArgumentAndWritesNothing) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("axpb_refused");
  char* out = reinterpret_cast<char*>(0x1);
  EXPECT_DACE_ERROR(dace_sdfg_render(&out, sdfg, "png"), DACE_ERROR_INVALID_ARGUMENT, "\"png\"");
  EXPECT_DACE_ERROR(dace_sdfg_render(&out, sdfg, ""), DACE_ERROR_INVALID_ARGUMENT, "format");
  EXPECT_DACE_ERROR(dace_sdfg_render(&out, sdfg, nullptr), DACE_ERROR_INVALID_ARGUMENT, "format");
  EXPECT_EQ(out, reinterpret_cast<char*>(0x1)) << "out_text is not written on failure";
  EXPECT_DACE_ERROR(dace_sdfg_render(nullptr, sdfg, "svg"), DACE_ERROR_INVALID_ARGUMENT, "out_text");
  EXPECT_DACE_ERROR(dace_sdfg_render(&out, nullptr, "svg"), DACE_ERROR_INVALID_ARGUMENT, "sdfg");
  EXPECT_EQ(out, reinterpret_cast<char*>(0x1));
  dace_sdfg_release(sdfg);
}

}  // namespace
