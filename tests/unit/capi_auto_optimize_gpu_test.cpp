// auto_optimize for the GPU through the C API and libdace.hpp (dace_sdfg_auto_optimize with
// DACE_DEVICE_GPU): on corpus raw SDFGs the result validates, runs its work on the device
// (GPU_Device maps, or library nodes on GPU_Global data) with GPU_Global containers, computes
// the corpus's NumPy outputs on the emulated device (the independent reference), and is the
// same bytes as the registered "auto_optimize_gpu" pipeline that `dace optimize --auto gpu`
// runs and as libdace.hpp's. Refusals (options, unknown device) give a status and a message
// and change nothing. Handles are owned (released on every exit, ASSERT and skip included).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "builder/api_internal.h"
#include "capi_test_util.h"
#include "corpus_case.h"
#include "cuda_emulation_support.h"
#include "ir/json/sdfg_json.h"
#include "libdace.hpp"
#include "transform/apply.h"
#include "transform/registry.h"

namespace dace::codegen::testing {
namespace {

std::string corpus_dir(const std::string& kernel) { return std::string(LIBDACE_CORPUS_DIR) + "/" + kernel; }
std::string raw_file(const std::string& kernel) { return corpus_dir(kernel) + "/" + kernel + ".raw.sdfg"; }

std::string bytes_of(const dace_sdfg_t* sdfg) {
  char* json = nullptr;
  if (dace_sdfg_to_json(&json, sdfg, nullptr) != DACE_OK) return std::string("<failed: ") + dace_last_error_message();
  std::string out(json);
  dace_string_free(json);
  return out;
}

struct ReleaseSdfg {
  void operator()(dace_sdfg_t* h) const { dace_sdfg_release(h); }
};
using SdfgHandle = std::unique_ptr<dace_sdfg_t, ReleaseSdfg>;

// Loads `file` into an owned handle; null (and a test failure) when it cannot.
SdfgHandle load(const std::string& file) {
  dace_sdfg_t* h = nullptr;
  EXPECT_DACE_OK(dace_sdfg_load_file(&h, file.c_str()));
  return SdfgHandle(h);
}

// Device work of `g` and its nested SDFGs: GPU_Device maps, and library nodes reading
// GPU_Global data (a product left to cuBLAS); and its GPU_Global containers.
void count_gpu(const ir::SDFG& g, int* device_work, int* global_containers) {
  for (const auto& [name, desc] : g.arrays) *global_containers += desc.storage == ir::StorageType::GPU_Global;
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids()) {
      const ir::Node* n = s->node(id);
      if (n->kind == ir::NodeKind::MapEntry)
        *device_work += static_cast<const ir::MapEntry*>(n)->map.schedule == ir::ScheduleType::GPU_Device;
      if (n->kind == ir::NodeKind::Library)
        for (int e : s->in_edges(id)) {
          const std::string& data = s->edge(e)->memlet.data;
          auto it = g.arrays.find(data);
          if (it != g.arrays.end() && it->second.storage == ir::StorageType::GPU_Global) {
            ++*device_work;
            break;
          }
        }
      if (n->kind == ir::NodeKind::NestedSDFG)
        if (const auto* nested = static_cast<const ir::NestedSDFGNode*>(n); nested->sdfg)
          count_gpu(*nested->sdfg, device_work, global_containers);
    }
}

class CapiAutoOptimizeGpu : public ::testing::TestWithParam<std::string> {};

TEST_P(CapiAutoOptimizeGpu, MovesTheProgramToTheGpuAndMatchesNumPyEmulated) {
  const std::string kernel = GetParam();
  if (corpus_case_dirs().empty()) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  SdfgHandle owned = load(raw_file(kernel));
  ASSERT_TRUE(owned);
  dace_sdfg_t* h = owned.get();
  ASSERT_DACE_OK(dace_sdfg_auto_optimize(h, DACE_DEVICE_GPU, nullptr));
  ASSERT_DACE_OK(dace_sdfg_validate(h));

  int device_work = 0, global_containers = 0;
  count_gpu(*h->sdfg, &device_work, &global_containers);
  EXPECT_GE(device_work, 1) << kernel << ": no GPU_Device map or device library node after auto_optimize for the GPU";
  EXPECT_GE(global_containers, 1) << kernel << ": no GPU_Global container after auto_optimize for the GPU";
  const std::string history = [&] {
    const char* s = nullptr;
    EXPECT_EQ(dace_sdfg_history_json(&s, h), DACE_OK);
    return std::string(s ? s : "");
  }();
  EXPECT_NE(history.find("GPUTransformSDFG"), std::string::npos) << history;
  if (kernel == "gemm") {
    EXPECT_NE(history.find("FoldScalingIntoGemm"), std::string::npos) << history;
  }

  // The same pipeline as `dace optimize --auto gpu` (the registered auto_optimize_gpu).
  Result<std::unique_ptr<ir::SDFG>> direct = ir::json::read_sdfg_file(raw_file(kernel));
  ASSERT_TRUE(direct.ok()) << direct.error().message;
  transform::AnalysisManager am;
  Result<bool> ran = transform::run_pass(**direct, *transform::make_pass("auto_optimize_gpu"), am);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_EQ(bytes_of(h), ir::json::write_sdfg(**direct));

  // libdace.hpp gives the same SDFG.
  libdace::sdfg wrapped = libdace::sdfg::load_file(raw_file(kernel));
  wrapped.auto_optimize(DACE_DEVICE_GPU);
  EXPECT_EQ(wrapped.to_json(), bytes_of(h));

  REQUIRE_CUDA_PLUGIN();
  Result<CompiledProgram> prog = compile_emulated(*h->sdfg);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(corpus_dir(kernel), *h->sdfg, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CapiAutoOptimizeGpu, ::testing::Values("jacobi_2d", "gemm", "syrk", "doitgen"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// A refused call returns its status and a message naming what is wrong; the SDFG keeps its
// bytes (no step of the pipeline may have run on it).
TEST(CapiAutoOptimizeGpuRefusal, BadOptionsAndDevicesChangeNothing) {
  if (corpus_case_dirs().empty()) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  SdfgHandle owned = load(raw_file("jacobi_2d"));
  ASSERT_TRUE(owned);
  dace_sdfg_t* h = owned.get();
  const std::string before = bytes_of(h);
  EXPECT_DACE_ERROR(dace_sdfg_auto_optimize(h, DACE_DEVICE_GPU, "{\"block_size\": 128}"), DACE_ERROR_INVALID_ARGUMENT,
                    "block_size");
  EXPECT_DACE_ERROR(dace_sdfg_auto_optimize(h, DACE_DEVICE_GPU, "{oops"), DACE_ERROR_PARSE, "auto_optimize_gpu");
  EXPECT_DACE_ERROR(dace_sdfg_auto_optimize(h, DACE_DEVICE_GPU, "[]"), DACE_ERROR_INVALID_ARGUMENT, "object");
  EXPECT_DACE_ERROR(dace_sdfg_auto_optimize(h, static_cast<dace_device_t>(2), nullptr), DACE_ERROR_INVALID_ARGUMENT,
                    "unknown device 2");
  EXPECT_EQ(bytes_of(h), before);
  const char* history = nullptr;
  ASSERT_DACE_OK(dace_sdfg_history_json(&history, h));
  EXPECT_EQ(std::string(history).find("GPUTransformSDFG"), std::string::npos);

  libdace::sdfg wrapped = libdace::sdfg::load_file(raw_file("jacobi_2d"));
  try {
    wrapped.auto_optimize(DACE_DEVICE_GPU, "{\"tile_size\": 4}");
    ADD_FAILURE() << "an unknown option was accepted";
  } catch (const libdace::error& e) {
    EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("tile_size"), std::string::npos) << e.what();
  }
  EXPECT_EQ(wrapped.to_json(), before);
}

}  // namespace
}  // namespace dace::codegen::testing
