#include "transform/scalar_to_symbol.h"

#include <optional>
#include <vector>

#include "ir/dtype.h"
#include "ir/edit.h"
#include "ir/entry_block.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"
#include "transform/symbol_use.h"
#include "transform/symbol_indirection.h"

namespace dace::transform {
namespace {

using tasklet::ExprPtr;

bool starts_with(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }

// The SDFG and every region inside it (loop bodies, conditional branches; not nested SDFGs),
// pre-order.
std::vector<ir::ControlFlowRegion*> regions_of(ir::SDFG& sdfg) {
  std::vector<ir::ControlFlowRegion*> out{&sdfg};
  sdfg.for_each_block([&](ir::ControlFlowBlock& b) {
    if (b.kind == ir::BlockKind::Region || b.kind == ir::BlockKind::Loop) out.push_back(static_cast<ir::ControlFlowRegion*>(&b));
  });
  return out;
}
std::vector<const ir::ControlFlowRegion*> regions_of(const ir::SDFG& sdfg) {
  std::vector<const ir::ControlFlowRegion*> out;
  for (ir::ControlFlowRegion* r : regions_of(const_cast<ir::SDFG&>(sdfg))) out.push_back(r);
  return out;
}

// Not a view, reference or stream, and of total size 1.
bool one_element(const ir::DataDescriptor& d) {
  if (d.kind == ir::DataKind::View || d.kind == ir::DataKind::Reference || d.kind == ir::DataKind::Stream) return false;
  sym::Expr size = d.total_size ? d.total_size : ir::product(d.shape);
  return sym::as_integer(size) == std::optional<int64_t>(1);
}

bool integral(const ir::DType& t) {
  return t.pointer_depth == 0 && t.opaque.empty() && t.raw_json.empty() &&
         (t.scalar == tasklet::ScalarType::Bool || tasklet::is_integer(t.scalar));
}

// The edges of the memlet tree below `e` (itself first): through map entries IN_x -> OUT_x.
void memlet_tree(const ir::State& s, int e, std::vector<int>& out) {
  out.push_back(e);
  const ir::DataflowEdge& E = *s.edge(e);
  if (!s.node(E.dst)->is_scope_entry() || !starts_with(E.dst_conn, "IN_")) return;
  const std::string inner = "OUT_" + E.dst_conn.substr(3);
  for (int oe : s.out_edges(E.dst))
    if (s.edge(oe)->src_conn == inner) memlet_tree(s, oe, out);
}

// The subset of the container at the destination of a copy out of `src_data`.
std::optional<sym::Subset> dst_subset(const ir::Memlet& m, const std::string& src_data) {
  if (m.data != src_data) return m.subset;
  return m.other_subset;
}
std::optional<sym::Subset> src_subset(const ir::Memlet& m, const std::string& src_data) {
  if (m.data == src_data) return m.subset;
  return m.other_subset;
}

bool single_element(const ir::Memlet& m) {
  if (m.is_empty() || m.dynamic) return false;
  auto v = sym::as_integer(sym::volume(m.subset));
  return v && *v == 1;
}

// Python code of one `conn = expression` statement; null when the tasklet is not of that form.
const tasklet::Assign* single_assignment(const tasklet::Program& p, const std::string& conn) {
  if (p.body.size() != 1) return nullptr;
  const auto* a = p.body[0]->as<tasklet::Assign>();
  if (!a || a->targets.size() != 1) return nullptr;
  const tasklet::Expr& t = *a->targets[0];
  const tasklet::Name* n = t.as<tasklet::Name>();
  if (const auto* s = t.as<tasklet::Subscript>()) n = s->value->as<tasklet::Name>();
  return n && n->id == conn ? a : nullptr;
}

// DaCe refuses calls of attributes (`math.sin(x)`), except casts of a literal (`dace.int64(2)`).
bool dace_literal_cast(const tasklet::Call& c) {
  return starts_with(c.func, "dace.") && c.args.size() == 1 && c.keywords.empty() &&
         c.args[0]->is<tasklet::Constant>();
}
bool has_attribute_call(const tasklet::Expr& e) {
  bool found = false;
  tasklet::walk(e, [&](const tasklet::Expr& x) {
    if (const auto* c = x.as<tasklet::Call>())
      if (c->func.find('.') != std::string::npos && !dace_literal_cast(*c)) found = true;
  });
  return found;
}

// `dace.int64(2)` -> `2`: the value of a literal cast, as DaCe folds it before the tasklet's
// expression becomes an interstate assignment (symbolic expressions know no dace casts).
ExprPtr fold_literal_casts(const ExprPtr& e) {
  return tasklet::rewrite(e, [](const tasklet::Expr& x) -> ExprPtr {
    const auto* c = x.as<tasklet::Call>();
    if (!c || !dace_literal_cast(*c)) return nullptr;
    auto t = ir::parse_scalar_type(c->func.substr(5));
    if (!t) return nullptr;
    tasklet::Constant in = *c->args[0]->as<tasklet::Constant>(), out;
    const double v = in.kind == tasklet::ConstantKind::Int ? static_cast<double>(in.int_value)
                     : in.kind == tasklet::ConstantKind::Bool ? (in.bool_value ? 1.0 : 0.0)
                                                              : in.value;
    if (in.kind == tasklet::ConstantKind::Complex) return nullptr;
    if (*t == tasklet::ScalarType::Bool) {
      out.kind = tasklet::ConstantKind::Bool;
      out.bool_value = v != 0.0;
    } else if (tasklet::is_integer(*t)) {
      out.kind = tasklet::ConstantKind::Int;
      out.int_value = in.kind == tasklet::ConstantKind::Int ? in.int_value : static_cast<uint64_t>(v);
    } else if (*t == tasklet::ScalarType::Float32 || *t == tasklet::ScalarType::Float64) {
      out.kind = tasklet::ConstantKind::Float;
      out.value = v;
    } else {
      return nullptr;
    }
    return tasklet::make_expr(x.loc, out);
  });
}

class Finder {
 public:
  Finder(const ir::SDFG& sdfg, std::map<std::string, std::string>* why) : sdfg_(sdfg), why_(why) {}

