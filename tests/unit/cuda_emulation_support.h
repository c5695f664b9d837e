// Shared by the tests of the CUDA plugin's emulated device and kernels: compiling a program
// for the emulated device or for the real one (when a driver and a GPU are present), and
// lowering it for the real one with ptxas checking the PTX.
#pragma once
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>

#include <filesystem>
#include <string>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_test_support.h"

namespace dace::codegen::testing {

inline LowerOptions emulated_options() {
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  o.emulate_device = true;
  return o;
}

inline Result<CompiledProgram> compile_emulated(const ir::SDFG& g) {
  for (const auto& s : cuda_registry()->runtime_symbols()) (void)session().define_runtime_symbol(s.name, s.address);
  return compile(g, emulated_options());
}

// Where a test program runs: the emulated device (always), or the GPU (only where one is).
enum class Where { Emulated, Device };

inline std::string where_name(const ::testing::TestParamInfo<Where>& info) {
  return info.param == Where::Device ? "device" : "emulated";
}

// Compiles `g` for the GPU through the plugin's real runtime (PTX launched by the driver).
inline Result<CompiledProgram> compile_for_device(const ir::SDFG& g) {
  for (const auto& s : cuda_registry()->runtime_symbols()) (void)session().define_runtime_symbol(s.name, s.address);
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  return compile(g, o);
}

inline Result<CompiledProgram> compile_on(const ir::SDFG& g, Where where) {
  return where == Where::Device ? compile_for_device(g) : compile_emulated(g);
}

// A test run on the emulated device and, as a second instance, on the GPU; the GPU
// instance skips with the reason where there is no driver or no device.
class CudaTargetTest : public ::testing::TestWithParam<Where> {};

#define INSTANTIATE_ON_EMULATED_AND_DEVICE(Suite)                                                           \
  INSTANTIATE_TEST_SUITE_P(Emulated, Suite, ::testing::Values(::dace::codegen::testing::Where::Emulated), \
                           ::dace::codegen::testing::where_name);                                          \
  INSTANTIATE_TEST_SUITE_P(Device, Suite, ::testing::Values(::dace::codegen::testing::Where::Device),     \
                           ::dace::codegen::testing::where_name)

// The plugin for both instances; a driver and a GPU for the device instance.
#define REQUIRE_CUDA_TARGET()                                                                            \
  do {                                                                                                   \
    REQUIRE_CUDA_PLUGIN();                                                                               \
    if (GetParam() == ::dace::codegen::testing::Where::Device) REQUIRE_CUDA_DEVICE();                    \
  } while (0)

// Lowers `g` for the device with `o` (the CUDA registry added), writes its PTX and has ptxas
// check it for sm_80 and sm_90; returns the PTX text (empty and a failure when there is none).
inline std::string checked_ptx(const ir::SDFG& g, LowerOptions o = parallel_test_options()) {
  const std::string dir = temp_dir("emu_" + g.name);
  o.registry = cuda_registry();
  o.device_code_dir = dir;
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, o);
  EXPECT_TRUE(m.ok()) << m.error().message;
  const std::string file = dir + "/" + g.name + ".ptx";
  std::string ptx = read_file(file);
  EXPECT_FALSE(ptx.empty()) << "no PTX written to " << file;
  if (!ptxas().empty() && !ptx.empty()) {
    EXPECT_EQ(ptxas_check(file, "sm_80"), "");
    EXPECT_EQ(ptxas_check(file, "sm_90"), "");
  }
  std::filesystem::remove_all(dir);
  return ptx;
}

// src -> entries[0] -> entries[1] -> ... -> dst; memlets[k] is the edge into entries[k]
// (the last one the edge into dst).
inline void chain_in(ir::State& s, int src, const std::vector<int>& entries, int dst, const std::string& dst_conn,
              const std::string& data, const std::vector<std::string>& memlets) {
  int from = src;
  std::string conn;
  for (size_t k = 0; k < entries.size(); ++k) {
    s.node(entries[k])->in_connectors["IN_" + data] = ir::DType{};
    s.node(entries[k])->out_connectors["OUT_" + data] = ir::DType{};
    edge(s, from, conn, entries[k], "IN_" + data, memlets[k]);
    from = entries[k];
    conn = "OUT_" + data;
  }
  edge(s, from, conn, dst, dst_conn, memlets[entries.size()]);
}

// src -> exits[0] (innermost) -> ... -> dst; memlets[k] is the edge into exits[k] (the
// last one the edge into dst).
inline void chain_out(ir::State& s, int src, const std::string& src_conn, const std::vector<int>& exits, int dst,
               const std::string& data, const std::vector<std::string>& memlets, const std::string& wcr = "") {
  int from = src;
  std::string conn = src_conn;
  for (size_t k = 0; k < exits.size(); ++k) {
    s.node(exits[k])->in_connectors["IN_" + data] = ir::DType{};
    s.node(exits[k])->out_connectors["OUT_" + data] = ir::DType{};
    edge(s, from, conn, exits[k], "IN_" + data, memlets[k], wcr);
    from = exits[k];
    conn = "OUT_" + data;
  }
  edge(s, from, conn, dst, "", memlets[exits.size()], wcr);
}

inline size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace dace::codegen::testing
