// Memlet rules (DaCe's Memlet.validate and the edge loop of validate_state).
#include <optional>

#include "analysis/sets.h"
#include "analysis/validate_code.h"
#include "analysis/validate_state_info.h"

namespace dace::analysis::detail {

namespace {

bool proven(sym::Expr condition, const sym::Assumptions& a) {
  auto p = sym::prove(condition, a);
  return p && *p;
}

bool is_gpu_storage(ir::StorageType s) {
  return s == ir::StorageType::GPU_Global || s == ir::StorageType::GPU_Shared;
}

// "s.member" addresses a member of structure "s": it belongs to the access node of "s".
bool data_matches(const std::string& memlet_data, const std::string& access_data) {
  if (memlet_data == access_data) return true;
  return memlet_data.size() > access_data.size() && memlet_data.compare(0, access_data.size(), access_data) == 0 &&
         memlet_data[access_data.size()] == '.';
}

bool subset_has_null(const sym::Subset& s) {
  for (const auto& r : s.dims)
    if (!r.start || !r.end || !r.step || !r.tile) return true;
  return false;
}

struct MemletChecker {
  SdfgContext& ctx;
  const StateInfo& info;
  const ir::State& state;

  const ir::AccessNode* access(int id) const {
    const ir::Node* n = state.node(id);
    return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
  }

  const ir::DataDescriptor* desc(const std::string& data) const {
    auto it = ctx.sdfg.arrays.find(data);
    if (it == ctx.sdfg.arrays.end()) it = ctx.sdfg.arrays.find(data.substr(0, data.find('.')));
    return it == ctx.sdfg.arrays.end() ? nullptr : &it->second;
  }

  // Facts for proofs: SDFG symbols are positive (DaCe's default); symbols defined inside the
  // SDFG (assignments, loops, scopes) may take any value, except map parameters over
  // constant ranges, which are bounded by them.
  sym::Assumptions assumptions(int edge) const {
    sym::Assumptions a;
    for (const auto& s : ctx.assigned) a.unrestricted.insert(s);
    for (const auto& s : ctx.loop_vars) a.unrestricted.insert(s);
    const ir::DataflowEdge* e = state.edge(edge);
    std::vector<int> entries = info.enclosing(e->dst);
    if (const ir::Node* src = state.node(e->src); src && src->is_scope_entry()) entries.push_back(e->src);
    // An edge into a scope exit lies inside that scope: its memlet may use the scope's
    // parameters (`_o0` of a one-point map `_o0 = 0:0`), bounded by the scope's range.
    if (const ir::Node* dst = state.node(e->dst); dst && dst->is_scope_exit()) {
      int entry = entry_of_exit(*dst);
      if (entry >= 0) entries.push_back(entry);
    }
    for (int id : entries) {
      auto syms = info.entry_symbols(id);
      a.unrestricted.insert(syms.begin(), syms.end());
      const ir::Node* n = state.node(id);
      if (!n || n->kind != ir::NodeKind::MapEntry) continue;
      const auto& map = static_cast<const ir::MapEntry*>(n)->map;
      for (size_t i = 0; i < map.params.size() && i < map.range.dims.size(); ++i) {
        const auto& r = map.range.dims[i];
        if (!r.start || !r.end || !r.step) continue;
        auto lo = sym::as_integer(r.start), hi = sym::as_integer(r.end), step = sym::as_integer(r.step);
        if (lo && hi && step && *step > 0) a.bounds[map.params[i]] = {*lo, *hi};
      }
    }
    return a;
  }

  // Whether index `x` misses [0, shape - 1] for every value the assumptions allow (ISL).
  static bool never_inside(sym::Expr x, sym::Expr shape, const sym::Assumptions& a) {
    sym::Subset point{{sym::Range{x, x, sym::integer(1), sym::integer(1)}}};
    sym::Subset valid{{sym::Range{sym::integer(0), sym::sub(shape, sym::integer(1)), sym::integer(1), sym::integer(1)}}};
    auto meets = subsets_intersect(point, valid, a);
    return meets && !*meets;
  }