  std::set<std::string> run(bool transients_only, bool integers_only) {
    for (const auto& [name, desc] : sdfg_.arrays) {
      if ((transients_only && !desc.transient) || !one_element(desc)) continue;
      if (desc.lifetime == ir::Lifetime::Persistent || desc.lifetime == ir::Lifetime::External) continue;
      cand_.insert(name);
    }
    if (cand_.empty()) return {};
    // Every state, also inside loops and branches, as DaCe's sdfg.states().
    std::set<std::string> seen;
    for (const ir::State* st : sdfg_.all_states()) check_state(*st, seen);

    // Interstate code is what the edges of every region read (DaCe's all_interstate_edges);
    // loop headers and branch conditions do not count here, as in DaCe, but are rewritten.
    std::set<std::string> interstate;
    for (const ir::ControlFlowRegion* r : regions_of(sdfg_))
      for (int es : r->edge_slots()) {
        const ir::InterstateEdge& e = *r->edge(es);
        interstate.merge(code_names(e.condition.code));
        for (const auto& [lhs, rhs] : e.assignments) interstate.merge(code_names(rhs));
      }
    for (const std::string& c : std::set<std::string>(cand_)) {
      if (integers_only && !interstate.count(c) && !integral(sdfg_.arrays.at(c).dtype))
        drop(c, "'" + c + "' is not an integer and no interstate code reads it");
      else if (!seen.count(c) && !interstate.count(c))
        drop(c, "'" + c + "' is neither written in a state nor read by interstate code");
    }
    return cand_;
  }

 private:
  static std::set<std::string> code_names(const std::string& code) {
    auto e = tasklet::parse_expression_cached(code);
    return e ? tasklet::names_read(**e) : identifiers_in(code);
  }

  void drop(const std::string& c, const std::string& why) {
    if (cand_.erase(c) && why_) (*why_)[c] = why;
  }

