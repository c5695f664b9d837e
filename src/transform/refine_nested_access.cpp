#include "transform/refine_nested_access.h"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "transform/nested_access.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

// One connector to narrow: the fixed block its inner memlets touch, in `dims`.
struct Refinement {
  std::string conn;
  std::vector<int> outer_edges;
  sym::Subset block;
  std::vector<size_t> dims;   // refined inner dimensions
  std::vector<int> to_outer;  // inner dimension -> outer dimension
};

bool is_zero(sym::Expr e) { return e && sym::as_integer(sym::simplify(e)) == 0; }

// Symbols the nested SDFG assigns (interstate edges, loop variables): their values inside
// are not those the symbol mapping gives. Also collects interstate code text.
void assigned_and_code(const ir::ControlFlowRegion& region, std::set<std::string>& assigned, std::string& code) {
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    code += e.condition.code + "\n";
    for (const auto& [lhs, rhs] : e.assignments) {
      assigned.insert(lhs);
      code += rhs + "\n";
    }
  }
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock& b = *region.block(slot);
    if (b.kind == ir::BlockKind::Loop) {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      assigned.insert(l.loop_variable);
      code += l.init_statement.code + "\n" + l.loop_condition.code + "\n" + l.update_statement.code + "\n";
      assigned_and_code(l, assigned, code);
    } else if (b.kind == ir::BlockKind::Region) {
      assigned_and_code(static_cast<const ir::ControlFlowRegion&>(b), assigned, code);
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, branch] : static_cast<const ir::ConditionalBlock&>(b).branches) {
        if (cond) code += cond->code + "\n";
        if (branch) assigned_and_code(*branch, assigned, code);
      }
    }
  }
}

class Finder {
 public:
  Finder(const ir::SDFG& outer, const ir::State& state, int node, std::string& why)
      : outer_(outer), state_(state), node_(node), why_(why) {}

  std::vector<Refinement> run() {
    std::vector<Refinement> out;
    const ir::Node* n = state_.node(node_);
    if (!n || n->kind != ir::NodeKind::NestedSDFG) return fail("node " + std::to_string(node_) + " is not a nested SDFG");
    nested_ = static_cast<const ir::NestedSDFGNode*>(n);
    if (!nested_->sdfg) return fail("nested SDFG " + std::to_string(node_) + " has no SDFG");
    assigned_and_code(*nested_->sdfg, assigned_, interstate_code_);
    std::set<std::string> conns;
    for (const auto& [c, t] : n->in_connectors) conns.insert(c);
    for (const auto& [c, t] : n->out_connectors) conns.insert(c);
    for (const std::string& c : conns)
      if (std::optional<Refinement> r = candidate(c)) out.push_back(std::move(*r));
    if (out.empty() && why_.empty()) why_ = "no connector of nested SDFG " + std::to_string(node_) + " touches a fixed block";
    return out;
  }

 private:
  std::vector<Refinement> fail(std::string why) {
    why_ = std::move(why);
    return {};
  }
  std::nullopt_t skip(const std::string& conn, const std::string& why) {
    why_ += (why_.empty() ? "" : "; ") + ("connector '" + conn + "': " + why);
    return std::nullopt;
  }

