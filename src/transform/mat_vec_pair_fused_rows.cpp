#include "transform/mat_vec_pair_fused_rows.h"

#include <optional>
#include <set>
#include <utility>

#include "transform/access_sets.h"
#include "transform/blas_classes.h"
#include "transform/block_placement.h"
#include "transform/mat_vec_pair_match.h"

namespace dace::transform {
namespace {

constexpr const char* kSum = "lambda a, b: a + b";
constexpr const char* kReduceClass = "dace.libraries.standard.nodes.reduce.Reduce";
// Rows per pass of the row-group map (the rest of a chunk, up to 3 rows, goes one row at a
// time). 4 rows ran atax at S on one thread in 21-39 ms against 22-41 ms with 2 and 37-56 ms
// for the two ?gemv calls (interleaved runs, loaded VM).
constexpr int kGroupRows = 4;

// Why `t` cannot be dropped: another access node of it in any state of the SDFG, or a name in
// its interstate code; empty when it can.
std::string other_use_of(const ir::SDFG& sdfg, const ir::State& state, int temp, const std::string& t) {
  for (const ir::State* s : sdfg.all_states())
    for (int id : s->node_ids()) {
      const ir::Node* n = s->node(id);
      if (n->kind != ir::NodeKind::Access || static_cast<const ir::AccessNode*>(n)->data != t) continue;
      if (s != &state || id != temp) return "\"" + t + "\" is accessed elsewhere (state \"" + s->label + "\")";
    }
  std::set<std::string> names;
  collect_region_code_names(sdfg, names);
  if (names.count(t)) return "\"" + t + "\" is named by interstate code";
  return "";
}

std::string problem(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int first,
                    std::optional<MatVecPair>* out) {
  std::string why;
  std::optional<MatVecPair> p = match_mat_vec_pair(sdfg, state, scopes, first, &why);
  if (!p) return why;
  if (std::string w = other_use_of(sdfg, state, p->temp, p->t); !w.empty()) return w;
  *out = std::move(p);
  return "";
}

// A fresh container name starting with `base`.
std::string fresh_container(const ir::SDFG& sdfg, const std::string& base) {
  std::string name = base;
  for (int k = 1; sdfg.arrays.count(name) || sdfg.symbols.count(name); ++k) name = base + std::to_string(k);
  return name;
}

// Builds the new nodes of one state.
struct Builder {
  ir::State& state;