  // A nested SDFG reading the scalar through `conn` (DaCe descends and promotes the connector
  // there too): `conn` is a one-element container inside that nothing inside writes, and every
  // read of it inside can be rewritten.
  bool nested_reads_ok(const ir::NestedSDFGNode& n, const std::string& conn, const std::string& c,
                       const std::string& where) {
    const std::string at = where + " is read by nested SDFG '" + n.label + "' as '" + conn + "'";
    if (!n.sdfg || n.out_connectors.count(conn)) {
      drop(c, at + ", which it also writes (or it has no SDFG)");
      return false;
    }
    auto d = n.sdfg->arrays.find(conn);
    if (d == n.sdfg->arrays.end() || !one_element(d->second)) {
      drop(c, at + ", not a one-element container inside");
      return false;
    }
    for (const ir::State* st : n.sdfg->all_states())
      for (int id : st->node_ids()) {
        const ir::Node& x = *st->node(id);
        if (x.kind != ir::NodeKind::Access || static_cast<const ir::AccessNode&>(x).data != conn) continue;
        if (!st->in_edges(id).empty()) {
          drop(c, at + ", which writes it in state '" + st->label + "'");
          return false;
        }
        if (!readers_ok(*st, id, c)) return false;
      }
    return true;
  }

  // Whether every read through the memlet trees below `node` can be rewritten.
  bool readers_ok(const ir::State& s, int node, const std::string& c) {
    for (int oe : s.out_edges(node)) {
      std::vector<int> tree;
      memlet_tree(s, oe, tree);
      for (int e : tree) {
        const ir::DataflowEdge& E = *s.edge(e);
        const ir::Node& dst = *s.node(E.dst);
        const std::string where = "'" + c + "' in state '" + s.label + "'";
        switch (dst.kind) {
          case ir::NodeKind::Tasklet:
            if (static_cast<const ir::Tasklet&>(dst).code.language != ir::Language::Python ||
                !tasklet::parse_code_cached(static_cast<const ir::Tasklet&>(dst).code.code)) {
              drop(c, where + " is read by a tasklet whose code is not Python we read ('" + dst.label + "')");
              return false;
            }
            break;
          case ir::NodeKind::Access:
            if (!dst_subset(E.memlet, static_cast<const ir::AccessNode&>(*s.node(node)).data)) {
              drop(c, where + " is copied to '" + dst.label + "' without a destination subset");
              return false;
            }
            break;
          case ir::NodeKind::MapEntry:
          case ir::NodeKind::ConsumeEntry:
            if (!starts_with(E.dst_conn, "IN_")) {
              drop(c, where + " is a dynamic range input of '" + dst.label + "'");
              return false;
            }
            break;
          case ir::NodeKind::Library:
            drop(c, where + " is read by library node '" + dst.label + "'");
            return false;
          case ir::NodeKind::NestedSDFG:
            if (!nested_reads_ok(static_cast<const ir::NestedSDFGNode&>(dst), E.dst_conn, c, where)) return false;
            break;
          default:
            drop(c, where + " is read by '" + dst.label + "', which cannot read a symbol in its place");
            return false;
        }
      }
    }
    return true;
  }

  void check_state(const ir::State& s, std::set<std::string>& seen) {
    std::set<std::string> written_here;
    std::vector<int> parents;
    for (int id : s.node_ids()) {
      const ir::Node& n = *s.node(id);
      if (n.kind != ir::NodeKind::Access) continue;
      const std::string& c = static_cast<const ir::AccessNode&>(n).data;
      if (!cand_.count(c)) continue;
      if (!readers_ok(s, id, c)) continue;
      const auto in = s.in_edges(id);
      if (in.empty()) continue;
      const std::string where = "'" + c + "' in state '" + s.label + "'";
      if (parents.empty()) parents = s.scope_parents();
      if (parents[static_cast<size_t>(id)] != -1) {
        drop(c, where + " is written inside a map or consume scope");
        continue;
      }
      if (written_here.count(c) || in.size() > 1) {
        drop(c, where + " is written more than once in the state");
        continue;
      }
      written_here.insert(c);
      const ir::DataflowEdge& E = *s.edge(in[0]);
      if (!E.memlet.wcr.empty()) {
        drop(c, where + " is written with write-conflict resolution");
        continue;
      }
      const ir::Node& src = *s.node(E.src);
      if (src.kind == ir::NodeKind::Access) {
        const auto& a = static_cast<const ir::AccessNode&>(src);
        auto it = sdfg_.arrays.find(a.data);
        if (it == sdfg_.arrays.end() || it->second.storage != sdfg_.arrays.at(c).storage ||
            it->second.storage == ir::StorageType::GPU_Global || it->second.storage == ir::StorageType::GPU_Shared ||
            it->second.kind == ir::DataKind::Stream || !s.in_edges(E.src).empty() || !src_subset(E.memlet, a.data)) {
          drop(c, where + " is copied from '" + a.data +
                      "', which is written in the state, a stream, of another storage or in device memory");
          continue;
        }
      } else if (src.kind == ir::NodeKind::Tasklet) {
        if (!tasklet_ok(s, E.src, E.src_conn, where, c)) continue;
      } else {
        drop(c, where + " is written by '" + src.label + "', neither a tasklet nor an access node");
        continue;
      }
    }
    seen.merge(written_here);
  }

