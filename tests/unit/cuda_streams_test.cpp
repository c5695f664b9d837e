// The CUDA plugin's per-state stream assignment (plugins/cuda/lowering/streams.h, docs/cuda.md
// "Streams and events"): which stream each kernel, copy and library call runs on, which
// events a consumer waits for and where the host synchronizes. The expected plans are derived
// by hand from each state's dataflow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <filesystem>

#include "codegen_test_builder.h"
#include "cuda/lowering/streams.h"
#include "ir/json/sdfg_json.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

bool no_device_tasklet(const ir::Tasklet&) { return false; }

std::unique_ptr<ir::SDFG> gpu_sdfg(const std::string& name, const std::vector<std::string>& device,
                                   const std::vector<std::string>& host = {}) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const std::string& a : device) {
    add_array(*g, a, T::Float64, {"N"});
    g->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  for (const std::string& a : host) add_array(*g, a, T::Float64, {"N"});
  return g;
}

// out[i] = in[i] + 1 as a GPU_Device map named `label`, from access node `in` to `out`.
void kernel(ir::State& s, int in, const std::string& in_data, int out, const std::string& out_data,
            const std::string& label) {
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  s.node(entry)->label = label;
  s.node(exit)->label = label;
  int t = tasklet(s, "b = a + 1", {"a"}, {"b"});
  edge_in(s, in, entry, t, "a", in_data + "[0:N]", in_data + "[i]");
  edge_out(s, t, "b", exit, out, out_data + "[i]", out_data + "[0:N]");
}

// Z = (X = A + 1) + (Y = B + 1): two independent kernels, a third consuming both.
std::unique_ptr<ir::SDFG> join_sdfg() {
  auto g = gpu_sdfg("join", {"A", "B", "X", "Y", "Z"});
  ir::State& s = add_state(*g, *g, "s");
  int x = access(s, "X"), y = access(s, "Y");
  kernel(s, access(s, "A"), "A", x, "X", "ka");
  kernel(s, access(s, "B"), "B", y, "Y", "kb");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  s.node(entry)->label = "kz";
  int t = tasklet(s, "z = x + y", {"x", "y"}, {"z"});
  edge_in(s, x, entry, t, "x", "X[0:N]", "X[i]");
  edge_in(s, y, entry, t, "y", "Y[0:N]", "Y[i]");
  edge_out(s, t, "z", exit, access(s, "Z"), "Z[i]", "Z[0:N]");
  return g;
}

const ir::State& only_state(const ir::SDFG& g) { return static_cast<const ir::State&>(*g.block(0)); }

int node_labelled(const ir::State& s, const std::string& label) {
  for (int id : s.node_ids())
    if (s.node(id)->label == label && s.node(id)->kind != ir::NodeKind::MapExit) return id;
  return -1;
}

TEST(CudaStreams, TwoIndependentKernelsRunOnTwoStreamsAndTheirConsumerWaitsForOne) {
  std::unique_ptr<ir::SDFG> g = join_sdfg();
  const ir::State& s = only_state(*g);
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  ASSERT_EQ(plan.items.size(), 3u);
  EXPECT_TRUE(plan.concurrent());
  EXPECT_EQ(plan.streams, 2);
  const int ka = plan.item_of_node(node_labelled(s, "ka")), kb = plan.item_of_node(node_labelled(s, "kb")),
            kz = plan.item_of_node(node_labelled(s, "kz"));
  ASSERT_TRUE(ka >= 0 && kb >= 0 && kz >= 0);
  // kz continues one producer's stream and waits for the other's event, recorded after it.
  const cuda::WorkItem &a = plan.items[ka], &b = plan.items[kb], &z = plan.items[kz];
  EXPECT_NE(a.stream, b.stream);
  EXPECT_EQ(z.producers, (std::vector<int>{std::min(ka, kb), std::max(ka, kb)}));
  ASSERT_EQ(z.waits.size(), 1u);
  const int waited = z.waits[0];
  EXPECT_EQ(plan.items[waited].stream == z.stream, false);
  EXPECT_EQ(z.stream, plan.items[waited == ka ? kb : ka].stream);
  EXPECT_TRUE(plan.items[waited].records_event);
  EXPECT_FALSE(z.records_event);
  EXPECT_TRUE(plan.host_waits.empty());
}

