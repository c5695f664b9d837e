// C-API op sequences: the input bytes choose a sequence of builder and edit calls from small
// tables of names and texts, valid and invalid alike: symbols, arrays, scalars, transients,
// states, loops, conditionals and their branches, break/continue/return, mapped and plain
// tasklets, access nodes, maps, edges between any nodes and connectors, interstate edges;
// edits (memlets, code, map ranges, labels, shapes, conditions, assignments, schedules) and
// removals (nodes, edges, blocks, data, symbols, connectors). Every call returns a status,
// never crashes. Invariants checked along the way: a clone is equal to its SDFG and has its
// hash; saving to a buffer and loading it back gives an equal SDFG. Transformations and
// simplify run on clones. At the end the SDFG is compiled with options the bytes choose
// (valid or not: unknown versions, optimizers, opt levels, thread counts, unwritable cache
// and dump folders) whether or not it validates; what compiles is called with small
// symbols (with bounds_check on, so that subsets past the arrays stop the call instead of
// corrupting this process), every array allocated to the shape the program reports. Only
// the public header is used.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_common.h"
#include "libdace.h"

namespace {

struct Bytes {
  const uint8_t* data;
  size_t size, pos = 0;
  bool done() const { return pos >= size; }
  uint8_t next() { return pos < size ? data[pos++] : 0; }
  template <size_t N>
  const char* pick(const char* const (&table)[N]) { return table[next() % N]; }
};

const char* const kSymbols[] = {"N", "M", "K"};
const char* const kArrays[] = {"A", "B", "C", "T", "1x", "True"};
const char* const kShapes[] = {"N", "M", "N, M", "4", "N + 1", "0", "-1", "N - M", "K"};
const char* const kStates[] = {"s0", "s1", "s2", "1bad"};
const char* const kRanges[] = {"i=0:N", "i=0:M", "i=1:N", "i=0:N, j=0:M", "i=0:N:2", "i=N:0:-1", "i=0:K", "i=0:"};
const char* const kInputs[] = {"a: A[i]", "a: A[i + 1]", "a: B[i]", "a: A[i, j]", "", "a: T[i]", "a: A[i - K]",
                               "a: A[0:N]", "a: C[j]"};
const char* const kCode[] = {"b = a", "b = a * 2 + 1", "b = 0", "b = a[1]", "b = ", "b = math.sqrt(a)"};
const char* const kOutputs[] = {"b: B[i]", "b: C[i]", "b: T[i]", "b: A[i, j]", "b: B[i + K]", "b: B[0]", ""};
const char* const kWcr[] = {nullptr, "sum", "max", "lambda a, b: a * b"};
const char* const kMemlets[] = {"A[0:N] -> [0:N]", "A", "B[1:N]", "A[K:N] -> [0:N - K]", "A[0:N, 0:M]", "",
                                "C[0:M] -> [0:M]", "T[0]"};
const char* const kConditions[] = {nullptr, "N > 2", "K", "1 +", "M == N"};
const char* const kAssignments[] = {nullptr, "K=N", "K=K + 1", "N=3", "=", "j=K * 2"};
const dace_schedule_t kSchedules[] = {DACE_SCHEDULE_DEFAULT, DACE_SCHEDULE_SEQUENTIAL, DACE_SCHEDULE_CPU_MULTICORE};
const char* const kLoopVars[] = {"i", "k", "N", "1x", ""};
const char* const kLoopInits[] = {nullptr, "i = 0", "k = N - 1", "i =", "K = 2"};
const char* const kLoopConditions[] = {"i < N", "k >= 0", "i <", "", "K < 4", "True"};
const char* const kLoopUpdates[] = {nullptr, "i = i + 1", "k = k - 1", "i = i +", "K = K * 2"};
const char* const kLabels[] = {"t", "m", "1x", "", "True", "a b"};
const char* const kConnectors[] = {nullptr, "a", "b", "IN_A", "OUT_A", "1x", ""};
const char* const kConnectorTypes[] = {nullptr, "float64", "float64*", "int32", "bogus", ""};
const char* const kTaskletInputs[] = {"a", "a, c", "", "1x", "a: float64", "a, a"};
const char* const kTaskletOutputs[] = {"b", "b, d", "", "b: int64", "b, b"};
const char* const kMapRanges[] = {"i=0:N", "i=0:N, j=0:M", "", "i=0:", "i=N:0:-1", "1x=0:N", "i=0:N:0"};
const char* const kOptimizers[] = {nullptr, "", "simplify", "nope", "MapFusion", "auto_optimize"};
const char* const kFolders[] = {nullptr, "", "/proc/no/such/folder", "/dev/null"};
const uint32_t kOptionVersions[] = {DACE_COMPILE_OPTIONS_VERSION, 1, 2, 4, 0, 99};

// Compile options from the bytes: valid ones mostly, else out-of-range levels and thread
// counts, unknown versions and optimizers, folders that cannot be written.
dace_compile_options_t pick_options(Bytes& in) {
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 0;
  o.tiered = 0;
  o.bounds_check = 1;
  const uint8_t mode = in.next();
  if (mode % 4 != 0) return o;  // the usual case: valid options
  const uint32_t version = kOptionVersions[in.next() % (sizeof kOptionVersions / sizeof *kOptionVersions)];
  if (dace_compile_options_init(&o, version) != DACE_OK) o.version = version;  // refused: keep it anyway
  const int32_t levels[] = {0, 1, -5, 99};
  o.opt_level = levels[in.next() % 4];
  const int32_t threads[] = {0, 1, -1, 1 << 20};
  o.num_threads = threads[in.next() % 4];
  o.optimize = in.pick(kOptimizers);
  o.cache_dir = in.pick(kFolders);
  o.dump_dir = in.next() % 4 == 0 ? "/proc/no/such/folder" : nullptr;
  o.tiered = 0;  // a background compile would outlive the input
  o.wait_optimized = in.next() % 2;
  o.bounds_check = 1;  // calls must not write outside the arrays
  return o;
}

void run_program(dace_context_t* ctx, dace_sdfg_t* sdfg, Bytes& in, bool call) {
  dace_compile_options_t o = pick_options(in);
  dace_program_t* p = nullptr;
  if (dace_program_compile(&p, ctx, sdfg, &o) != DACE_OK) {
    if (p) dace::fuzz::finding("a failed compile returned a program", "");
    return;
  }
  if (!o.bounds_check || !call) {
    dace_program_release(p);
    return;
  }
  int32_t count = 0;
  if (dace_program_argument_count(&count, p) != DACE_OK || count > 16) {
    dace_program_release(p);
    return;
  }
  const char* sym_names[3] = {"N", "M", "K"};
  const int64_t sym_values[3] = {3, 4, 1};
  std::vector<dace_arg_t> args(static_cast<size_t>(count));
  std::vector<std::vector<double>> buffers;
  std::vector<std::vector<int64_t>> shapes;
  buffers.reserve(args.size());
  shapes.reserve(args.size());
  bool ok = true;
  for (int32_t i = 0; i < count && ok; ++i) {
    const char* name = nullptr;
    int32_t kind = 0;
    dace_dtype_t dtype{};
    ok = dace_program_argument_info(&name, &kind, &dtype, p, i) == DACE_OK;
    if (!ok) break;
    dace_arg_t& a = args[static_cast<size_t>(i)];
    if (kind == DACE_ARGUMENT_ARRAY) {
      int64_t shape[8];
      size_t ndim = 0;
      ok = dace_program_argument_shape(shape, 8, &ndim, p, i, sym_names, sym_values, 3) == DACE_OK && ndim <= 8;
      int64_t elems = 1;
      for (size_t d = 0; ok && d < ndim; ++d) {
        if (shape[d] < 0 || shape[d] > 64) ok = false;
        else elems *= shape[d];
      }
      if (!ok || dtype != DACE_FLOAT64) {
        ok = false;
        break;
      }
      buffers.emplace_back(static_cast<size_t>(elems) + 1, 1.0);
      shapes.emplace_back(shape, shape + ndim);
      a.kind = DACE_ARG_ARRAY;
      a.value.array = {buffers.back().data(), dtype, static_cast<int32_t>(ndim), shapes.back().data(), nullptr};
    } else if (kind == DACE_ARGUMENT_SYMBOL) {
      a.kind = DACE_ARG_SYMBOL;
      a.value.i = 3;
      for (int s = 0; s < 3; ++s)
        if (std::string(name) == sym_names[s]) a.value.i = sym_values[s];
    } else {
      a.kind = DACE_ARG_FLOAT;
      a.value.f = 0.5;
    }
  }
  if (ok) (void)dace_program_call(p, nullptr, args.data(), count);
  dace_program_release(p);
}

// The SDFG under construction and the ids its calls returned.
struct Built {
  dace_sdfg_t* sdfg = nullptr;
  std::vector<dace_id_t> regions{DACE_ROOT_REGION};  // where blocks go: root, loops, branches
  std::vector<dace_id_t> blocks;
  std::vector<dace_id_t> states;
  std::vector<dace_id_t> conditionals;
  std::vector<std::pair<dace_id_t, dace_id_t>> nodes;             // state, node
  std::vector<std::pair<dace_id_t, dace_id_t>> edges;             // state, edge
  std::vector<std::pair<dace_id_t, dace_id_t>> interstate_edges;  // region, edge
  // A loop region or an interstate edge back to an earlier block: the program may run
  // forever (as it would in DaCe), so it is compiled but not called.
  bool may_loop = false;