  bool tasklet_ok(const ir::State& s, int t, const std::string& conn, const std::string& where, const std::string& c) {
    const auto& tk = static_cast<const ir::Tasklet&>(*s.node(t));
    if (s.out_edges(t).size() > 1) {
      drop(c, where + " is written by tasklet '" + tk.label + "', which has other outputs");
      return false;
    }
    for (int ie : s.in_edges(t)) {
      const ir::DataflowEdge& E = *s.edge(ie);
      const ir::Node& in = *s.node(E.src);
      if (in.kind != ir::NodeKind::Access || !single_element(E.memlet) || !s.in_edges(E.src).empty()) {
        drop(c, where + ": an input of tasklet '" + tk.label + "' is not one element of a container unwritten in the state");
        return false;
      }
      auto it = sdfg_.arrays.find(static_cast<const ir::AccessNode&>(in).data);
      if (it == sdfg_.arrays.end() || it->second.kind == ir::DataKind::Stream) {
        drop(c, where + ": tasklet '" + tk.label + "' reads a stream or an undeclared container");
        return false;
      }
      // The symbol's assignment runs on the host, which cannot read device memory.
      if (it->second.storage == ir::StorageType::GPU_Global || it->second.storage == ir::StorageType::GPU_Shared) {
        drop(c, where + ": tasklet '" + tk.label + "' reads '" + it->first + "', which is in device memory");
        return false;
      }
    }
    if (tk.side_effects) {
      drop(c, where + " is written by tasklet '" + tk.label + "', which has side effects");
      return false;
    }
    if (tk.code.language != ir::Language::Python) {
      drop(c, where + " is written by tasklet '" + tk.label + "', which is not Python");
      return false;
    }
    auto prog = tasklet::parse_code_cached(tk.code.code);
    const tasklet::Assign* a = prog ? single_assignment(**prog, conn) : nullptr;
    if (!a) {
      drop(c, where + " is written by tasklet '" + tk.label + "', which is not one assignment to '" + conn + "'");
      return false;
    }
    if (has_attribute_call(*a->value)) {
      drop(c, where + " is computed with an attribute call in tasklet '" + tk.label + "'");
      return false;
    }
    return true;
  }

