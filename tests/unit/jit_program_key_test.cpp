// The object-cache key of a compiled SDFG (jit/program_key.h) and the ABI derived without
// lowering (jit/program_abi.h), which a cache hit relies on instead of lower()'s report.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>

#include "codegen/lower.h"
#include "ir/json/sdfg_json.h"
#include "jit/program_abi.h"
#include "jit/program_key.h"
#include "plugin/registry.h"
#include "scoped_env.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace dace::jit {
namespace {

ProgramKeyInputs base_inputs() {
  ProgramKeyInputs in;
  in.sdfg_hash = std::string(64, 'a');
  in.sdfg_name = "axpy";
  in.target_id = "x86_64-pc-linux-gnu|znver4|+avx2,+avx512f|llvm 19.1.7";
  in.libdace_version = "0.1.0";
  in.libdace_build_id = "0.1.0-0123456789abcdef";
  in.libdace_binary_id = "9a08efb5495cb443527776bb0134c3a3feacb70d";
  in.plugins = "plugin cpu 0.1.0 0.1.0-0123456789abcdef abi 1\nsymbol dace_cpu_parallel_for cpu\n";
  in.lowering = "par=1;noalias=1;fast=0;threads=0;parallel_for=dace_cpu_parallel_for;blas=1111";
  in.opt_level = 3;
  in.fast_math = false;
  in.vector_math_library = true;
  return in;
}

TEST(JitProgramKey, IsAValidDeterministicCacheKey) {
  std::string a = program_cache_key(base_inputs());
  EXPECT_EQ(a, program_cache_key(base_inputs()));
  EXPECT_EQ(a.size(), 64u);
  EXPECT_TRUE(is_valid_cache_key(a));
}

TEST(JitProgramKey, EveryInputChangesTheKey) {
  const std::string base = program_cache_key(base_inputs());
  const std::vector<std::pair<const char*, std::function<void(ProgramKeyInputs&)>>> changes = {
      {"sdfg_hash", [](ProgramKeyInputs& in) { in.sdfg_hash[0] = 'b'; }},
      {"sdfg_name", [](ProgramKeyInputs& in) { in.sdfg_name = "axpy2"; }},
      {"triple", [](ProgramKeyInputs& in) { in.target_id = "aarch64-unknown-linux-gnu|znver4|+avx2,+avx512f|llvm 19.1.7"; }},
      {"cpu", [](ProgramKeyInputs& in) { in.target_id = "x86_64-pc-linux-gnu|skylake|+avx2,+avx512f|llvm 19.1.7"; }},
      {"features", [](ProgramKeyInputs& in) { in.target_id = "x86_64-pc-linux-gnu|znver4|+avx2,-avx512f|llvm 19.1.7"; }},
      {"llvm", [](ProgramKeyInputs& in) { in.target_id = "x86_64-pc-linux-gnu|znver4|+avx2,+avx512f|llvm 19.1.6"; }},
      {"version", [](ProgramKeyInputs& in) { in.libdace_version = "0.1.1"; }},
      {"build id", [](ProgramKeyInputs& in) { in.libdace_build_id = "0.1.0-fedcba9876543210"; }},
      {"binary id", [](ProgramKeyInputs& in) { in.libdace_binary_id = "9a08efb5495cb443527776bb0134c3a3feacb70e"; }},
      {"plugins", [](ProgramKeyInputs& in) { in.plugins += "symbol dace_cpu_barrier cpu\n"; }},
      {"lowering", [](ProgramKeyInputs& in) { in.lowering = "par=1;noalias=1;fast=0;threads=4;parallel_for=dace_cpu_parallel_for;blas=1111"; }},
      {"opt level", [](ProgramKeyInputs& in) { in.opt_level = 2; }},
      {"fast math", [](ProgramKeyInputs& in) { in.fast_math = true; }},
      {"libmvec", [](ProgramKeyInputs& in) { in.vector_math_library = false; }},
  };
  std::set<std::string> keys{base};
  for (const auto& [what, change] : changes) {
    ProgramKeyInputs in = base_inputs();
    change(in);
    std::string key = program_cache_key(in);
    EXPECT_NE(key, base) << what;
    EXPECT_TRUE(keys.insert(key).second) << what << " collides with another change";
  }
}

// DACE_JIT_MASKED_INTERLEAVE=0 changes the vectorizer's code, so a program cached with the
// switch on must not be reused with it off (and back).
TEST(JitProgramKey, MaskedInterleaveSettingChangesTheKey) {
  std::string on, off;
  {
    test_support::ScopedEnv env("DACE_JIT_MASKED_INTERLEAVE", "1");
    on = program_cache_key(base_inputs());
  }
  {
    test_support::ScopedEnv env("DACE_JIT_MASKED_INTERLEAVE", "0");
    off = program_cache_key(base_inputs());
  }
  EXPECT_NE(on, off);
}

TEST(JitProgramKey, OptLevelIsClampedLikeThePipeline) {
  ProgramKeyInputs a = base_inputs(), b = base_inputs();
  a.opt_level = 3;
  b.opt_level = 9;
  EXPECT_EQ(program_cache_key(a), program_cache_key(b));
  a.opt_level = 0;
  b.opt_level = -4;
  EXPECT_EQ(program_cache_key(a), program_cache_key(b));
}

TEST(JitProgramKey, FieldsDoNotRunTogether) {
  // Length-prefixed parts: moving a character from one field to the next is a new key.
  ProgramKeyInputs a = base_inputs(), b = base_inputs();
  a.libdace_version = "0.1.0x";
  a.libdace_build_id = "y";
  b.libdace_version = "0.1.0";
  b.libdace_build_id = "xy";
  EXPECT_NE(program_cache_key(a), program_cache_key(b));
}

int dummy_a(int x) { return x; }
int dummy_b(int x) { return x + 1; }

TEST(JitProgramKey, PluginFingerprintIgnoresAddressesButNotNames) {
  plugin::Registry r1, r2, r3;
  ASSERT_TRUE(r1.add_runtime_symbol("dace_cpu_parallel_for", reinterpret_cast<void*>(&dummy_a)).ok());
  ASSERT_TRUE(r2.add_runtime_symbol("dace_cpu_parallel_for", reinterpret_cast<void*>(&dummy_b)).ok());
  ASSERT_TRUE(r3.add_runtime_symbol("dace_cpu_parallel_for2", reinterpret_cast<void*>(&dummy_a)).ok());
  EXPECT_EQ(plugins_fingerprint(r1), plugins_fingerprint(r2));
  EXPECT_NE(plugins_fingerprint(r1), plugins_fingerprint(r3));
  ASSERT_TRUE(r2.add_vendor_library("libdace_no_such_vendor_library.so.0", false).ok());
  EXPECT_NE(plugins_fingerprint(r1), plugins_fingerprint(r2));
  std::string missing = plugins_fingerprint(r2);
  r2.set_vendor_library_status("libdace_no_such_vendor_library.so.0", true, "");
  EXPECT_NE(plugins_fingerprint(r2), missing);
}

// An optional vendor library is loaded on first use; the fingerprint tries it itself, so it
// says what the library's load decides, whether or not anything asked for it before. The
// references are registries whose library status is set by hand.
TEST(JitProgramKey, PluginFingerprintLoadsOptionalLibrariesNotTriedYet) {
  for (const char* name : {"libm.so.6", "libdace_no_such_vendor_library.so.0"}) {
    const bool loads = std::string(name) == "libm.so.6";
    plugin::Registry untried, by_hand;
    ASSERT_TRUE(untried.add_vendor_library(name, false).ok());
    ASSERT_TRUE(by_hand.add_vendor_library(name, false).ok());
    by_hand.set_vendor_library_status(name, loads, loads ? "" : "not found");
    EXPECT_EQ(plugins_fingerprint(untried), plugins_fingerprint(by_hand)) << name;
    EXPECT_EQ(untried.known_vendor_libraries().at(0).available, loads) << name;
  }
}

// Every corpus SDFG: the ABI derived from the SDFG equals what lower() builds.
TEST(JitProgramAbi, MatchesLoweringOnTheCorpus) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(LIBDACE_CORPUS_DIR, ec)) {
    std::string k = d.path().filename().string();
    for (const char* kind : {".simp.sdfg", ".raw.sdfg"})
      if (fs::exists(d.path() / (k + kind))) files.push_back((d.path() / (k + kind)).string());
  }
  if (files.empty()) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  std::sort(files.begin(), files.end());
  auto same = [](const std::vector<analysis::Argument>& a, const std::vector<analysis::Argument>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].name != b[i].name || a[i].kind != b[i].kind || !(a[i].dtype == b[i].dtype)) return false;
    return true;
  };
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    auto sdfg = ir::json::read_sdfg_file(f);
    ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
    llvm::LLVMContext ctx;
    auto lowered = codegen::lower(**sdfg, ctx);
    ASSERT_TRUE(lowered.ok()) << lowered.error().message;
    ProgramAbi abi = program_abi(**sdfg);
    EXPECT_EQ(abi.entry.init, lowered->init_function);
    EXPECT_EQ(abi.entry.program, lowered->program_function);
    EXPECT_EQ(abi.entry.exit, lowered->exit_function);
    EXPECT_TRUE(same(abi.arguments, lowered->arguments));
    EXPECT_TRUE(same(abi.init_arguments, lowered->init_arguments));
  }
}

}  // namespace
}  // namespace dace::jit
