// C-API op sequences: the input bytes choose a sequence of builder calls (symbols, arrays,
// transients, states, mapped tasklets, copies, interstate edges, removals) from small tables
// of names and texts, valid and invalid alike. Every call returns a status, never crashes;
// an SDFG that validates is compiled (with bounds_check, so that subsets past the arrays
// stop the call instead of corrupting this process) and called with small symbols, with
// every array allocated to the shape the program reports. Only the public header is used.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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

void run_program(dace_context_t* ctx, dace_sdfg_t* sdfg) {
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 0;
  o.tiered = 0;
  o.bounds_check = 1;
  dace_program_t* p = nullptr;
  if (dace_program_compile(&p, ctx, sdfg, &o) != DACE_OK) return;
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static dace_context_t* ctx = [] {
    dace_context_t* c = nullptr;
    if (dace_context_create(&c) != DACE_OK) std::abort();
    return c;
  }();
  if (size > 256) return 0;
  Bytes in{data, size};
  dace_sdfg_t* sdfg = nullptr;
  if (dace_sdfg_create(&sdfg, in.next() % 8 == 0 ? "True" : "fuzz") != DACE_OK) return 0;
  std::vector<dace_id_t> states;
  std::vector<std::pair<dace_id_t, dace_id_t>> nodes;  // state, node
  while (!in.done()) {
    switch (in.next() % 10) {
      case 0: (void)dace_sdfg_add_symbol(sdfg, in.pick(kSymbols), DACE_INT64); break;
      case 1: (void)dace_sdfg_add_array(sdfg, in.pick(kArrays), DACE_FLOAT64, in.pick(kShapes), nullptr); break;
      case 2: (void)dace_sdfg_add_transient(sdfg, in.pick(kArrays), DACE_FLOAT64, in.pick(kShapes), nullptr); break;
      case 3: {
        dace_id_t s = -1;
        if (dace_sdfg_add_state(&s, sdfg, DACE_ROOT_REGION, in.pick(kStates)) == DACE_OK) states.push_back(s);
        break;
      }
      case 4: {
        if (states.empty()) break;
        dace_id_t s = states[in.next() % states.size()];
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
          nodes.push_back({s, t});
        break;
      }
      case 5: {
        if (states.empty()) break;
        dace_id_t s = states[in.next() % states.size()];
        dace_id_t a = -1, b = -1;
        if (dace_state_add_access(&a, sdfg, s, in.pick(kArrays)) != DACE_OK) break;
        nodes.push_back({s, a});
        if (dace_state_add_access(&b, sdfg, s, in.pick(kArrays)) != DACE_OK) break;
        nodes.push_back({s, b});
        (void)dace_state_add_edge(nullptr, sdfg, s, a, nullptr, b, nullptr, in.pick(kMemlets), nullptr);
        break;
      }
      case 6: {
        if (states.size() < 2) break;
        dace_id_t x = states[in.next() % states.size()], y = states[in.next() % states.size()];
        const char* cond = in.pick(kConditions);
        (void)dace_sdfg_add_interstate_edge(nullptr, nullptr, sdfg, x, y, cond, in.pick(kAssignments));
        break;
      }
      case 7: {
        if (nodes.empty()) break;
        auto [s, n] = nodes[in.next() % nodes.size()];
        (void)dace_state_remove_node(sdfg, s, n);
        break;
      }
      case 8: (void)dace_sdfg_remove_data(sdfg, in.pick(kArrays)); break;
      default: {
        if (states.empty()) break;
        (void)dace_block_set_label(sdfg, states[in.next() % states.size()], in.pick(kStates));
        break;
      }
    }
  }
  if (dace_sdfg_validate(sdfg) == DACE_OK) run_program(ctx, sdfg);
  dace_sdfg_release(sdfg);
  return 0;
}