TEST(CudaStreams, OneStreamAllowedPutsEverythingOnTheDefaultStream) {
  std::unique_ptr<ir::SDFG> g = join_sdfg();
  const ir::State& s = only_state(*g);
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 1, no_device_tasklet);
  ASSERT_EQ(plan.items.size(), 3u);
  EXPECT_FALSE(plan.concurrent());
  EXPECT_EQ(plan.streams, 1);
  for (const cuda::WorkItem& item : plan.items) {
    EXPECT_EQ(item.stream, 0);
    EXPECT_TRUE(item.waits.empty());
    EXPECT_FALSE(item.records_event);
  }
  // 0 and negative bounds count as 1.
  EXPECT_EQ(cuda::describe(cuda::plan_streams(*g, s, 0, no_device_tasklet), s), cuda::describe(plan, s));
  EXPECT_EQ(cuda::describe(cuda::plan_streams(*g, s, -3, no_device_tasklet), s), cuda::describe(plan, s));
}

// A -> (H->D copy) -> D1 -> k1 -> D2 -> k2 -> D3 -> (D->H copy) -> C: one chain.
TEST(CudaStreams, AChainStaysOnOneStream) {
  auto g = gpu_sdfg("chain", {"D1", "D2", "D3"}, {"A", "C"});
  ir::State& s = add_state(*g, *g, "s");
  int d1 = access(s, "D1"), d2 = access(s, "D2"), d3 = access(s, "D3");
  edge(s, access(s, "A"), "", d1, "", "A[0:N] -> [0:N]");
  kernel(s, d1, "D1", d2, "D2", "k1");
  kernel(s, d2, "D2", d3, "D3", "k2");
  edge(s, d3, "", access(s, "C"), "", "D3[0:N] -> [0:N]");
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  ASSERT_EQ(plan.items.size(), 4u);
  EXPECT_EQ(plan.streams, 1);
  EXPECT_FALSE(plan.concurrent());
  const char* expected =
      "item 0: copy edge 0 A -> D1 stream 0\n"
      "item 1: kernel 4 \"k1\" stream 0\n"
      "item 2: kernel 7 \"k2\" stream 0\n"
      "item 3: copy edge 9 D3 -> C stream 0\n"
      "streams 1\n";
  EXPECT_EQ(cuda::describe(plan, s), expected);
}

// Two chains H->D copy -> kernel -> D->H copy, then a host tasklet reading both host results:
// the host synchronizes both streams before the tasklet, and nothing else.
TEST(CudaStreams, AHostReadOfCopiedBackDataSynchronizesTheCopiesStreams) {
  auto g = gpu_sdfg("host_read", {"DA", "DB", "EA", "EB"}, {"A", "B", "HA", "HB", "S"});
  ir::State& s = add_state(*g, *g, "s");
  int ha = access(s, "HA"), hb = access(s, "HB");
  for (const auto& [host, dev, out, back, label] :
       {std::tuple{"A", "DA", "EA", ha, "ka"}, std::tuple{"B", "DB", "EB", hb, "kb"}}) {
    int d = access(s, dev), e = access(s, out);
    edge(s, access(s, host), "", d, "", std::string(host) + "[0:N] -> [0:N]");
    kernel(s, d, dev, e, out, label);
    edge(s, e, "", back, "", std::string(out) + "[0:N] -> [0:N]");
  }
  auto [entry, exit] = map(s, {"i"}, "0:N");
  int t = tasklet(s, "c = a + b", {"a", "b"}, {"c"});
  s.node(t)->label = "sum";
  edge_in(s, ha, entry, t, "a", "HA[0:N]", "HA[i]");
  edge_in(s, hb, entry, t, "b", "HB[0:N]", "HB[i]");
  edge_out(s, t, "c", exit, access(s, "S"), "S[i]", "S[0:N]");
  s.node(entry)->label = "host_sum";
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  ASSERT_EQ(plan.items.size(), 6u);
  EXPECT_EQ(plan.streams, 2);
  for (const cuda::WorkItem& item : plan.items) EXPECT_TRUE(item.waits.empty()) << cuda::describe(plan, s);
  ASSERT_EQ(plan.host_waits.size(), 1u) << cuda::describe(plan, s);
  EXPECT_EQ(plan.host_waits[0].node, entry);
  EXPECT_EQ(plan.host_waits[0].streams, (std::vector<int>{0, 1}));
  // The copies back are the host's producers, one per stream.
  const int back_a = plan.item_of_edge(s.in_edges(ha).front()), back_b = plan.item_of_edge(s.in_edges(hb).front());
  ASSERT_TRUE(back_a >= 0 && back_b >= 0);
  EXPECT_NE(plan.items[back_a].stream, plan.items[back_b].stream);
}