  std::optional<Refinement> candidate(const std::string& conn) {
    const ir::SDFG& inner = *nested_->sdfg;
    auto d = inner.arrays.find(conn);
    if (d == inner.arrays.end() || d->second.transient || d->second.kind != ir::DataKind::Array)
      return skip(conn, "not a non-transient inner Array");
    if (mentions(interstate_code_, conn)) return skip(conn, "named by interstate code");
    const size_t rank = d->second.rank();

    // The subsets at every access node of the container, in every state.
    std::vector<const sym::Subset*> seen;
    for (const ir::State* s : inner.all_states())
      for (int id : s->node_ids()) {
        const ir::Node* a = s->node(id);
        if (a->kind != ir::NodeKind::Access || static_cast<const ir::AccessNode*>(a)->data != conn) continue;
        std::vector<int> edges = s->in_edges(id);
        for (int e : s->out_edges(id)) edges.push_back(e);
        for (int e : edges) {
          const ir::Memlet& m = s->edge(e)->memlet;
          if (m.is_empty()) continue;
          if (m.data != conn) return skip(conn, "the unnamed side of a copy");
          if (m.subset.rank() != rank) return skip(conn, "a memlet of another rank");
          seen.push_back(&m.subset);
        }
      }
    if (seen.empty()) return skip(conn, "no memlet at its access nodes");
    Refinement r;
    r.conn = conn;
    r.block = *seen[0];
    for (size_t k = 0; k < rank; ++k) {
      bool agree = true;
      for (const sym::Subset* s : seen) agree = agree && s->dims[k] == r.block.dims[k];
      if (!agree) continue;
      // Every symbol of the block must mean outside what it means inside.
      bool defined = true;
      for (sym::Expr e : {r.block.dims[k].start, r.block.dims[k].end})
        for (const std::string& s : sym::free_symbols(e))
          defined = defined && nested_->symbol_mapping.count(s) && !assigned_.count(s);
      if (defined) r.dims.push_back(k);
    }
    if (r.dims.empty()) return skip(conn, "its memlets touch different blocks or use symbols defined only inside");
    bool offset = false;
    for (size_t k : r.dims) offset = offset || !is_zero(r.block.dims[k].start);
    if (!offset) return skip(conn, "its fixed block already starts at 0");

    for (int e : state_.in_edges(node_))
      if (state_.edge(e)->dst_conn == conn) r.outer_edges.push_back(e);
    for (int e : state_.out_edges(node_))
      if (state_.edge(e)->src_conn == conn) r.outer_edges.push_back(e);
    if (r.outer_edges.empty()) return skip(conn, "no outer edge");
    for (int e : r.outer_edges) {
      const ir::Memlet& m = state_.edge(e)->memlet;
      auto od = outer_.arrays.find(m.data);
      if (m.is_empty() || m.other_subset || od == outer_.arrays.end()) return skip(conn, "an unusual outer memlet");
      std::optional<std::vector<int>> dims = inner_to_outer_dims(rank, m.subset);
      if (!dims || (!r.to_outer.empty() && *dims != r.to_outer)) return skip(conn, "outer ranks that do not match");
      if (!strides_match(d->second, od->second, *dims, nested_->symbol_mapping))
        return skip(conn, "inner strides differ from the outer ones");
      for (size_t k : r.dims) {
        const sym::Range& o = m.subset.dims[static_cast<size_t>((*dims)[k])];
        if (!is_zero(o.start) || !is_one(o.step)) return skip(conn, "the outer subset does not start at 0 with step 1");
      }
      r.to_outer = *dims;
    }
    return r;
  }

  const ir::SDFG& outer_;
  const ir::State& state_;
  int node_;
  std::string& why_;
  const ir::NestedSDFGNode* nested_ = nullptr;
  std::set<std::string> assigned_;
  std::string interstate_code_;
};

}  // namespace

void RefineNestedAccess::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (state.node(id)->kind == ir::NodeKind::NestedSDFG) out.push_back({id});
}

bool RefineNestedAccess::can_apply(const Site& site, const std::vector<int>& nodes) {
  why_not_.clear();
  return !Finder(site.sdfg, site.state, nodes[0], why_not_).run().empty();
}

Status RefineNestedAccess::apply_at(const Site& site, const std::vector<int>& nodes) {
  why_not_.clear();
  const std::vector<Refinement> refinements = Finder(site.sdfg, site.state, nodes[0], why_not_).run();
  auto& nested = static_cast<ir::NestedSDFGNode&>(*site.state.node(nodes[0]));
  for (const Refinement& r : refinements) {
    for (int e : r.outer_edges) {
      sym::Subset& outer = site.state.edge(e)->memlet.subset;
      for (size_t k : r.dims) {
        sym::Range block = r.block.dims[k];
        for (sym::Expr* x : {&block.start, &block.end, &block.step, &block.tile})
          if (*x) *x = sym::substitute(*x, nested.symbol_mapping);
        outer.dims[static_cast<size_t>(r.to_outer[k])] = block;
      }
    }
    for (ir::State* s : nested.sdfg->all_states())
      for (int e : s->edge_ids()) {
        ir::Memlet& m = s->edge(e)->memlet;
        if (m.data != r.conn || m.subset.rank() != r.block.rank()) continue;
        for (size_t k : r.dims) {
          sym::Range& x = m.subset.dims[k];
          const sym::Expr start = r.block.dims[k].start;
          x.start = sym::sub(x.start, start);
          x.end = sym::sub(x.end, start);
        }
      }
  }
  return Status::success();
}

}  // namespace dace::transform