  const ir::SDFG& sdfg_;
  std::map<std::string, std::string>* why_;
  std::set<std::string> cand_;
};

std::string element_text(const ir::SDFG& sdfg, const std::string& data, const sym::Subset& subset) {
  if (sdfg.arrays.at(data).kind == ir::DataKind::Scalar) return data;
  return data + "[" + sym::to_string(subset) + "]";
}

// The interstate expression of the write into `node`, or an error when the tasklet does not
// parse (the finder parsed it already).
Result<std::string> assigned_value(const ir::SDFG& sdfg, const ir::State& s, int node) {
  const ir::DataflowEdge& E = *s.edge(s.in_edges(node)[0]);
  const ir::Node& src = *s.node(E.src);
  if (src.kind == ir::NodeKind::Access) {
    const std::string& data = static_cast<const ir::AccessNode&>(src).data;
    return element_text(sdfg, data, *src_subset(E.memlet, data));
  }
  const auto& tk = static_cast<const ir::Tasklet&>(src);
  auto prog = tasklet::parse_code_cached(tk.code.code);
  if (!prog) return prog.take_error();
  const tasklet::Assign* a = single_assignment(**prog, E.src_conn);
  tasklet::NameValues inputs;
  for (int ie : s.in_edges(E.src)) {
    const ir::DataflowEdge& in = *s.edge(ie);
    const std::string& data = static_cast<const ir::AccessNode&>(*s.node(in.src)).data;
    auto v = tasklet::parse_expression_cached(element_text(sdfg, data, *src_subset(in.memlet, data)));
    if (!v) return v.take_error();
    inputs[in.dst_conn] = *v;
  }
  return tasklet::to_source(*tasklet::substitute(fold_literal_casts(a->value), inputs));
}

// Step 2: each write becomes an assignment on the edge from a new state before `s` in its
// region.
Status move_writes(ir::SDFG& sdfg, ir::State& s, const std::set<std::string>& promoted) {
  ir::ControlFlowRegion& region = *s.parent;
  const int slot = region.slot_of(&s);
  std::vector<int> scalars;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Access && promoted.count(static_cast<const ir::AccessNode&>(*s.node(id)).data))
      scalars.push_back(id);
  for (int id : scalars) {
    if (!s.node(id) || s.in_edges(id).empty()) continue;
    auto value = assigned_value(sdfg, s, id);
    if (!value) return Status(value.take_error());
    const std::string data = static_cast<const ir::AccessNode&>(*s.node(id)).data;
    const int input = s.edge(s.in_edges(id)[0])->src;
    std::vector<int> group{input, id};
    for (int ie : s.in_edges(input)) group.push_back(s.edge(ie)->src);
    // The moved subgraph leaves the state; nodes with other edges (boundary nodes) stay.
    for (int n : group)
      if (s.node(n))
        for (int e : s.out_edges(n))
          for (int m : group)
            if (s.edge(e) && s.edge(e)->dst == m) s.remove_edge(e);
    for (int n : group)
      if (s.node(n) && s.in_edges(n).empty() && s.out_edges(n).empty()) s.remove_node(n);
    const int edge = ir::add_state_before(sdfg, region, slot, "block");  // DaCe's state fission
    region.edge(edge)->assignments.emplace_back(data, *value);
  }
  return Status();
}

Status promote_inside(ir::NestedSDFGNode& n, const std::string& conn, const std::string& symbol, const ir::DType& t);

// Step 3: reads of the scalars (container -> symbol) read the symbol.
Status replace_reads(ir::SDFG& sdfg, ir::State& s, const std::map<std::string, std::string>& symbol_of) {
  std::vector<int> scalars;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Access && symbol_of.count(static_cast<const ir::AccessNode&>(*s.node(id)).data))
      scalars.push_back(id);
  for (int id : scalars) {
    const std::string data = static_cast<const ir::AccessNode&>(*s.node(id)).data;
    const std::string sym = symbol_of.at(data);
    for (int oe : s.out_edges(id)) {
      std::vector<int> tree;
      memlet_tree(s, oe, tree);
      for (int e : tree) {
        const ir::DataflowEdge E = *s.edge(e);
        ir::remove_edge_and_connectors(s, e);
        ir::Node& dst = *s.node(E.dst);
        int reader = E.dst;
        if (dst.kind == ir::NodeKind::Tasklet) {
          auto& t = static_cast<ir::Tasklet&>(dst);
          auto code = tasklet::substitute_in_code(t.code.code, {{E.dst_conn, sym}}, /*subscripts=*/true);
          if (!code) return Status(code.take_error());
          t.code.code = *code;
        } else if (dst.kind == ir::NodeKind::Access) {
          const std::string& into = static_cast<const ir::AccessNode&>(dst).data;
          auto t = std::make_unique<ir::Tasklet>();
          t->label = "symassign";
          t->code = ir::CodeBlock{"__out = " + sym, ir::Language::Python};
          t->out_connectors["__out"] = ir::DType{};
          reader = s.add_node(std::move(t));
          ir::DataflowEdge w;
          w.src = reader;
          w.src_conn = "__out";
          w.dst = E.dst;
          w.dst_conn = E.dst_conn;
          w.memlet.data = into;
          w.memlet.subset = *dst_subset(E.memlet, data);
          w.memlet.volume = sym::integer(1);
          s.add_edge(std::move(w));
        } else if (dst.kind == ir::NodeKind::NestedSDFG) {
          const ir::DType t = sdfg.arrays.at(data).dtype;
          if (Status st = promote_inside(static_cast<ir::NestedSDFGNode&>(dst), E.dst_conn, sym, t); !st.ok()) return st;
        } else {
          continue;  // a scope entry: its inner edges are in the tree
        }
        // A reader inside a scope that lost its only edge from the entry stays in the scope.
        if (s.node(E.src)->is_scope_entry()) {
          bool connected = false;
          for (int x : s.out_edges(E.src)) connected |= s.edge(x)->dst == reader;
          if (!connected) {
            ir::DataflowEdge empty;
            empty.src = E.src;
            empty.dst = reader;
            s.add_edge(std::move(empty));
          }
        }
      }
    }
  }
  for (int id : scalars)
    if (s.node(id) && s.in_edges(id).empty() && s.out_edges(id).empty()) s.remove_node(id);
  return Status();
}

