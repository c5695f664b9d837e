// Shared by the tests of the CUDA plugin's emulated device and kernels: compiling a program
// for the emulated device, and lowering it for the real one with ptxas checking the PTX.
#pragma once
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>

#include <filesystem>
#include <string>

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

// Lowers `g` for the device, writes its PTX and has ptxas check it for sm_80 and sm_90;
// returns the PTX text (empty and a failure when there is none).
inline std::string checked_ptx(const ir::SDFG& g) {
  const std::string dir = temp_dir("emu_" + g.name);
  LowerOptions o = parallel_test_options();
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

inline size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace dace::codegen::testing