// X = A + 1, then two kernels reading X: the first continues X's stream, the second starts
// one of its own after waiting for X's producer.
TEST(CudaStreams, AForkStartsASecondStreamThatWaitsForTheProducer) {
  auto g = gpu_sdfg("fork", {"A", "X", "P", "Q"});
  ir::State& s = add_state(*g, *g, "s");
  int x = access(s, "X");
  kernel(s, access(s, "A"), "A", x, "X", "kx");
  kernel(s, x, "X", access(s, "P"), "P", "kp");
  kernel(s, x, "X", access(s, "Q"), "Q", "kq");
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  const char* expected =
      "item 0: kernel 2 \"kx\" stream 0 records\n"
      "item 1: kernel 6 \"kp\" stream 0\n"
      "item 2: kernel 10 \"kq\" stream 1 waits 0\n"
      "streams 2\n";
  EXPECT_EQ(cuda::describe(plan, s), expected);
}

// Six independent kernels with at most four streams: new chains share them round-robin.
TEST(CudaStreams, IndependentChainsBeyondTheBoundShareStreamsRoundRobin) {
  auto g = gpu_sdfg("six", {"A0", "A1", "A2", "A3", "A4", "A5", "B0", "B1", "B2", "B3", "B4", "B5"});
  ir::State& s = add_state(*g, *g, "s");
  for (int k = 0; k < 6; ++k) {
    const std::string a = "A" + std::to_string(k), b = "B" + std::to_string(k);
    kernel(s, access(s, a), a, access(s, b), b, "k" + std::to_string(k));
  }
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  ASSERT_EQ(plan.items.size(), 6u);
  EXPECT_EQ(plan.streams, 4);
  std::vector<int> streams;
  for (const cuda::WorkItem& item : plan.items) streams.push_back(item.stream);
  EXPECT_EQ(streams, (std::vector<int>{0, 1, 2, 3, 0, 1}));
  EXPECT_EQ(cuda::plan_streams(*g, s, 2, no_device_tasklet).streams, 2);
}