// Step 6: interstate code read `s[0]` for a scalar `s`; the symbol has no subscript (and, inside
// a nested SDFG, has the symbol's name: `symbol_of` maps containers to symbols). DaCe rewrites
// interstate edges; loop headers and branch conditions are rewritten too, since they read the
// scalar as well.
Status drop_subscripts(ir::SDFG& sdfg, const std::map<std::string, std::string>& symbol_of) {
  bool renames = false;
  for (const auto& [data, symbol] : symbol_of) renames |= data != symbol;
  auto fix = [&](std::string& code) -> Status {
    if (!renames && code.find('[') == std::string::npos) return Status();
    auto e = tasklet::parse_expression_cached(code);
    if (!e) return Status();  // not ours to judge: validation reports it
    bool subscripted = false, read = false;
    tasklet::walk(**e, [&](const tasklet::Expr& x) {
      if (const auto* n = x.as<tasklet::Name>()) read |= symbol_of.count(n->id) > 0;
      if (const auto* sub = x.as<tasklet::Subscript>())
        if (const auto* n = sub->value->as<tasklet::Name>()) subscripted |= symbol_of.count(n->id) > 0;
    });
    if (!subscripted && !(renames && read)) return Status();
    auto out = tasklet::substitute_in_expression(code, symbol_of, /*subscripts=*/true);
    if (!out) return Status(out.take_error());
    code = *out;
    return Status();
  };
  // `i = s[0] + 1` in a loop's init or update statement: the right-hand side as above.
  auto fix_statement = [&](std::string& code) -> Status {
    if (!renames && code.find('[') == std::string::npos) return Status();
    auto a = tasklet::parse_assignment(code);
    if (!a) return Status();
    std::string value = tasklet::to_source(*a->value);
    const std::string before = value;
    if (Status st = fix(value); !st.ok()) return st;
    if (value != before) code = a->target + " = " + value;
    return Status();
  };
  for (ir::ControlFlowRegion* r : regions_of(sdfg))
    for (int es : r->edge_slots()) {
      ir::InterstateEdge& e = *r->edge(es);
      if (!e.is_unconditional())
        if (Status st = fix(e.condition.code); !st.ok()) return st;
      for (auto& [lhs, rhs] : e.assignments)
        if (Status st = fix(rhs); !st.ok()) return st;
    }
  Status status;
  sdfg.for_each_block([&](ir::ControlFlowBlock& b) {
    if (!status.ok()) return;
    if (b.kind == ir::BlockKind::Loop) {
      auto& l = static_cast<ir::LoopRegion&>(b);
      status = fix(l.loop_condition.code);
      if (status.ok()) status = fix_statement(l.init_statement.code);
      if (status.ok()) status = fix_statement(l.update_statement.code);
    } else if (b.kind == ir::BlockKind::Conditional) {
      for (auto& [cond, branch] : static_cast<ir::ConditionalBlock&>(b).branches)
        if (cond && status.ok()) status = fix(cond->code);
    }
  });
  return status;
}