  void check_bounds(int edge, const ElementPath& path, const sym::Subset& s, const ir::DataDescriptor& d,
                    const char* what) {
    if (s.rank() != d.rank()) return;
    std::optional<sym::Assumptions> assumed;  // only for symbolic dimensions
    for (size_t i = 0; i < s.rank(); ++i) {
      const auto& r = s.dims[i];
      sym::Expr shape = d.shape[i];
      if (!shape) continue;
      sym::Expr off = i < d.offset.size() && d.offset[i] ? d.offset[i] : sym::integer(0);
      sym::Expr lo = r.start, hi = r.end;
      if (auto step = sym::as_integer(r.step); step && *step < 0) std::swap(lo, hi);
      // Named only in a message: most dimensions are in bounds.
      auto dim = [&] { return std::string(what) + " dimension " + std::to_string(i); };
      sym::Expr first = sym::add(lo, off), last = sym::add(hi, off);
      // Integer indices and size (most memlets of large generated SDFGs): the same three
      // tests as below, decided by comparing numbers instead of asking ISL.
      auto f = sym::as_integer(first), l = sym::as_integer(last), n = sym::as_integer(shape);
      if (f && l && n) {
        if (*f < 0)
          ctx.error(path, dim() + " is out of bounds (starts below 0 at " + sym::to_string(lo) + ")");
        else if (*n <= *l)
          ctx.error(path, dim() + " is out of bounds (reaches " + sym::to_string(hi) + ", size " + sym::to_string(shape) + ")");
        else if (*f >= *n || *l < 0)
          ctx.error(path, dim() + " is out of bounds (" + sym::to_string(lo) + ":" + sym::to_string(hi) +
                              " lies outside size " + sym::to_string(shape) + ")");
        continue;
      }
      if (!assumed) assumed = assumptions(edge);
      switch (bounds_verdict(first, last, shape, *assumed)) {
        case kStartsBelowZero:
          ctx.error(path, dim() + " is out of bounds (starts below 0 at " + sym::to_string(lo) + ")");
          break;
        case kReachesSize:
          ctx.error(path, dim() + " is out of bounds (reaches " + sym::to_string(hi) + ", size " + sym::to_string(shape) + ")");
          break;
        case kOutside:
          ctx.error(path, dim() + " is out of bounds (" + sym::to_string(lo) + ":" + sym::to_string(hi) +
                              " lies outside size " + sym::to_string(shape) + ")");
          break;
        default: break;
      }
    }
  }

  enum BoundsVerdict { kInside = 0, kStartsBelowZero, kReachesSize, kOutside };

  // The three symbolic tests of check_bounds, in order, remembered per SDFG: the verdict
  // depends only on the three expressions and what the assumptions say about their symbols.
  int bounds_verdict(sym::Expr first, sym::Expr last, sym::Expr shape, const sym::Assumptions& a) {
    std::string facts;
    std::set<std::string> names = sym::free_symbols(first);
    for (sym::Expr e : {last, shape})
      for (const std::string& s : sym::free_symbols(e)) names.insert(s);
    for (const std::string& s : names) {
      facts += s;
      facts += a.unrestricted.count(s) ? ":u" : a.nonnegative.count(s) ? ":n" : ":p";
      if (auto b = a.bounds.find(s); b != a.bounds.end())
        facts += "[" + (b->second.first ? std::to_string(*b->second.first) : "") + "," +
                 (b->second.second ? std::to_string(*b->second.second) : "") + "]";
      facts += ';';
    }
    auto key = std::make_tuple(first, last, shape, std::move(facts));
    if (auto it = ctx.bounds_verdicts.find(key); it != ctx.bounds_verdicts.end()) return it->second;
    int verdict = kInside;
    if (proven(sym::lt(first, sym::integer(0)), a))
      verdict = kStartsBelowZero;
    else if (proven(sym::le(shape, last), a))
      verdict = kReachesSize;
    else if (never_inside(first, shape, a) || never_inside(last, shape, a))
      verdict = kOutside;
    ctx.bounds_verdicts.emplace(std::move(key), verdict);
    return verdict;
  }

  ir::ScheduleType scope_schedule(int id) const {
    const ir::Node* n = state.node(id);
    if (!n) return ir::ScheduleType::Default;
    if (n->is_scope_exit()) n = state.node(entry_of_exit(*n));
    return n ? schedule_of(*n) : ir::ScheduleType::Default;
  }