// Library nodes on device operands and claimed C++ tasklets are work items; a host tasklet
// between two kernels is host work ordered by a host wait, not by an event.
TEST(CudaStreams, LibraryNodesAndDeviceTaskletsAreWorkItems) {
  auto g = gpu_sdfg("lib", {"A", "B", "C", "D"}, {"H", "K"});
  ir::State& s = add_state(*g, *g, "s");
  auto lib = std::make_unique<ir::LibraryNode>();
  lib->label = "mm";
  lib->classpath = "dace.libraries.blas.nodes.matmul.MatMul";
  lib->in_connectors["_a"] = ir::DType::of(T::Float64);
  lib->in_connectors["_b"] = ir::DType::of(T::Float64);
  lib->out_connectors["_c"] = ir::DType::of(T::Float64);
  int mm = s.add_node(std::move(lib));
  edge(s, access(s, "A"), "", mm, "_a", "A[0:N]");
  edge(s, access(s, "B"), "", mm, "_b", "B[0:N]");
  int c = access(s, "C");
  edge(s, mm, "_c", c, "", "C[0:N]");
  int blas = tasklet(s, "cublasDdot(...);", {"x"}, {"y"});
  static_cast<ir::Tasklet*>(s.node(blas))->code.language = ir::Language::CPP;
  s.node(blas)->label = "dot";
  edge(s, c, "", blas, "x", "C[0:N]");
  edge(s, blas, "y", access(s, "D"), "", "D[0:N]");
  int host = tasklet(s, "k = h", {"h"}, {"k"});
  edge(s, access(s, "H"), "", host, "h", "H[0]");
  edge(s, host, "k", access(s, "K"), "", "K[0]");
  auto claims_cublas = [](const ir::Tasklet& t) { return t.code.code.rfind("cublas", 0) == 0; };
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, claims_cublas);
  ASSERT_EQ(plan.items.size(), 2u) << cuda::describe(plan, s);
  EXPECT_EQ(plan.items[0].kind, cuda::WorkItem::Kind::Library);
  EXPECT_EQ(plan.items[0].node, mm);
  EXPECT_EQ(plan.items[1].kind, cuda::WorkItem::Kind::Tasklet);
  EXPECT_EQ(plan.items[1].node, blas);
  EXPECT_EQ(plan.items[1].stream, plan.items[0].stream);  // the dot consumes the product's C
  // Without the plugin's claim the C++ tasklet is host work.
  EXPECT_EQ(cuda::plan_streams(*g, s, 4, no_device_tasklet).items.size(), 1u);
}

// The edge binding a view to its data moves nothing: not a copy item, and the kernel reading
// the view continues the stream of the kernel that wrote the data.
TEST(CudaStreams, AViewBindingIsNoCopy) {
  auto g = gpu_sdfg("view", {"A", "X", "B"});
  add_view(*g, "V", T::Float64, {"N"}, {"1"});
  g->arrays.at("V").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  int x = access(s, "X"), v = access(s, "V");
  kernel(s, access(s, "A"), "A", x, "X", "kx");
  edge(s, x, "", v, "", "X[0:N]");
  kernel(s, v, "V", access(s, "B"), "B", "kv");
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  const char* expected =
      "item 0: kernel 3 \"kx\" stream 0\n"
      "item 1: kernel 7 \"kv\" stream 0\n"
      "streams 1\n";
  EXPECT_EQ(cuda::describe(plan, s), expected);
  EXPECT_EQ(plan.items[1].producers, std::vector<int>{0});
}

// X = A + 1 read by kp; an empty memlet X -> B only orders B's readers kq and kr after kx. The
// core emits no copy for it, so it is no copy item (an item never issued would leave kr,
// which opens a stream of its own, waiting for an event nobody records).
TEST(CudaStreams, AnEmptyMemletBetweenAccessNodesOrdersWithoutACopy) {
  auto g = gpu_sdfg("empty_memlet", {"A", "X", "B", "P", "Q", "R"});
  ir::State& s = add_state(*g, *g, "s");
  int x = access(s, "X"), b = access(s, "B");
  kernel(s, access(s, "A"), "A", x, "X", "kx");
  ir::DataflowEdge order;
  order.src = x;
  order.dst = b;
  s.add_edge(std::move(order));
  kernel(s, x, "X", access(s, "P"), "P", "kp");
  kernel(s, b, "B", access(s, "Q"), "Q", "kq");
  kernel(s, b, "B", access(s, "R"), "R", "kr");
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  ASSERT_EQ(plan.items.size(), 4u) << cuda::describe(plan, s);
  for (const cuda::WorkItem& item : plan.items) EXPECT_NE(item.kind, cuda::WorkItem::Kind::Copy) << cuda::describe(plan, s);
  const int kx = plan.item_of_node(node_labelled(s, "kx"));
  for (const char* reader : {"kq", "kr"}) {
    const int r = plan.item_of_node(node_labelled(s, reader));
    ASSERT_GE(r, 0) << reader;
    EXPECT_EQ(plan.items[r].producers, std::vector<int>{kx}) << reader;
  }
}

