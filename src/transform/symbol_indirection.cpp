#include "transform/symbol_indirection.h"

#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"
#include "transform/assigned_symbols.h"
#include "transform/block_placement.h"
#include "transform/scope_tree.h"

namespace dace::transform {
namespace {

std::string new_name(const std::string& name, const std::set<std::string>& taken) {
  if (!taken.count(name)) return name;
  for (int i = 0;; ++i)
    if (std::string c = name + "_" + std::to_string(i); !taken.count(c)) return c;
}

// Rewrites one tasklet's subscripts of connectors; DaCe's TaskletIndirectionPromoter.
class Promoter {
 public:
  Promoter(const std::map<std::string, const ir::Memlet*>& inputs, const std::map<std::string, const ir::Memlet*>& outputs,
           const std::set<std::string>& defined, std::set<std::string> connectors)
      : inputs_(inputs), outputs_(outputs), defined_(defined), connectors_(std::move(connectors)) {}

  std::map<std::string, std::pair<std::string, sym::Subset>> mapping;  // new input -> (old, element)
  std::map<std::string, std::pair<std::string, sym::Subset>> out_mapping;  // new output -> (old, element)
  std::set<std::string> kept;                                          // connectors still used whole

  // An assignment target: its indices are reads; a subscripted output connector whose index
  // uses defined symbols only becomes a new output connector of that one element.
  tasklet::ExprPtr visit_target(const tasklet::ExprPtr& t) {
    const auto* sub = t->as<tasklet::Subscript>();
    if (!sub) return t;
    tasklet::Subscript rebuilt{sub->value, {}};
    for (const tasklet::ExprPtr& i : sub->indices) rebuilt.indices.push_back(visit(i));
    tasklet::ExprPtr node = tasklet::make_expr(t->loc, rebuilt, t->type);
    const auto* name = rebuilt.value ? rebuilt.value->as<tasklet::Name>() : nullptr;
    if (!name) return node;
    auto out = outputs_.find(name->id);
    if (out == outputs_.end()) return node;
    const std::string fresh = new_name(name->id, connectors_);
    connectors_.insert(fresh);
    std::optional<sym::Subset> element = compose(out->second->subset, rebuilt.indices);
    if (!element) {
      kept.insert(name->id);
      return node;
    }
    out_mapping[fresh] = {name->id, *element};
    return tasklet::make_expr(t->loc, tasklet::Name{fresh}, t->type);
  }

  tasklet::ExprPtr visit(const tasklet::ExprPtr& e) {
    if (!e) return e;
    return tasklet::rewrite(e, [&](const tasklet::Expr& x) -> tasklet::ExprPtr {
      const auto* sub = x.as<tasklet::Subscript>();
      if (!sub) return nullptr;
      // Children first, as DaCe's generic_visit: inner subscripts are promoted before outer.
      tasklet::Subscript rebuilt{visit(sub->value), {}};
      for (const tasklet::ExprPtr& i : sub->indices) rebuilt.indices.push_back(visit(i));
      tasklet::ExprPtr node = tasklet::make_expr(x.loc, rebuilt, x.type);
      const auto* name = rebuilt.value ? rebuilt.value->as<tasklet::Name>() : nullptr;
      if (!name) return node;
      auto in = inputs_.find(name->id);
      if (in == inputs_.end()) return node;
      // DaCe takes the new name before deciding, so a refused subscript uses one up too.
      const std::string fresh = new_name(name->id, connectors_);
      connectors_.insert(fresh);
      std::optional<sym::Subset> element = compose(in->second->subset, rebuilt.indices);
      if (!element) {
        kept.insert(name->id);
        return node;
      }
      mapping[fresh] = {name->id, *element};
      return tasklet::make_expr(x.loc, tasklet::Name{fresh}, x.type);
    });
  }

