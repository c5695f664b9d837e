// Property readers of nodes and memlets, shared by the usual way of reading a state's
// elements (Attrs over the element's DOM, read_state.cpp) and the fast way (SpanAttrs over
// its text, fast_elements.cpp): one definition of what each element reads, in which order,
// with which defaults. `A` is Attrs or SpanAttrs.
#pragma once
#include "ir/json/json_internal.h"

namespace dace::ir::json::detail {

// Readers into out-of-line members: the value is stored only when it is not the default.
template <class A>
Status read_debuginfo(A& a, OutOfLine<DebugInfo>& out, const ReadContext& ctx) {
  DebugInfo d;
  DACE_TRY(a.debuginfo("debuginfo", d, ctx));
  out = std::move(d);
  return {};
}

template <class A>
Status read_guid(A& a, OutOfLine<std::string>& out) {
  std::string guid;
  DACE_TRY(a.str("guid", guid));
  out = std::move(guid);
  return {};
}

template <class A>
Status read_code(A& a, std::string_view key, OutOfLine<CodeBlock, EmptyCppCode>& out) {
  CodeBlock c = out;
  DACE_TRY(a.code(key, c));
  out = std::move(c);
  return {};
}

template <class A>
Status read_common(A& a, Node& n, const ReadContext& ctx) {
  DACE_TRY(a.connectors("in_connectors", n.in_connectors));
  DACE_TRY(a.connectors("out_connectors", n.out_connectors));
  DACE_TRY(read_debuginfo(a, n.debuginfo, ctx));
  DACE_TRY(read_guid(a, n.guid));
  return {};
}

template <class A>
Status read_map(A& a, MapEntry& n) {
  MapScope& m = n.map;
  DACE_TRY(a.str("label", n.label));
  DACE_TRY(a.string_list("params", m.params));
  DACE_TRY(a.subset("range", m.range));
  if (m.range.rank() != m.params.size())
    return a.error("range", "has " + std::to_string(m.range.rank()) + " dimensions for " +
                                std::to_string(m.params.size()) + " parameters");
  DACE_TRY(a.schedule("schedule", m.schedule));
  DACE_TRY(a.boolean("unroll", m.unroll));
  DACE_TRY(a.integer("collapse", m.collapse));
  DACE_TRY(a.integer("omp_num_threads", m.omp_num_threads));
  DACE_TRY(a.omp_schedule("omp_schedule", m.omp_schedule));
  DACE_TRY(a.integer("omp_chunk_size", m.omp_chunk_size));
  DACE_TRY(a.expr_list("gpu_block_size", m.gpu_block_size));
  return {};
}

template <class A>
Status read_tasklet(A& a, Tasklet& n) {
  DACE_TRY(a.str("label", n.label));
  DACE_TRY(a.code("code", n.code));
  DACE_TRY(read_code(a, "code_global", n.code_global));
  DACE_TRY(read_code(a, "code_init", n.code_init));
  DACE_TRY(read_code(a, "code_exit", n.code_exit));
  DACE_TRY(a.boolean("side_effects", n.side_effects));
  return {};
}

// The unconsumed properties as extras: Attrs cannot fail here, SpanAttrs can refuse.
inline Status collect_extras(Attrs& a, ExtraProperties& out) {
  a.collect_extras(out);
  return {};
}
template <class A>
Status collect_extras(A& a, ExtraProperties& out) {
  return a.collect_extras(out);
}

// The `attributes` of a Memlet.
template <class A>
Status read_memlet_attributes(A& a, Memlet& m, const ReadContext& ctx) {
  // DaCe's default volume is 0 ("unknown"), which files omit for dynamic memlets.
  m.volume = sym::integer(0);
  DACE_TRY(a.expr("volume", m.volume));
  DACE_TRY(a.boolean("dynamic", m.dynamic));
  DACE_TRY(a.subset("subset", m.subset));
  bool has_other = false;
  sym::Subset other;
  DACE_TRY(a.subset("other_subset", other, &has_other));
  if (has_other) m.other_subset = std::move(other);
  DACE_TRY(a.str("data", m.data));
  std::string wcr;
  DACE_TRY(a.str("wcr", wcr));
  m.wcr = std::move(wcr);
  DACE_TRY(read_debuginfo(a, m.debuginfo, ctx));
  DACE_TRY(a.boolean("wcr_nonatomic", m.wcr_nonatomic));
  DACE_TRY(a.boolean("allow_oob", m.allow_oob));
  DACE_TRY(read_guid(a, m.guid));
  DACE_TRY(a.strict_boolean("is_data_src", m.is_data_src));
  // Derived from the others; recomputed on writing.
  a.skip("src_subset");
  a.skip("dst_subset");
  a.skip("num_accesses");
  return collect_extras(a, m.extra);
}

}  // namespace dace::ir::json::detail