// Five chains on two streams: a consumer of all of them waits for every producer on another
// stream, not only for the one planned last there (the core may issue them in another order).
TEST(CudaStreams, AConsumerWaitsForEveryProducerOnAnotherStream) {
  auto g = gpu_sdfg("five", {"A0", "A1", "A2", "A3", "A4", "B0", "B1", "B2", "B3", "B4", "Z"});
  ir::State& s = add_state(*g, *g, "s");
  std::vector<int> b;
  for (int k = 0; k < 5; ++k) {
    const std::string in = "A" + std::to_string(k), out = "B" + std::to_string(k);
    b.push_back(access(s, out));
    kernel(s, access(s, in), in, b.back(), out, "k" + std::to_string(k));
  }
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  s.node(entry)->label = "kz";
  int t = tasklet(s, "z = b0 + b1 + b2 + b3 + b4", {"b0", "b1", "b2", "b3", "b4"}, {"z"});
  for (int k = 0; k < 5; ++k) {
    const std::string d = "B" + std::to_string(k);
    edge_in(s, b[k], entry, t, "b" + std::to_string(k), d + "[0:N]", d + "[i]");
  }
  edge_out(s, t, "z", exit, access(s, "Z"), "Z[i]", "Z[0:N]");
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 2, no_device_tasklet);
  const cuda::WorkItem& z = plan.items[plan.item_of_node(entry)];
  ASSERT_EQ(z.producers.size(), 5u) << cuda::describe(plan, s);
  for (int p : z.producers) {
    if (plan.items[p].stream == z.stream) continue;
    EXPECT_NE(std::find(z.waits.begin(), z.waits.end(), p), z.waits.end()) << p << "\n" << cuda::describe(plan, s);
  }
}

