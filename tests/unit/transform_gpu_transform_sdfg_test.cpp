// GPUTransformSDFG (src/transform/gpu_transform_sdfg.h) on small SDFGs: which containers get
// GPU_Global clones, which are copied in and out, which schedules change, which tasklets are
// wrapped in one-point GPU maps, and what is refused. Expected structures are derived by
// hand from DaCe 1.0.2's gpu_transform_sdfg.py (steps 1-8); running the result needs a GPU
// or the emulated device (PTX of the corpus: ctest cuda.ptx_corpus).
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// B[0:N] = 2 * A[0:N] over a map; with `partial`, only B[1:N] is written.
std::unique_ptr<ir::SDFG> map_sdfg(bool partial) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "double_it";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  const std::string range = partial ? "1:N" : "0:N";
  auto [entry, exit] = map(s, {"i"}, range);
  int t = tasklet(s, "b = 2 * a", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[" + range + "]", "A[i]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[" + range + "]");
  return g;
}

// Applies GPUTransformSDFG without its final simplify, so that the states it adds keep
// their labels and contents.
void move_to_gpu(ir::SDFG& g) {
  std::unique_ptr<Transformation> t = make_transformation("GPUTransformSDFG");
  ASSERT_TRUE(t->properties().set_from_json(R"({"simplify": false})").ok());
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, *t, am);
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_TRUE(m->has_value());
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
}

// The copies of a state: (source data, destination data) of each edge between access nodes.
std::vector<std::pair<std::string, std::string>> copies(const ir::State& st) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int e : st.edge_ids()) {
    const ir::DataflowEdge* edge = st.edge(e);
    auto* a = dynamic_cast<const ir::AccessNode*>(st.node(edge->src));
    auto* b = dynamic_cast<const ir::AccessNode*>(st.node(edge->dst));
    if (a && b) out.emplace_back(a->data, b->data);
  }
  return out;
}

const ir::State* state_labelled(const ir::SDFG& g, const std::string& label) {
  for (const ir::State* s : g.all_states())
    if (s->label == label) return s;
  return nullptr;
}

std::vector<ir::ScheduleType> map_schedules(const ir::SDFG& g) {
  std::vector<ir::ScheduleType> out;
  for (const ir::State* s : g.all_states())
    for (int n : s->node_ids())
      if (auto* m = dynamic_cast<const ir::MapEntry*>(s->node(n))) out.push_back(m->map.schedule);
  return out;
}

TEST(TransformGPUTransformSDFG, MovesArraysAndMapsToTheGpuWithCopiesInAndOut) {
  std::unique_ptr<ir::SDFG> g = map_sdfg(false);
  move_to_gpu(*g);
  ASSERT_TRUE(g->arrays.count("gpu_A") && g->arrays.count("gpu_B"));
  for (const char* n : {"gpu_A", "gpu_B"}) {
    EXPECT_EQ(g->arrays.at(n).storage, ir::StorageType::GPU_Global) << n;
    EXPECT_TRUE(g->arrays.at(n).transient) << n;
  }
  // The arguments stay host arrays (the caller's memory).
  EXPECT_EQ(g->arrays.at("A").storage, ir::StorageType::Default);
  EXPECT_FALSE(g->arrays.at("B").transient);
  EXPECT_EQ(map_schedules(*g), std::vector<ir::ScheduleType>{ir::ScheduleType::GPU_Device});
  // A is read: copied in. B is written whole by the map: not copied in, copied out.
  const ir::State* in = state_labelled(*g, "double_it_copyin");
  const ir::State* out = state_labelled(*g, "double_it_copyout");
  ASSERT_TRUE(in && out);
  EXPECT_EQ(copies(*in), (std::vector<std::pair<std::string, std::string>>{{"A", "gpu_A"}}));
  EXPECT_EQ(copies(*out), (std::vector<std::pair<std::string, std::string>>{{"gpu_B", "B"}}));
  EXPECT_EQ(g->block(ir::entry_block(*g)), in);
  // The map reads and writes the clones.
  const ir::State* s = state_labelled(*g, "s");
  ASSERT_TRUE(s);
  for (int n : s->node_ids())
    if (auto* a = dynamic_cast<const ir::AccessNode*>(s->node(n))) {
      EXPECT_TRUE(a->data == "gpu_A" || a->data == "gpu_B") << a->data;
    }
}