// DaCe's descent into a nested SDFG reading a promoted scalar through `conn`: inside, `conn`
// becomes a symbol (the outer symbol's name unless taken there), set by the symbol mapping.
Status promote_inside(ir::NestedSDFGNode& n, const std::string& conn, const std::string& symbol, const ir::DType& t) {
  ir::SDFG& inner = *n.sdfg;
  std::string name = symbol;
  for (int v = 1; inner.symbols.count(name) || inner.arrays.count(name); ++v) name = symbol + "_" + std::to_string(v);
  const std::map<std::string, std::string> symbol_of{{conn, name}};
  for (ir::State* st : inner.all_states())
    if (Status status = replace_reads(inner, *st, symbol_of); !status.ok()) return status;
  if (Status status = drop_subscripts(inner, symbol_of); !status.ok()) return status;
  inner.arrays.erase(conn);
  inner.symbols[name] = t;
  n.in_connectors.erase(conn);
  n.symbol_mapping[name] = sym::symbol(symbol);
  return Status();
}

}  // namespace

std::set<std::string> find_promotable_scalars(const ir::SDFG& sdfg, bool transients_only, bool integers_only,
                                              std::map<std::string, std::string>* why_not) {
  return Finder(sdfg, why_not).run(transients_only, integers_only);
}

Result<bool> ScalarToSymbolPromotion::promote_in(ir::SDFG& sdfg) const {
  const std::set<std::string> promoted = find_promotable_scalars(sdfg, transients_only_, integers_only_);
  if (promoted.empty()) return false;
  // The states as they are now: the ones step 2 adds are empty.
  for (ir::State* st : sdfg.all_states())
    if (Status status = move_writes(sdfg, *st, promoted); !status.ok()) return status.take_error();
  std::map<std::string, std::string> same;
  for (const std::string& p : promoted) same[p] = p;
  for (ir::State* st : sdfg.all_states())
    if (Status status = replace_reads(sdfg, *st, same); !status.ok()) return status.take_error();
  for (const std::string& p : promoted) {
    const ir::DType t = sdfg.arrays.at(p).dtype;
    sdfg.arrays.erase(p);
    sdfg.symbols.emplace(p, t);
  }
  if (Status st = drop_subscripts(sdfg, same); !st.ok()) return st.take_error();
  // DaCe's step 7: tasklet reads indexed by symbols only become memlets of one element.
  remove_symbol_indirection(sdfg);
  return true;
}

namespace {

// Nested SDFGs below `sdfg` in pre-order (DaCe's all_sdfgs_recursive, without the root).
void nested_sdfgs(ir::SDFG& sdfg, std::vector<ir::SDFG*>& out) {
  for (ir::State* st : sdfg.all_states())
    for (int id : st->node_ids())
      if (ir::Node* n = st->node(id); n->kind == ir::NodeKind::NestedSDFG)
        if (auto& inner = static_cast<ir::NestedSDFGNode*>(n)->sdfg) {
          out.push_back(inner.get());
          nested_sdfgs(*inner, out);
        }
}

}  // namespace

Result<bool> ScalarToSymbolPromotion::apply(ir::SDFG& sdfg, AnalysisManager&) {
  // DaCe's simplify applies the pass to every SDFG of the hierarchy, the root first (its
  // promotions may reach into nested SDFGs through their symbol mappings), then the nested
  // ones in pre-order, each on its own scalars.
  Result<bool> changed = promote_in(sdfg);
  if (!changed.ok()) return changed;
  bool any = *changed;
  std::vector<ir::SDFG*> nested;
  nested_sdfgs(sdfg, nested);
  for (ir::SDFG* inner : nested) {
    Result<bool> c = promote_in(*inner);
    if (!c.ok()) return c;
    any |= *c;
  }
  return any;
}

}  // namespace dace::transform