  bool is_scalar_access(const std::vector<int>& path, const ir::Memlet& m) const {
    const ir::DataflowEdge* first = state.edge(path.front());
    const ir::DataflowEdge* last = state.edge(path.back());
    for (auto [node, conn, input] : {std::tuple{first->src, first->src_conn, false}, std::tuple{last->dst, last->dst_conn, true}}) {
      const ir::Node* n = state.node(node);
      if (!n || conn.empty()) continue;
      const auto& conns = input ? n->in_connectors : n->out_connectors;
      auto it = conns.find(conn);
      if (it != conns.end() && it->second.pointer_depth > 0) return false;
    }
    if (m.dynamic) {
      auto v = m.volume ? sym::as_integer(m.volume) : std::optional<int64_t>(0);
      if (v && (*v == 0 || *v == -1)) return false;
    }
    auto n = sym::as_integer(sym::volume(m.subset));
    return n && *n == 1;
  }

  void check_gpu_access(int e, const ElementPath& path, const std::vector<int>& mp, const ir::Memlet& m,
                        const ir::DataDescriptor& d) {
    if (!is_gpu_storage(d.storage)) return;
    const ir::DataflowEdge* edge = state.edge(e);
    const ir::Node* src = state.node(edge->src);
    const ir::Node* dst = state.node(edge->dst);
    bool touches = src->kind == ir::NodeKind::Tasklet || dst->kind == ir::NodeKind::Tasklet ||
                   dst->kind == ir::NodeKind::MapEntry;
    if (!touches || !is_scalar_access(mp, m)) return;
    for (int pe : mp) {
      for (int id : {state.edge(pe)->src, state.edge(pe)->dst}) {
        const ir::Node* n = state.node(id);
        if (!n || !(n->is_scope_entry() || n->is_scope_exit())) continue;
        ir::ScheduleType s = scope_schedule(id);
        if (is_gpu_schedule(s) || s == ir::ScheduleType::Default) return;
      }
    }
    if (info.in_gpu(edge->dst) || info.in_default(edge->dst)) return;
    ctx.error(path, "data container " + ir::quoted(m.data) + " is stored as " + ir::to_string(d.storage) +
                        " but accessed on the host");
  }

  // DaCe's scope_contains_scope: whether the scope of `node` contains the scope of `other`.
  bool scope_contains(int node, int other) const {
    int target = info.parents[node];
    int cur = other;
    for (size_t steps = 0; steps <= info.parents.size(); ++steps) {
      cur = cur >= 0 && cur < static_cast<int>(info.parents.size()) ? info.parents[cur] : -1;
      if (cur == target) return true;
      if (cur == -1) return false;
    }
    return false;
  }

  void check_path_scopes(const ElementPath& path, int src, int dst, const ir::Memlet& m) {
    if (info.parents[src] == info.parents[dst] || src == info.parents[dst]) return;
    if (scope_contains(src, dst)) return;
    if (scope_contains(dst, src)) {
      if (!access(dst) && !m.is_empty())
        ctx.error(path, "memlet path leaves a scope into node " + std::to_string(dst) + ", which is not an access node");
      return;
    }
    ctx.error(path, "memlet connects disjoint scopes");
  }

  void check_empty(const ElementPath& path, const std::vector<int>& mp, int src, int dst) {
    const ir::Node* s = state.node(src);
    const ir::Node* d = state.node(dst);
    if (mp.size() == 1 && s->kind == ir::NodeKind::Tasklet && d->kind == ir::NodeKind::Tasklet) return;
    const std::string& in_conn = state.edge(mp.back())->dst_conn;
    const std::string& out_conn = state.edge(mp.front())->src_conn;
    if (d->kind == ir::NodeKind::Tasklet && !in_conn.empty())
      ctx.error(path, "empty memlet connected to tasklet input connector " + ir::quoted(in_conn) +
                          " (only allowed between two adjacent tasklets)");
    else if (s->kind == ir::NodeKind::Tasklet && !out_conn.empty())
      ctx.error(path, "empty memlet connected to tasklet output connector " + ir::quoted(out_conn) +
                          " (only allowed between two adjacent tasklets)");
  }