TEST(TransformGPUTransformSDFG, PartlyWrittenOutputIsCopiedInFirst) {
  // B[0] is not written: the copy back must not overwrite it with device garbage.
  std::unique_ptr<ir::SDFG> g = map_sdfg(true);
  move_to_gpu(*g);
  const ir::State* in = state_labelled(*g, "double_it_copyin");
  ASSERT_TRUE(in);
  EXPECT_EQ(copies(*in), (std::vector<std::pair<std::string, std::string>>{{"A", "gpu_A"}, {"B", "gpu_B"}}));
}

TEST(TransformGPUTransformSDFG, FreeTaskletsOnDeviceDataAreWrappedAndScalarTaskletsStay) {
  // s0: u = 5 (a host scalar transient, nothing else touches it: stays on the host);
  // s1: t = 3 (a scalar, but t is read in s2 by a tasklet that moves: t moves, and so, by
  //     DaCe's fixed point, does the tasklet writing it: a kernel cannot write host scalars);
  // s2: A[0] = t (writes an array that moves to the GPU: wrapped in a one-point GPU map).
  auto g = std::make_unique<ir::SDFG>();
  g->name = "free";
  add_array(*g, "A", T::Float64, {"4"});
  add_scalar(*g, "t", T::Float64, true);
  add_scalar(*g, "u", T::Float64, true);
  int s0 = 0, s1 = 0, s2 = 0;
  ir::State& z = add_state(*g, *g, "s0", &s0);
  int tz = tasklet(z, "o = 5.0", {}, {"o"});
  edge(z, tz, "o", access(z, "u"), "", "u[0]");
  ir::State& a = add_state(*g, *g, "s1", &s1);
  int ta = tasklet(a, "o = 3.0", {}, {"o"});
  edge(a, ta, "o", access(a, "t"), "", "t[0]");
  ir::State& b = add_state(*g, *g, "s2", &s2);
  int tb = tasklet(b, "o = i", {"i"}, {"o"});
  edge(b, access(b, "t"), "", tb, "i", "t[0]");
  edge(b, tb, "o", access(b, "A"), "", "A[0]");
  add_interstate(*g, s0, s1);
  add_interstate(*g, s1, s2);
  move_to_gpu(*g);
  auto wrapped_in = [&](const std::string& label) {
    const ir::State* s = state_labelled(*g, label);
    EXPECT_TRUE(s) << label;
    if (!s) return false;
    for (int n : s->node_ids())
      if (auto* m = dynamic_cast<const ir::MapEntry*>(s->node(n)))
        return m->map.schedule == ir::ScheduleType::GPU_Device && m->label.find("_gmap") != std::string::npos;
    return false;
  };
  EXPECT_FALSE(wrapped_in("s0"));
  EXPECT_TRUE(wrapped_in("s1"));
  EXPECT_TRUE(wrapped_in("s2"));
  EXPECT_EQ(g->arrays.at("t").storage, ir::StorageType::GPU_Global);
  EXPECT_NE(g->arrays.at("u").storage, ir::StorageType::GPU_Global);
}

TEST(TransformGPUTransformSDFG, RefusesTopLevelCodeNodesFeedingEachOther) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "chained";
  add_array(*g, "A", T::Float64, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  int t1 = tasklet(s, "o = 1.0", {}, {"o"});
  int t2 = tasklet(s, "p = i", {"i"}, {"p"});
  edge(s, t1, "o", t2, "i", "");
  edge(s, t2, "p", access(s, "A"), "", "A[0]");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "GPUTransformSDFG", &why));
  EXPECT_NE(why.find("feeds another code node directly"), std::string::npos) << why;
  EXPECT_EQ(g->arrays.count("gpu_A"), 0u);  // unchanged
}

TEST(TransformGPUTransformSDFG, MatchesOnlyTheRootSdfgOnce) {
  std::unique_ptr<ir::SDFG> g = map_sdfg(false);
  std::unique_ptr<Transformation> t = make_transformation("GPUTransformSDFG");
  AnalysisManager am;
  std::vector<Match> ms = t->enumerate(*g, am);
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].cfg_id, 0);
  EXPECT_TRUE(ms[0].subgraph.empty());
}

}  // namespace
}  // namespace dace::transform::testing