 private:
  // The memlet's subset indexed by the tasklet's indices; nullopt unless every index is an
  // expression of defined symbols and literals, one per dimension of size other than one.
  std::optional<sym::Subset> compose(const sym::Subset& outer, const std::vector<tasklet::ExprPtr>& indices) const {
    std::vector<size_t> dims;
    if (indices.size() == outer.rank()) {
      for (size_t d = 0; d < outer.rank(); ++d) dims.push_back(d);
    } else {
      for (size_t d = 0; d < outer.rank(); ++d)
        if (!same_value(outer.dims[d].start, outer.dims[d].end)) dims.push_back(d);
      if (dims.size() != indices.size()) return std::nullopt;
    }
    sym::Subset out = outer;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (!indices[k] || indices[k]->is<tasklet::Slice>()) return std::nullopt;
      Result<sym::Expr> index = sym::parse(tasklet::to_source(*indices[k]));
      if (!index.ok()) return std::nullopt;
      for (const std::string& s : sym::free_symbols(*index))
        if (!defined_.count(s)) return std::nullopt;
      sym::Range& r = out.dims[dims[k]];
      const sym::Expr at = sym::simplify(sym::add(r.start, sym::mul(*index, r.step ? r.step : sym::integer(1))));
      r = sym::Range{at, at, sym::integer(1), sym::integer(1)};
    }
    for (const sym::Range& r : out.dims)
      for (const sym::Expr& e : {r.start, r.end})
        for (const std::string& s : sym::free_symbols(e))
          if (!defined_.count(s)) return std::nullopt;
    return out;
  }