// A kernel that gets a host scalar by value which a copy from the device wrote: the host
// synchronizes that copy's stream before the launch reads it.
TEST(CudaStreams, AnItemReadingHostMemoryThatAnItemWroteWaitsOnTheHost) {
  auto g = gpu_sdfg("scalar_back", {"A", "B", "C", "G"}, {"H"});
  ir::State& s = add_state(*g, *g, "s");
  int gnode = access(s, "G"), h = access(s, "H");
  kernel(s, access(s, "A"), "A", gnode, "G", "kg");
  edge(s, gnode, "", h, "", "G[0:N]");
  kernel(s, access(s, "A"), "A", access(s, "C"), "C", "kc");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  s.node(entry)->label = "kb";
  int t = tasklet(s, "b = a + x", {"a", "x"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
  edge_in(s, h, entry, t, "x", "H[0:N]", "H[i]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  cuda::StreamPlan plan = cuda::plan_streams(*g, s, 4, no_device_tasklet);
  ASSERT_TRUE(plan.concurrent()) << cuda::describe(plan, s);
  const int back = plan.item_of_edge(s.in_edges(h).front());
  ASSERT_GE(back, 0) << cuda::describe(plan, s);
  bool waited = false;
  for (const cuda::HostWait& w : plan.host_waits)
    waited = waited || (w.node == entry && w.streams == std::vector<int>{plan.items[back].stream});
  EXPECT_TRUE(waited) << cuda::describe(plan, s);
}

// The same state, planned again or copied, gives the same plan, byte for byte.
TEST(CudaStreams, TheAssignmentIsDeterministic) {
  std::unique_ptr<ir::SDFG> g = join_sdfg();
  const ir::State& s = only_state(*g);
  const std::string first = cuda::describe(cuda::plan_streams(*g, s, 4, no_device_tasklet), s);
  ir::State copy(s);
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(cuda::describe(cuda::plan_streams(*g, s, 4, no_device_tasklet), s), first);
    EXPECT_EQ(cuda::describe(cuda::plan_streams(*g, copy, 4, no_device_tasklet), copy), first);
  }
  const char* expected =
      "item 0: kernel 3 \"ka\" stream 0\n"
      "item 1: kernel 7 \"kb\" stream 1 records\n"
      "item 2: kernel 10 \"kz\" stream 0 waits 1\n"
      "streams 2\n";
  EXPECT_EQ(first, expected);
}

// Every state of the corpus's GPU SDFGs: with one stream everything is on stream 0 with no
// event or host wait; with the default bound the plan is the same when the file is read again,
// every wait names an earlier item on another stream that records its event, and every item
// on a stream shared with a producer comes after it.
TEST(CudaStreams, CorpusGpuStatesArePlannedConsistently) {
  namespace fs = std::filesystem;
  const fs::path corpus = LIBDACE_CORPUS_DIR;
  if (!fs::is_directory(corpus)) GTEST_SKIP() << "no SDFG corpus at " << corpus;
  std::vector<fs::path> files;
  for (const auto& dir : fs::directory_iterator(corpus)) {
    const fs::path file = dir.path() / (dir.path().filename().string() + ".gpu.sdfg");
    if (fs::exists(file)) files.push_back(file);
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << "no *.gpu.sdfg in " << corpus;
  size_t planned = 0;
  for (const fs::path& file : files) {
    auto first = ir::json::read_sdfg_file(file.string());
    auto again = ir::json::read_sdfg_file(file.string());
    ASSERT_TRUE(first.ok() && again.ok()) << file;
    const ir::SDFG& g = **first;
    const ir::SDFG& g_again = **again;
    const std::vector<const ir::State*> states = g.all_states(), states_again = g_again.all_states();
    ASSERT_EQ(states.size(), states_again.size());
    for (size_t k = 0; k < states.size(); ++k) {
      const ir::State& s = *states[k];
      const cuda::StreamPlan one = cuda::plan_streams(g, s, 1, no_device_tasklet);
      EXPECT_LE(one.streams, 1) << file;
      EXPECT_TRUE(one.host_waits.empty()) << file;
      for (const cuda::WorkItem& item : one.items) EXPECT_TRUE(item.stream == 0 && item.waits.empty()) << file;
      const cuda::StreamPlan plan = cuda::plan_streams(g, s, cuda::kDefaultMaxStreams, no_device_tasklet);
      EXPECT_EQ(cuda::describe(plan, s),
                cuda::describe(cuda::plan_streams(g_again, *states_again[k], cuda::kDefaultMaxStreams, no_device_tasklet),
                               *states_again[k]))
          << file;
      EXPECT_EQ(plan.items.size(), one.items.size()) << file;
      EXPECT_LE(plan.streams, cuda::kDefaultMaxStreams) << file;
      for (size_t i = 0; i < plan.items.size(); ++i) {
        const cuda::WorkItem& item = plan.items[i];
        for (int p : item.producers) EXPECT_LT(p, static_cast<int>(i)) << file;
        for (int w : item.waits) {
          EXPECT_NE(plan.items[static_cast<size_t>(w)].stream, item.stream) << file;
          EXPECT_TRUE(plan.items[static_cast<size_t>(w)].records_event) << file;
        }
      }
      planned += plan.items.size();
      if (plan.concurrent())
        std::printf("%s state \"%s\": %zu items on %d streams\n", file.filename().c_str(), s.label.c_str(),
                    plan.items.size(), plan.streams);
    }
  }
  EXPECT_GT(planned, 0u) << "no GPU work found in the corpus's GPU SDFGs";
}

}  // namespace
}  // namespace dace::codegen::testing