  void check_edge(int e) {
    const ir::DataflowEdge& edge = *state.edge(e);
    const ir::Memlet& m = edge.memlet;
    const ElementPath path(ctx, state, ElementPath::Kind::Edge, e);
    std::vector<int> mp = info.memlet_path(e);
    int src = state.edge(mp.front())->src;
    int dst = state.edge(mp.back())->dst;
    const ir::AccessNode* src_an = access(src);
    const ir::AccessNode* dst_an = access(dst);

    if (info.acyclic) check_path_scopes(path, src, dst, m);
    if (m.is_empty()) {
      check_empty(path, mp, src, dst);
      return;
    }
    const ir::DataDescriptor* d = desc(m.data);
    if (!d) {
      ctx.error(path, "memlet refers to undefined data " + ir::quoted(m.data));
      return;
    }
    if (subset_has_null(m.subset) || (m.other_subset && subset_has_null(*m.other_subset))) {
      ctx.error(path, "memlet subset has a null expression");
      return;
    }
    if (m.volume) {
      if (auto v = sym::as_integer(m.volume); v && *v < 0 && !(m.dynamic && *v == -1))
        ctx.error(path, "memlet volume is negative (" + sym::to_string(m.volume) + ")");
    }
    if (!m.wcr.empty()) {
      std::string why;
      if (!valid_wcr(m.wcr.get(), why))
        ctx.error(path, "invalid write-conflict resolution " + ir::quoted(m.wcr.get()) + ": " + why);
    }
    if (m.subset.rank() != d->rank())
      ctx.error(path, "memlet subset has " + std::to_string(m.subset.rank()) + " dimensions but data " +
                          ir::quoted(m.data) + " has " + std::to_string(d->rank()));

    if (access(edge.src) && access(edge.dst)) {
      auto check_sizes = [&](const sym::Subset& s, const char* what) {
        auto sizes = sym::size(s);
        for (size_t i = 0; i < sizes.size(); ++i)
          if (sizes[i] && proven(sym::lt(sizes[i], sym::integer(0)), assumptions(e)))
            ctx.error(path, std::string(what) + " has a negative size in dimension " + std::to_string(i));
      };
      check_sizes(m.subset, "subset");
      if (m.other_subset) check_sizes(*m.other_subset, "other_subset");
    }

    const ir::Node* src_node = state.node(src);
    const ir::Node* dst_node = state.node(dst);
    if (src_node->kind == ir::NodeKind::NestedSDFG && !dst_an)
      ctx.error(path, "data leaving a nested SDFG must go to an access node");
    if (dst_node->kind == ir::NodeKind::NestedSDFG && !src_an)
      ctx.error(path, "data entering a nested SDFG must come from an access node");

    if ((src_an || dst_an) && !(src_an && (data_matches(m.data, src_an->data) || m.data == edge.src_conn)) &&
        !(dst_an && (data_matches(m.data, dst_an->data) || m.data == edge.dst_conn)))
      ctx.error(path, "memlet data " + ir::quoted(m.data) + " matches neither the source nor the destination access node");

    check_gpu_access(e, path, mp, m, *d);

    if (m.allow_oob) return;
    bool subset_at_dst = dst_an && data_matches(m.data, dst_an->data);
    const ir::AccessNode* subset_an = subset_at_dst ? dst_an : src_an;
    const ir::AccessNode* other_an = dst_an && !subset_at_dst ? dst_an : src_an;
    if (subset_an && !m.dynamic) check_bounds(e, path, m.subset, *d, "subset");
    if (m.other_subset && other_an) {
      if (const ir::DataDescriptor* od = desc(other_an->data)) {
        if (m.other_subset->rank() != od->rank())
          ctx.error(path, "memlet other_subset has " + std::to_string(m.other_subset->rank()) + " dimensions but data " +
                              ir::quoted(other_an->data) + " has " + std::to_string(od->rank()));
        else if (!m.dynamic)
          check_bounds(e, path, *m.other_subset, *od, "other_subset");
      }
    }
    if (m.other_subset && src_an && dst_an) {
      const ir::DataDescriptor* sd = desc(src_an->data);
      const ir::DataDescriptor* dd = desc(dst_an->data);
      if (!sd || !dd) return;
      bool exempt = sd->kind == ir::DataKind::Stream || dd->kind == ir::DataKind::Stream ||
                    sd->kind == ir::DataKind::View || dd->kind == ir::DataKind::View || edge.dst_conn == "set";
      if (exempt) return;
      sym::Expr a = sym::volume(m.subset), b = sym::volume(*m.other_subset);
      if (proven(sym::ne(a, b), assumptions(e)))
        ctx.error(path, "source and destination subsets have different numbers of elements (" + sym::to_string(a) +
                            " and " + sym::to_string(b) + ")");
    }
  }

  void run() {
    for (int e : info.edges) {
      if (ctx.full()) return;
      check_edge(e);
    }
  }
};

}  // namespace

void validate_memlets(SdfgContext& ctx, const StateInfo& info) { MemletChecker{ctx, info, info.state}.run(); }

}  // namespace dace::analysis::detail