  const std::map<std::string, const ir::Memlet*>& inputs_;
  const std::map<std::string, const ir::Memlet*>& outputs_;
  const std::set<std::string>& defined_;
  std::set<std::string> connectors_;
};

std::vector<tasklet::StmtPtr> visit_body(Promoter& p, const std::vector<tasklet::StmtPtr>& body);

tasklet::StmtPtr visit_stmt(Promoter& p, const tasklet::StmtPtr& s) {
  if (const auto* a = s->as<tasklet::Assign>()) {
    // Targets first, then the value, in the order of Python's AST fields (DaCe's visit), so
    // new connector names are drawn as DaCe draws them.
    tasklet::Assign out;
    for (const tasklet::ExprPtr& t : a->targets) out.targets.push_back(p.visit_target(t));
    out.value = p.visit(a->value);
    return tasklet::make_stmt(s->loc, out);
  }
  if (const auto* a = s->as<tasklet::AugAssign>()) {
    // `x += v` reads x too; a subscripted target keeps its form: DaCe would turn `o[k] += v`
    // into `o_0 += v` on a fresh output connector, which reads an uninitialized value.
    tasklet::ExprPtr target = a->target;
    if (const auto* sub = target->as<tasklet::Subscript>()) {
      tasklet::Subscript rebuilt{sub->value, {}};
      for (const tasklet::ExprPtr& i : sub->indices) rebuilt.indices.push_back(p.visit(i));
      target = tasklet::make_expr(target->loc, rebuilt, target->type);
    }
    return tasklet::make_stmt(s->loc, tasklet::AugAssign{target, a->op, p.visit(a->value)});
  }
  if (const auto* i = s->as<tasklet::If>()) {
    tasklet::ExprPtr test = p.visit(i->test);
    return tasklet::make_stmt(s->loc, tasklet::If{test, visit_body(p, i->body), visit_body(p, i->orelse)});
  }
  if (const auto* e = s->as<tasklet::ExprStmt>()) return tasklet::make_stmt(s->loc, tasklet::ExprStmt{p.visit(e->value)});
  return s;
}

std::vector<tasklet::StmtPtr> visit_body(Promoter& p, const std::vector<tasklet::StmtPtr>& body) {
  std::vector<tasklet::StmtPtr> out;
  for (const tasklet::StmtPtr& s : body) out.push_back(visit_stmt(p, s));
  return out;
}

bool promote_tasklet(ir::State& state, int id, const std::set<std::string>& defined) {
  auto& t = static_cast<ir::Tasklet&>(*state.node(id));
  if (t.code.language != ir::Language::Python) return false;
  Result<std::shared_ptr<const tasklet::Program>> prog = tasklet::parse_code_cached(t.code.code);
  if (!prog.ok()) return false;
  std::map<std::string, const ir::Memlet*> inputs, outputs;
  std::map<std::string, int> edge_of, out_edge_of;
  std::set<std::string> connectors;
  for (const auto& [c, type] : t.in_connectors) connectors.insert(c);
  for (const auto& [c, type] : t.out_connectors) connectors.insert(c);
  const std::set<std::string> assigned = tasklet::names_assigned(**prog);
  for (int e : state.in_edges(id)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (edge.memlet.is_empty() || edge.dst_conn.empty() || assigned.count(edge.dst_conn)) continue;
    inputs[edge.dst_conn] = &edge.memlet;
    edge_of[edge.dst_conn] = e;
  }
  // Outputs with one edge each and no WCR (DaCe's new memlet would drop the WCR).
  std::map<std::string, int> out_edges;
  for (int e : state.out_edges(id)) ++out_edges[state.edge(e)->src_conn];
  for (int e : state.out_edges(id)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (edge.memlet.is_empty() || edge.src_conn.empty() || !edge.memlet.wcr.empty()) continue;
    if (inputs.count(edge.src_conn) || out_edges[edge.src_conn] != 1) continue;
    outputs[edge.src_conn] = &edge.memlet;
    out_edge_of[edge.src_conn] = e;
  }
  if (inputs.empty() && outputs.empty()) return false;
  Promoter p(inputs, outputs, defined, connectors);
  tasklet::Program rewritten{visit_body(p, (*prog)->body)};
  if (p.mapping.empty() && p.out_mapping.empty()) return false;
  t.code.code = tasklet::to_source(rewritten);
  const std::set<std::string> still_read = tasklet::names_read(rewritten);
  const std::set<std::string> still_written = tasklet::names_assigned(rewritten);
  for (const auto& [fresh, use] : p.out_mapping) {
    const ir::DataflowEdge old = *state.edge(out_edge_of.at(use.first));
    t.out_connectors[fresh] = ir::DType{};
    ir::Memlet m;
    m.data = old.memlet.data;
    m.subset = use.second;
    state.add_edge(ir::DataflowEdge{id, old.dst, fresh, old.dst_conn, std::move(m)});
  }
  std::set<std::string> gone_out;
  for (const auto& [fresh, use] : p.out_mapping)
    if (!p.kept.count(use.first) && !still_written.count(use.first) && !still_read.count(use.first))
      gone_out.insert(use.first);
  for (const std::string& c : gone_out) {
    state.remove_edge(out_edge_of.at(c));
    t.out_connectors.erase(c);
  }
  for (const auto& [fresh, use] : p.mapping) {
    const ir::DataflowEdge old = *state.edge(edge_of.at(use.first));
    t.in_connectors[fresh] = ir::DType{};
    ir::Memlet m;
    m.data = old.memlet.data;
    m.subset = use.second;
    state.add_edge(ir::DataflowEdge{old.src, id, old.src_conn, fresh, std::move(m)});
  }
  std::set<std::string> gone;
  for (const auto& [fresh, use] : p.mapping)
    if (!p.kept.count(use.first) && !still_read.count(use.first)) gone.insert(use.first);
  for (const std::string& c : gone) {
    state.remove_edge(edge_of.at(c));
    t.in_connectors.erase(c);
  }
  return true;
}

// DaCe's _cpp_indirection_promoter: in C++ code, `name[expr]` of a connector whose memlet has
// exactly one dimension of size other than one, with `expr` of defined symbols, becomes
// `name_1`, `name_2`, ... (numbered per connector, in text order), a connector of the one
// element at that dimension. Where DaCe's composition would be wrong (several such dimensions,
// where C++ indexes the flattened pointer; none, where it indexes past the element) or its new
// name clashes with a connector, the subscript stays.
bool promote_cpp_tasklet(ir::State& state, int id, const std::set<std::string>& defined) {
  auto& t = static_cast<ir::Tasklet&>(*state.node(id));
  std::map<std::string, int> in_edge, out_edge, out_count;
  for (int e : state.in_edges(id))
    if (!state.edge(e)->memlet.is_empty() && !state.edge(e)->dst_conn.empty()) in_edge[state.edge(e)->dst_conn] = e;
  for (int e : state.out_edges(id)) ++out_count[state.edge(e)->src_conn];
  for (int e : state.out_edges(id)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (edge.memlet.is_empty() || edge.src_conn.empty() || !edge.memlet.wcr.empty()) continue;
    if (in_edge.count(edge.src_conn) || out_count[edge.src_conn] != 1) continue;
    out_edge[edge.src_conn] = e;
  }
  std::set<std::string> connectors;
  for (const auto& [c, type] : t.in_connectors) connectors.insert(c);
  for (const auto& [c, type] : t.out_connectors) connectors.insert(c);

  const std::string& code = t.code.code;
  auto ident_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto ident_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::map<std::string, int> latest;
  std::map<std::string, std::pair<std::string, sym::Subset>> in_map, out_map;
  std::set<std::string> kept;
  std::string out;
  size_t copied = 0;
  for (size_t i = 0; i < code.size();) {
    // The regex's leftmost match: an identifier run directly followed by `[`, up to the first `]`.
    if (!ident_start(code[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < code.size() && ident_char(code[j])) ++j;
    const size_t close = j < code.size() && code[j] == '[' ? code.find(']', j) : std::string::npos;
    if (close == std::string::npos) {
      i = j;
      continue;
    }
    const std::string name = code.substr(i, j - i), index = code.substr(j + 1, close - j - 1);
    const bool is_in = in_edge.count(name), is_out = !is_in && out_edge.count(name);
    const bool connector = t.in_connectors.count(name) || t.out_connectors.count(name);
    if (!connector) {
      i = close + 1;
      continue;
    }
    const std::string fresh = name + "_" + std::to_string(++latest[name]);
    std::optional<sym::Subset> element;
    if ((is_in || is_out) && !connectors.count(fresh)) {
      const sym::Subset& outer = state.edge(is_in ? in_edge.at(name) : out_edge.at(name))->memlet.subset;
      std::vector<size_t> wide;
      for (size_t d = 0; d < outer.rank(); ++d)
        if (!same_value(outer.dims[d].start, outer.dims[d].end)) wide.push_back(d);
      Result<sym::Expr> at = sym::parse(index);
      if (wide.size() == 1 && at.ok()) {
        bool bound = true;
        for (const std::string& x : sym::free_symbols(*at)) bound &= defined.count(x) != 0;
        sym::Subset one = outer;
        sym::Range& r = one.dims[wide[0]];
        const sym::Expr e = sym::simplify(sym::add(r.start, sym::mul(*at, r.step ? r.step : sym::integer(1))));
        r = sym::Range{e, e, sym::integer(1), sym::integer(1)};
        for (const sym::Range& rr : one.dims)
          for (const sym::Expr& x : {rr.start, rr.end})
            for (const std::string& f : sym::free_symbols(x)) bound &= defined.count(f) != 0;
        if (bound) element = one;
      }
    }
    if (!element) {
      kept.insert(name);
      i = close + 1;
      continue;
    }
    (is_in ? in_map : out_map)[fresh] = {name, *element};
    connectors.insert(fresh);
    out += code.substr(copied, i - copied) + fresh;
    copied = close + 1;
    i = close + 1;
  }
  if (in_map.empty() && out_map.empty()) return false;
  out += code.substr(copied);
  t.code.code = out;
  auto mentioned = [&](const std::string& name) {
    for (size_t p = out.find(name); p != std::string::npos; p = out.find(name, p + 1)) {
      const bool left = p == 0 || !ident_char(out[p - 1]);
      const bool right = p + name.size() >= out.size() || !ident_char(out[p + name.size()]);
      if (left && right) return true;
    }
    return false;
  };
  for (bool in : {true, false}) {
    const auto& mapping = in ? in_map : out_map;
    std::set<std::string> originals;
    for (const auto& [fresh, use] : mapping) {
      const ir::DataflowEdge old = *state.edge((in ? in_edge : out_edge).at(use.first));
      ir::Memlet m;
      m.data = old.memlet.data;
      m.subset = use.second;
      if (in) {
        t.in_connectors[fresh] = ir::DType{};
        state.add_edge(ir::DataflowEdge{old.src, id, old.src_conn, fresh, std::move(m)});
      } else {
        t.out_connectors[fresh] = ir::DType{};
        state.add_edge(ir::DataflowEdge{id, old.dst, fresh, old.dst_conn, std::move(m)});
      }
      originals.insert(use.first);
    }
    for (const std::string& c : originals) {
      if (kept.count(c) || mentioned(c)) continue;
      state.remove_edge((in ? in_edge : out_edge).at(c));
      (in ? t.in_connectors : t.out_connectors).erase(c);
    }
  }
  return true;
}

}  // namespace

bool remove_symbol_indirection(ir::SDFG& sdfg) {
  std::set<std::string> base = assigned_symbols(sdfg);
  for (const auto& [k, type] : sdfg.symbols) base.insert(k);
  for (const auto& [k, c] : sdfg.constants) base.insert(k);
  bool changed = false;
  for (ir::State* st : sdfg.all_states()) {
    const ScopeTree scopes = ScopeTree::compute(*st);
    for (int id : st->node_ids()) {
      if (st->node(id)->kind != ir::NodeKind::Tasklet) continue;
      std::set<std::string> defined = base;
      for (int e = scopes.parent[static_cast<size_t>(id)]; e >= 0; e = scopes.parent[static_cast<size_t>(e)])
        if (const ir::Node* n = st->node(e); n->kind == ir::NodeKind::MapEntry)
          for (const std::string& param : static_cast<const ir::MapEntry&>(*n).map.params) defined.insert(param);
      const bool cpp = static_cast<const ir::Tasklet&>(*st->node(id)).code.language == ir::Language::CPP;
      changed |= cpp ? promote_cpp_tasklet(*st, id, defined) : promote_tasklet(*st, id, defined);
    }
  }
  return changed;
}

}  // namespace dace::transform