  std::pair<int, int> map(const std::string& label, std::vector<std::string> params, std::vector<sym::Range> ranges,
                          ir::ScheduleType schedule) {
    auto entry = std::make_unique<ir::MapEntry>();
    entry->label = label;
    entry->map.params = std::move(params);
    entry->map.range.dims = std::move(ranges);
    entry->map.schedule = schedule;
    const int e = state.add_node(std::move(entry));
    auto exit = std::make_unique<ir::MapExit>();
    exit->label = label;
    exit->entry = e;
    return {e, state.add_node(std::move(exit))};
  }
  // A memlet through a scope node: connectors IN_<data> and OUT_<data>.
  void pass_through(int scope_node, const std::string& data) {
    ir::Node* n = state.node(scope_node);
    n->in_connectors["IN_" + data] = ir::DType{};
    n->out_connectors["OUT_" + data] = ir::DType{};
  }
  int tasklet(const std::string& label, const std::string& code, const std::vector<std::string>& inputs,
              const std::vector<std::string>& outputs) {
    auto t = std::make_unique<ir::Tasklet>();
    t->label = label;
    t->code = ir::CodeBlock{code, ir::Language::Python};
    for (const std::string& in : inputs) t->in_connectors[in] = ir::DType{};
    for (const std::string& out : outputs) t->out_connectors[out] = ir::DType{};
    return state.add_node(std::move(t));
  }
  int access(const std::string& data) {
    auto a = std::make_unique<ir::AccessNode>();
    a->label = data;
    a->data = data;
    return state.add_node(std::move(a));
  }
  void edge(int src, const std::string& src_conn, int dst, const std::string& dst_conn, ir::Memlet m) {
    state.add_edge(ir::DataflowEdge{src, dst, src_conn, dst_conn, std::move(m)});
  }
  // An empty memlet: orders `dst` after `src`, or puts `dst` into the scope `src` opens.
  void order(int src, int dst) { edge(src, "", dst, "", ir::Memlet{}); }
};

// One Sequential map inside the chunk map: iteration `k` of `range` takes the `group` rows
// base + group*k + r (r < group): their dot products with x in one pass over j, then the
// chunk's partial row plus the rows weighted by them in another. Several rows per pass divide
// the passes over x and over the partial row (both from cache) per row of A (from memory).
struct RowGroup {
  int group = 1;
  std::string k, dot_col, axpy_col;  // map parameters
  std::vector<std::string> dots;     // one Scalar per row
  std::string label;
};

// The names a row group takes; `taken` collects parameters and containers as they are chosen.
RowGroup name_group(const ir::SDFG& sdfg, const ir::State& state, int group, const std::string& label,
                    std::set<std::string>& taken) {
  auto param = [&](const std::string& base) { return *taken.insert(fresh_map_parameter(sdfg, state, base, taken)).first; };
  RowGroup g;
  g.group = group;
  g.label = label;
  g.k = param("__" + label);
  g.dot_col = param("__" + label + "_dot_col");
  g.axpy_col = param("__" + label + "_axpy_col");
  for (int r = 0; r < group; ++r) {
    std::string base = "__matvec_dot", name = base;
    for (int n = 1; sdfg.arrays.count(name) || sdfg.symbols.count(name) || taken.count(name); ++n)
      name = base + std::to_string(n);
    g.dots.push_back(*taken.insert(name).first);
  }
  return g;
}

struct ChunkContext {
  Builder& b;
  const MatVecPair& p;
  std::string partial;
  int chunk_entry = -1, chunk_exit = -1;
  sym::Expr chunk, first_row;   // the chunk's parameter and first row
  sym::Range chunk_rows, all_cols;
  sym::Subset all_x;
};

// Adds the group's map to the chunk; its sums leave the chunk exit through the connectors
// IN_/OUT_<partial><suffix>; returns the OUT_ one.
std::string add_row_group(ChunkContext& cc, const RowGroup& g, const sym::Expr& base, const sym::Range& range,
                          const std::string& suffix) {
  Builder& b = cc.b;
  const MatVecPair& p = cc.p;
  auto point = [](const sym::Expr& e) { return closed_range(e, e); };
  const sym::Subset dot_point{{point(sym::integer(0))}};
  const sym::Subset chunk_partial{{point(cc.chunk), cc.all_cols}};
  const auto [re, rx] = b.map("matvec_pair_" + g.label, {g.k}, {range}, ir::ScheduleType::Sequential);
  b.pass_through(re, p.a);
  b.pass_through(re, p.x);
  b.pass_through(rx, cc.partial);
  b.edge(cc.chunk_entry, "OUT_" + p.a, re, "IN_" + p.a, subset_memlet(p.a, sym::Subset{{cc.chunk_rows, cc.all_cols}}));
  b.edge(cc.chunk_entry, "OUT_" + p.x, re, "IN_" + p.x, subset_memlet(p.x, cc.all_x));
  std::vector<sym::Expr> rows;
  for (int r = 0; r < g.group; ++r)
    rows.push_back(sym::simplify(
        sym::add(base, sym::add(sym::mul(sym::integer(g.group), sym::symbol(g.k)), sym::integer(r)))));
  const sym::Subset group_rows{{closed_range(rows.front(), rows.back()), cc.all_cols}};

  // dot_r = 0; dot_r += A[row_r, j] * x[j] over j.
  std::string zero_code, term_code;
  for (int r = 0; r < g.group; ++r) zero_code += (r ? "\n" : "") + std::string("o") + std::to_string(r) + " = 0";
  std::vector<std::string> zero_outs, term_ins{"b"}, term_outs;
  for (int r = 0; r < g.group; ++r) {
    zero_outs.push_back("o" + std::to_string(r));
    term_outs.push_back("o" + std::to_string(r));
    term_ins.push_back("a" + std::to_string(r));
    term_code += (r ? "\n" : "") + std::string("o") + std::to_string(r) + " = a" + std::to_string(r) + " * b";
  }
  const int zt = b.tasklet(g.label + "_dots_zero", zero_code, {}, zero_outs);
  b.order(re, zt);
  const auto [de, dx] = b.map("matvec_pair_" + g.label + "_dots", {g.dot_col}, {cc.all_cols}, ir::ScheduleType::Sequential);
  b.pass_through(de, p.a);
  b.pass_through(de, p.x);
  b.edge(re, "OUT_" + p.a, de, "IN_" + p.a, subset_memlet(p.a, group_rows));
  b.edge(re, "OUT_" + p.x, de, "IN_" + p.x, subset_memlet(p.x, cc.all_x));
  const int dt = b.tasklet(g.label + "_dot_terms", term_code, term_ins, term_outs);
  const sym::Expr jd = sym::symbol(g.dot_col);
  b.edge(de, "OUT_" + p.x, dt, "b", subset_memlet(p.x, sym::Subset{{point(jd)}}));
  std::vector<int> sums;
  for (int r = 0; r < g.group; ++r) {
    const std::string& dot = g.dots[static_cast<size_t>(r)];
    const std::string o = "o" + std::to_string(r);
    const int d0 = b.access(dot);
    b.edge(zt, o, d0, "", subset_memlet(dot, dot_point));
    b.order(d0, de);
    b.edge(de, "OUT_" + p.a, dt, "a" + std::to_string(r), subset_memlet(p.a, sym::Subset{{point(rows[r]), point(jd)}}));
    b.pass_through(dx, dot);
    b.edge(dt, o, dx, "IN_" + dot, subset_memlet(dot, dot_point, kSum));
    const int d1 = b.access(dot);
    b.edge(dx, "OUT_" + dot, d1, "", subset_memlet(dot, dot_point, kSum));
    sums.push_back(d1);
  }

  // partial[c, j] += sum_r dot_r * A[row_r, j] over j.
  const auto [ae, ax] = b.map("matvec_pair_" + g.label + "_axpy", {g.axpy_col}, {cc.all_cols}, ir::ScheduleType::Sequential);
  b.pass_through(ae, p.a);
  b.pass_through(ax, cc.partial);
  b.edge(re, "OUT_" + p.a, ae, "IN_" + p.a, subset_memlet(p.a, group_rows));
  std::string axpy_code = "out = ";
  std::vector<std::string> axpy_ins;
  for (int r = 0; r < g.group; ++r) {
    axpy_code += (r ? " + s" : "s") + std::to_string(r) + " * a" + std::to_string(r);
    axpy_ins.push_back("s" + std::to_string(r));
    axpy_ins.push_back("a" + std::to_string(r));
  }
  const int at = b.tasklet(g.label + "_axpy_term", axpy_code, axpy_ins, {"out"});
  const sym::Expr ja = sym::symbol(g.axpy_col);
  for (int r = 0; r < g.group; ++r) {
    const std::string& dot = g.dots[static_cast<size_t>(r)];
    b.pass_through(ae, dot);
    b.edge(sums[static_cast<size_t>(r)], "", ae, "IN_" + dot, subset_memlet(dot, dot_point));
    b.edge(ae, "OUT_" + dot, at, "s" + std::to_string(r), subset_memlet(dot, dot_point));
    b.edge(ae, "OUT_" + p.a, at, "a" + std::to_string(r), subset_memlet(p.a, sym::Subset{{point(rows[r]), point(ja)}}));
  }
  b.edge(at, "out", ax, "IN_" + cc.partial, subset_memlet(cc.partial, sym::Subset{{point(cc.chunk), point(ja)}}, kSum));
  b.edge(ax, "OUT_" + cc.partial, rx, "IN_" + cc.partial, subset_memlet(cc.partial, chunk_partial, kSum));
  const std::string conn = cc.partial + suffix;
  cc.b.state.node(cc.chunk_exit)->in_connectors["IN_" + conn] = ir::DType{};
  cc.b.state.node(cc.chunk_exit)->out_connectors["OUT_" + conn] = ir::DType{};
  b.edge(rx, "OUT_" + cc.partial, cc.chunk_exit, "IN_" + conn, subset_memlet(cc.partial, chunk_partial, kSum));
  return "OUT_" + conn;
}

}  // namespace

MatVecPairFusedRows::MatVecPairFusedRows() { props_.bind_int("chunk_rows", &chunk_rows_); }

void MatVecPairFusedRows::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (as_class(state.node(id), kMatMulClass)) out.push_back({id});
}

