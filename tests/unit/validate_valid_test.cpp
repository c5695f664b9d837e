// Valid SDFGs pass: hand-built stencils with time loops, and every corpus file.
#include <algorithm>
#include <filesystem>

#include "ir/json/sdfg_json.h"
#include "validate_builder.h"

namespace vtest {
namespace {

// One Jacobi sweep dst[i] = (src[i-1] + src[i] + src[i+1]) / 3 over 1:N-1 in state `s`.
void add_sweep(Builder& b, State& s, const std::string& src, const std::string& dst) {
  int in = Builder::access(s, src);
  int out = Builder::access(s, dst);
  auto [me, mx] = Builder::map(s, "sweep", {"i"}, "1:N-1");
  int t = Builder::tasklet(s, "avg", {"l", "c", "r"}, {"o"}, "o = (l + c + r) / 3.0");
  Builder::conn_in(s, me, "IN_" + src);
  Builder::conn_out(s, me, "OUT_" + src);
  Builder::conn_in(s, mx, "IN_" + dst);
  Builder::conn_out(s, mx, "OUT_" + dst);
  b.edge(s, in, "", me, "IN_" + src, src + "[0:N]");
  b.edge(s, me, "OUT_" + src, t, "l", src + "[i - 1]");
  b.edge(s, me, "OUT_" + src, t, "c", src + "[i]");
  b.edge(s, me, "OUT_" + src, t, "r", src + "[i + 1]");
  b.edge(s, t, "o", mx, "IN_" + dst, dst + "[i]");
  b.edge(s, mx, "OUT_" + dst, out, "", dst + "[1:N-1]");
}

TEST(ValidateValid, StencilWithLoopRegion) {
  Builder b("jacobi");
  b.symbol("N");
  b.symbol("TSTEPS");
  b.data("A", array({"N"}));
  b.data("B", array({"N"}));
  auto& loop = b.block<LoopRegion>("time");
  loop.loop_variable = "t";
  loop.loop_condition = CodeBlock{"t < TSTEPS", Language::Python};
  loop.init_statement = CodeBlock{"t = 1", Language::Python};
  loop.update_statement = CodeBlock{"t = t + 1", Language::Python};
  State& s1 = b.block("a_to_b", &loop);
  State& s2 = b.block("b_to_a", &loop);
  b.interstate(s1, s2, "1", {}, &loop);
  add_sweep(b, s1, "A", "B");
  add_sweep(b, s2, "B", "A");
  expect_valid(*b.g);
  EXPECT_TRUE(analysis::validate(*b.g).ok());
}

TEST(ValidateValid, StencilWithStateMachineLoop) {
  Builder b("jacobi");
  b.symbol("N");
  b.symbol("TSTEPS");
  b.symbol("t");
  b.data("A", array({"N"}));
  b.data("B", array({"N"}));
  State& init = b.block("init");
  State& guard = b.block("guard");
  State& body = b.block("body");
  State& back = b.block("back");
  State& done = b.block("done");
  b.interstate(init, guard, "1", {{"t", "1"}});
  b.interstate(guard, body, "t < TSTEPS");
  b.interstate(body, back);
  b.interstate(back, guard, "1", {{"t", "t + 1"}});
  b.interstate(guard, done, "not (t < TSTEPS)");
  add_sweep(b, body, "A", "B");
  add_sweep(b, back, "B", "A");
  expect_valid(*b.g);
}

TEST(ValidateValid, CorpusFilesValidate) {
  const std::string root = "/work/shared/sdfg-corpus";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "corpus not found at " << root;
  std::vector<std::string> files;
  for (const auto& p : std::filesystem::recursive_directory_iterator(root))
    if (p.path().extension() == ".sdfg") files.push_back(p.path().string());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    auto g = ir::json::read_sdfg_file(f);
    ASSERT_TRUE(g.ok()) << f << ": " << g.error().message;
    auto errors = analysis::validate_all(**g);
    EXPECT_TRUE(errors.empty()) << f << ":\n" << all_messages(errors);
  }
}

}  // namespace
}  // namespace vtest