  template <class T>
  static T any(const std::vector<T>& v, Bytes& in) { return v[in.next() % v.size()]; }
};

// A clone is equal and hashes the same; a buffer round trip gives an equal SDFG.
void check_copies(const dace_sdfg_t* sdfg) {
  dace_sdfg_t* copy = nullptr;
  if (dace_sdfg_clone(&copy, sdfg) == DACE_OK) {
    int32_t equal = 0;
    const char* diff = nullptr;
    if (dace_sdfg_equal(&equal, &diff, sdfg, copy) != DACE_OK || !equal)
      dace::fuzz::finding(std::string("clone differs: ") + (diff ? diff : "(no difference text)"), "");
    char h1[65] = {0}, h2[65] = {0};
    const dace_status_t s1 = dace_sdfg_hash(h1, sdfg), s2 = dace_sdfg_hash(h2, copy);
    if (s1 != s2 || (s1 == DACE_OK && std::string(h1) != h2)) dace::fuzz::finding("clone hashes differently", "");
    dace_sdfg_release(copy);
  }
  void* data = nullptr;
  size_t size = 0;
  if (dace_sdfg_save_buffer(&data, &size, sdfg, nullptr) != DACE_OK) return;
  dace_sdfg_t* back = nullptr;
  if (dace_sdfg_load_buffer(&back, data, size) == DACE_OK) {
    int32_t equal = 0;
    const char* diff = nullptr;
    if (dace_sdfg_equal(&equal, &diff, sdfg, back) != DACE_OK || !equal)
      dace::fuzz::finding(std::string("saved and loaded SDFG differs: ") + (diff ? diff : ""),
                    std::string_view(static_cast<const char*>(data), size));
    dace_sdfg_release(back);
  }
  dace_buffer_free(data);
}

// Transformations and simplify on a clone: statuses only (the SDFG may be invalid).
void transform_clone(const dace_sdfg_t* sdfg, Bytes& in) {
  dace_sdfg_t* copy = nullptr;
  if (dace_sdfg_clone(&copy, sdfg) != DACE_OK) return;
  size_t count = 0;
  if (in.next() % 2 == 0) {
    (void)dace_sdfg_simplify(copy);
  } else if (dace_sdfg_transformation_count(&count) == DACE_OK && count > 0) {
    const char* name = nullptr;
    if (dace_sdfg_transformation_name(&name, in.next() % count) == DACE_OK)
      (void)dace_sdfg_apply_transformation(copy, name, in.next() % 4 == 0 ? "{\"bad\": " : nullptr);
  }
  (void)dace_sdfg_validate(copy);
  dace_sdfg_release(copy);
}

void one_op(Built& g, Bytes& in) {
  dace_sdfg_t* sdfg = g.sdfg;
  switch (in.next() % 32) {
    case 0: (void)dace_sdfg_add_symbol(sdfg, in.pick(kSymbols), DACE_INT64); break;
    case 1: (void)dace_sdfg_add_array(sdfg, in.pick(kArrays), DACE_FLOAT64, in.pick(kShapes), nullptr); break;
    case 2: (void)dace_sdfg_add_transient(sdfg, in.pick(kArrays), DACE_FLOAT64, in.pick(kShapes), nullptr); break;
    case 3: {
      dace_id_t s = -1;
      if (dace_sdfg_add_state(&s, sdfg, Built::any(g.regions, in), in.pick(kStates)) == DACE_OK) {
        g.states.push_back(s);
        g.blocks.push_back(s);
      }
      break;
    }
    case 4: {
      if (g.states.empty()) break;
      dace_id_t s = Built::any(g.states, in);
      dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
      o.external_edges = 1;
      o.schedule = kSchedules[in.next() % 3];
      o.output_wcr = in.pick(kWcr);
      dace_id_t t = -1;
      const char* range = in.pick(kRanges);
      const char* input = in.pick(kInputs);
      const char* code = in.pick(kCode);
      if (dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, s, "t", range, input, code, in.pick(kOutputs),
                                        &o) == DACE_OK)
        g.nodes.push_back({s, t});
      break;
    }
    case 5: {
      if (g.states.empty()) break;
      dace_id_t s = Built::any(g.states, in);
      dace_id_t a = -1, b = -1, e = -1;
      if (dace_state_add_access(&a, sdfg, s, in.pick(kArrays)) != DACE_OK) break;
      g.nodes.push_back({s, a});
      if (dace_state_add_access(&b, sdfg, s, in.pick(kArrays)) != DACE_OK) break;
      g.nodes.push_back({s, b});
      if (dace_state_add_edge(&e, sdfg, s, a, nullptr, b, nullptr, in.pick(kMemlets), nullptr) == DACE_OK)
        g.edges.push_back({s, e});
      break;
    }
    case 6: {
      if (g.blocks.size() < 2) break;
      dace_id_t x = Built::any(g.blocks, in), y = Built::any(g.blocks, in);
      const char* cond = in.pick(kConditions);
      dace_id_t e = -1, r = -1;
      if (dace_sdfg_add_interstate_edge(&e, &r, sdfg, x, y, cond, in.pick(kAssignments)) == DACE_OK) {
        g.interstate_edges.push_back({r, e});
        if (y <= x) g.may_loop = true;  // blocks get increasing ids: only such an edge closes a cycle
      }
      break;
    }
    case 7: {
      if (g.nodes.empty()) break;
      auto [s, n] = Built::any(g.nodes, in);
      (void)dace_state_remove_node(sdfg, s, n);
      break;
    }
    case 8: (void)dace_sdfg_remove_data(sdfg, in.pick(kArrays)); break;
    case 9: {
      if (g.blocks.empty()) break;
      (void)dace_block_set_label(sdfg, Built::any(g.blocks, in), in.pick(kStates));
      break;
    }
    case 10: (void)dace_sdfg_add_scalar(sdfg, in.pick(kArrays), DACE_FLOAT64, nullptr); break;
    case 11: {
      dace_id_t loop = -1;
      const char* var = in.pick(kLoopVars);
      const char* init = in.pick(kLoopInits);
      const char* cond = in.pick(kLoopConditions);
      if (dace_sdfg_add_loop(&loop, sdfg, Built::any(g.regions, in), nullptr, var, init, cond, in.pick(kLoopUpdates),
                             in.next() % 2) == DACE_OK) {
        g.regions.push_back(loop);
        g.blocks.push_back(loop);
        g.may_loop = true;
      }
      break;
    }
    case 12: {
      dace_id_t c = -1;
      if (dace_sdfg_add_conditional(&c, sdfg, Built::any(g.regions, in), nullptr) == DACE_OK) {
        g.conditionals.push_back(c);
        g.blocks.push_back(c);
      }
      break;
    }
    case 13: {
      if (g.conditionals.empty()) break;
      dace_id_t r = -1;
      if (dace_conditional_add_branch(&r, sdfg, Built::any(g.conditionals, in), in.pick(kConditions)) == DACE_OK)
        g.regions.push_back(r);
      break;
    }
    case 14: {
      dace_id_t b = -1, parent = Built::any(g.regions, in);
      const uint8_t which = in.next() % 3;
      const dace_status_t st = which == 0   ? dace_sdfg_add_break(&b, sdfg, parent, nullptr)
                               : which == 1 ? dace_sdfg_add_continue(&b, sdfg, parent, nullptr)
                                            : dace_sdfg_add_return(&b, sdfg, parent, nullptr);
      if (st == DACE_OK) g.blocks.push_back(b);
      break;
    }
    case 15: {
      if (g.blocks.empty()) break;
      (void)dace_sdfg_remove_block(sdfg, Built::any(g.blocks, in));  // ids of what was inside go stale
      break;
    }
    case 16: {
      if (g.states.empty()) break;
      dace_id_t s = Built::any(g.states, in), t = -1;
      const char* inputs = in.pick(kTaskletInputs);
      const char* outputs = in.pick(kTaskletOutputs);
      const dace_language_t lang = in.next() % 5 == 0 ? DACE_LANGUAGE_CPP : DACE_LANGUAGE_PYTHON;
      if (dace_state_add_tasklet(&t, sdfg, s, in.pick(kLabels), inputs, outputs, in.pick(kCode), lang) == DACE_OK)
        g.nodes.push_back({s, t});
      break;
    }
    case 17: {
      if (g.states.empty()) break;
      dace_id_t s = Built::any(g.states, in), entry = -1, exit = -1;
      dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
      o.schedule = kSchedules[in.next() % 3];
      if (dace_state_add_map(&entry, &exit, sdfg, s, in.pick(kLabels), in.pick(kMapRanges), &o) == DACE_OK) {
        g.nodes.push_back({s, entry});
        g.nodes.push_back({s, exit});
      }
      break;
    }
    case 18: {  // an edge between any two nodes of one state
      if (g.nodes.empty()) break;
      auto [s, a] = Built::any(g.nodes, in);
      auto [s2, b] = Built::any(g.nodes, in);
      if (s2 != s) b = a;
      dace_id_t e = -1;
      const char* sc = in.pick(kConnectors);
      const char* dc = in.pick(kConnectors);
      dace_memlet_options_t mo = DACE_MEMLET_OPTIONS_INIT;
      mo.wcr = in.pick(kWcr);
      mo.dynamic = in.next() % 2;
      if (dace_state_add_edge(&e, sdfg, s, a, sc, b, dc, in.pick(kMemlets), &mo) == DACE_OK) g.edges.push_back({s, e});
      break;
    }
    case 19: {
      if (g.edges.empty()) break;
      auto [s, e] = Built::any(g.edges, in);
      (void)dace_state_remove_edge(sdfg, s, e);
      break;
    }
    case 20: {
      if (g.edges.empty()) break;
      auto [s, e] = Built::any(g.edges, in);
      (void)dace_edge_set_memlet(sdfg, s, e, in.pick(kMemlets), nullptr);
      break;
    }
    case 21: {
      if (g.nodes.empty()) break;
      auto [s, n] = Built::any(g.nodes, in);
      (void)dace_node_set_code(sdfg, s, n, in.pick(kCode), DACE_LANGUAGE_PYTHON);
      break;
    }
    case 22: {
      if (g.nodes.empty()) break;
      auto [s, n] = Built::any(g.nodes, in);
      (void)dace_node_set_map_ranges(sdfg, s, n, in.pick(kMapRanges));
      break;
    }
    case 23: {
      if (g.nodes.empty()) break;
      auto [s, n] = Built::any(g.nodes, in);
      (void)dace_node_set_label(sdfg, s, n, in.pick(kLabels));
      break;
    }
    case 24: {
      if (g.nodes.empty()) break;
      auto [s, n] = Built::any(g.nodes, in);
      const int32_t out = in.next() % 2;
      const char* c = in.pick(kConnectors);
      if (in.next() % 2) (void)dace_node_remove_connector(sdfg, s, n, out, c);
      else if (out) (void)dace_node_add_out_connector(sdfg, s, n, c, in.pick(kConnectorTypes));
      else (void)dace_node_add_in_connector(sdfg, s, n, c, in.pick(kConnectorTypes));
      break;
    }
    case 25: {
      if (g.nodes.empty()) break;
      auto [s, n] = Built::any(g.nodes, in);
      (void)dace_node_set_schedule(sdfg, s, n, kSchedules[in.next() % 3]);
      break;
    }
    case 26: (void)dace_data_set_shape(sdfg, in.pick(kArrays), in.pick(kShapes)); break;
    case 27: (void)dace_sdfg_remove_symbol(sdfg, in.pick(kSymbols)); break;
    case 28: {
      if (g.interstate_edges.empty()) break;
      auto [r, e] = Built::any(g.interstate_edges, in);
      const uint8_t which = in.next() % 3;
      if (which == 0) (void)dace_interstate_edge_set_condition(sdfg, r, e, in.pick(kConditions));
      else if (which == 1) (void)dace_interstate_edge_set_assignments(sdfg, r, e, in.pick(kAssignments));
      else (void)dace_interstate_edge_remove(sdfg, r, e);
      break;
    }
    case 29: (void)dace_sdfg_set_name(sdfg, in.pick(kLabels)); break;
    case 30: check_copies(sdfg); break;
    default: transform_clone(sdfg, in); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static dace_context_t* ctx = [] {
    dace_context_t* c = nullptr;
    if (dace_context_create(&c) != DACE_OK) std::abort();
    return c;
  }();
  if (size > 256) return 0;
  Bytes in{data, size};
  Built g;
  if (dace_sdfg_create(&g.sdfg, in.next() % 8 == 0 ? "True" : "fuzz") != DACE_OK) return 0;
  // The last bytes choose the compile options; the rest the calls.
  while (in.size - in.pos > 6) one_op(g, in);
  (void)dace_sdfg_validate(g.sdfg);
  check_copies(g.sdfg);
  run_program(ctx, g.sdfg, in, !g.may_loop);
  dace_sdfg_release(g.sdfg);
  return 0;
}