bool MatVecPairFusedRows::can_apply(const Site& site, const std::vector<int>& nodes) {
  if (chunk_rows_ < 1) return refuse("chunk_rows must be at least 1, not " + std::to_string(chunk_rows_));
  std::optional<MatVecPair> p;
  if (std::string w = problem(site.sdfg, site.state, site.scopes, nodes[0], &p); !w.empty()) return refuse(w);
  return true;
}

Status MatVecPairFusedRows::apply_at(const Site& site, const std::vector<int>& nodes) {
  if (chunk_rows_ < 1) return make_error(Code::InvalidArgument, "MatVecPairFusedRows: chunk_rows must be at least 1");
  std::optional<MatVecPair> plan;
  if (std::string w = problem(site.sdfg, site.state, site.scopes, nodes[0], &plan); !w.empty())
    return make_error(Code::InvalidArgument, "MatVecPairFusedRows: " + w);
  const MatVecPair& p = *plan;
  ir::SDFG& sdfg = site.sdfg;
  ir::State& state = site.state;
  const ir::DataDescriptor& ad = sdfg.arrays.at(p.a);
  const sym::Expr rows = ad.shape[0], cols = ad.shape[1];
  const sym::Expr zero = sym::integer(0), one = sym::integer(1), chunk = sym::integer(chunk_rows_);
  const sym::Expr last_col = sym::simplify(sym::sub(cols, one));
  // Parameters and containers are chosen before any node is added, each fresh against the
  // SDFG's symbols and containers, this state's map parameters and the other new names.
  std::set<std::string> taken;
  auto param = [&](const char* base) { return *taken.insert(fresh_map_parameter(sdfg, state, base, taken)).first; };
  const std::string c = param("__chunk"), zc = param("__zero_chunk"), jz = param("__zero_col");
  const std::string partial = fresh_container(sdfg, "__matvec_partial");
  taken.insert(partial);
  const RowGroup grouped = name_group(sdfg, state, kGroupRows, "row_groups", taken);
  const RowGroup singles = name_group(sdfg, state, 1, "last_rows", taken);
  const ir::DType dtype = ad.dtype;

  // P = ceil(M / R) chunks of R rows; chunk c holds rows c*R .. min(c*R + R, M) - 1, L of them.
  const sym::Expr chunks = sym::simplify(sym::ceildiv(rows, chunk));
  const sym::Expr ci = sym::symbol(c);
  const sym::Expr first_row = sym::simplify(sym::mul(ci, chunk));
  const sym::Expr last_row = sym::simplify(sym::min(sym::add(first_row, sym::integer(chunk_rows_ - 1)), sym::sub(rows, one)));
  const sym::Expr length = sym::simplify(sym::add(sym::sub(last_row, first_row), one));
  // Groups of kGroupRows rows first, then the L mod kGroupRows rows left one by one.
  const sym::Expr groups = sym::simplify(sym::floordiv(length, sym::integer(kGroupRows)));
  const sym::Range all_cols = closed_range(zero, last_col);
  const sym::Range all_chunks = closed_range(zero, sym::simplify(sym::sub(chunks, one)));
  const sym::Subset all_partial{{all_chunks, all_cols}};

  {
    ir::DataDescriptor d;
    d.kind = ir::DataKind::Array;
    d.dtype = dtype;
    d.shape = {chunks, cols};
    d.transient = true;
    ir::complete_defaults(d);
    sdfg.arrays[partial] = std::move(d);
    for (const RowGroup* g : {&grouped, &singles})
      for (const std::string& dot : g->dots) {
        ir::DataDescriptor s;
        s.kind = ir::DataKind::Scalar;
        s.dtype = dtype;
        s.transient = true;
        ir::complete_defaults(s);
        sdfg.arrays[dot] = std::move(s);
      }
  }

  const int a_node = state.edge(p.first_a)->src;
  const int x_node = state.edge(p.first_x)->src;
  const int a_node_second = state.edge(p.second_a)->src;
  const ir::Memlet result_memlet = state.edge(p.second_out)->memlet;
  const sym::Subset all_a = whole(ad.shape), all_x = whole(sdfg.arrays.at(p.x).shape);
  state.remove_node(p.first);
  state.remove_node(p.second);
  state.remove_node(p.temp);
  sdfg.arrays.erase(p.t);
  if (a_node_second != a_node && state.in_edges(a_node_second).empty() && state.out_edges(a_node_second).empty())
    state.remove_node(a_node_second);

  Builder b{state};
  auto point = [](const sym::Expr& e) { return closed_range(e, e); };
  // partial = 0: a map of its own before the chunks, so that every access node of partial is
  // at the top level (MakeTransientsPersistent then allocates it once per program).
  const auto [ze, zx] = b.map("matvec_pair_zero_partials", {zc, jz}, {all_chunks, all_cols}, ir::ScheduleType::Default);
  b.pass_through(zx, partial);
  const int zt = b.tasklet("matvec_pair_zero", "out = 0", {}, {"out"});
  const int zp = b.access(partial);
  b.order(ze, zt);
  b.edge(zt, "out", zx, "IN_" + partial,
         subset_memlet(partial, sym::Subset{{point(sym::symbol(zc)), point(sym::symbol(jz))}}));
  b.edge(zx, "OUT_" + partial, zp, "", subset_memlet(partial, all_partial));

  // The parallel map over chunks, after the zeroing.
  const auto [ce, cx] = b.map("matvec_pair_chunks", {c}, {all_chunks}, ir::ScheduleType::Default);
  b.pass_through(ce, p.a);
  b.pass_through(ce, p.x);
  b.edge(a_node, "", ce, "IN_" + p.a, subset_memlet(p.a, all_a));
  b.edge(x_node, "", ce, "IN_" + p.x, subset_memlet(p.x, all_x));
  b.order(zp, ce);
  ChunkContext cc{b, p, partial, ce, cx, ci, first_row, closed_range(first_row, last_row), all_cols, all_x};
  const std::string out_groups =
      add_row_group(cc, grouped, first_row, closed_range(zero, sym::simplify(sym::sub(groups, one))), "");
  const sym::Expr rest_start = sym::simplify(sym::add(first_row, sym::mul(sym::integer(kGroupRows), groups)));
  const std::string out_rest =
      add_row_group(cc, singles, rest_start, closed_range(zero, sym::simplify(sym::sub(last_row, rest_start))), "_rest");
  const int sums = b.access(partial);
  b.edge(cx, out_groups, sums, "", subset_memlet(partial, all_partial, kSum));
  b.edge(cx, out_rest, sums, "", subset_memlet(partial, all_partial, kSum));

  // y = the sum of the partial rows.
  auto reduce = std::make_unique<ir::LibraryNode>();
  reduce->name = reduce->label = "Reduce";
  reduce->classpath = kReduceClass;
  reduce->in_connectors["_in"] = ir::DType{};
  reduce->out_connectors["_out"] = ir::DType{};
  reduce->properties["axes"] = "[0]";
  reduce->properties["wcr"] = "\"(lambda a, b: a + b)\"";
  reduce->properties["identity"] = "0";
  const int rd = state.add_node(std::move(reduce));
  b.edge(sums, "", rd, "_in", subset_memlet(partial, all_partial));
  b.edge(rd, "_out", p.result, "", result_memlet);
  return Status::success();
}

}  // namespace dace::transform
