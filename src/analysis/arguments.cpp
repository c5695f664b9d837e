#include "analysis/arguments.h"

#include <map>
#include <vector>

#include "analysis/validate_code.h"
#include "ir/tasklet/parser.h"

namespace dace::analysis {

namespace {

using Names = std::set<std::string>;

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

int entry_of_exit(const ir::Node& n) {
  if (n.kind == ir::NodeKind::MapExit) return static_cast<const ir::MapExit&>(n).entry;
  if (n.kind == ir::NodeKind::ConsumeExit) return static_cast<const ir::ConsumeExit&>(n).entry;
  return -1;
}

// Collects every symbol the SDFG reads, minus the ones bound where they are read (scope
// parameters, loop variables, tasklet locals).
struct Collector {
  const ir::SDFG& sdfg;
  Names used;

  void add(sym::Expr e, const Names& local) {
    if (!e) return;
    for (const auto& s : sym::free_symbols(e))
      if (!local.count(s)) used.insert(s);
  }
  void add_names(const Names& names, const Names& local) {
    for (const auto& n : names)
      if (!local.count(n)) used.insert(n);
  }
  void add_subset(const sym::Subset& s, const Names& local) {
    for (const auto& r : s.dims)
      for (sym::Expr e : {r.start, r.end, r.step, r.tile}) add(e, local);
  }

  // Symbols an entry node binds for its body.
  static Names entry_symbols(const ir::Node* n) {
    Names out;
    if (!n) return out;
    if (n->kind == ir::NodeKind::MapEntry)
      for (const auto& p : static_cast<const ir::MapEntry*>(n)->map.params) out.insert(p);
    else if (n->kind == ir::NodeKind::ConsumeEntry)
      out.insert(static_cast<const ir::ConsumeEntry*>(n)->consume.pe_index);
    else
      return out;
    for (const auto& [conn, type] : n->in_connectors)
      if (!starts_with(conn, "IN_")) out.insert(conn);
    return out;
  }

  void tasklet(const ir::Tasklet& t, const Names& local) {
    const std::string& code = t.code.code;
    if (t.code.language == ir::Language::Python) {
      auto parsed = tasklet::parse_code(code);
      if (parsed.ok()) {
        detail::ProgramNames names;
        detail::collect_names(*parsed, names);
        for (const auto& n : names.read) {
          if (t.in_connectors.count(n) || t.out_connectors.count(n) || names.assigned.count(n)) continue;
          if (detail::is_module_name(n) || n == "inf" || n == "nan" || n == "pi" || n == "None") continue;
          if (!local.count(n)) used.insert(n);
        }
        return;
      }
    }
    // Other languages (and unparsable code): only declared symbols can be recognized.
    for (const auto& id : detail::identifiers_in_text(code))
      if (sdfg.symbols.count(id) && !local.count(id) && !t.in_connectors.count(id) && !t.out_connectors.count(id))
        used.insert(id);
  }

  // DaCe counts the symbols of a library node's SymbolicProperty values as free symbols
  // (Pgemm's m/n/k, "LMx*Px"). Classes stay unknown to libdace, so the properties are named
  // per class here; a value that does not parse adds nothing.
  void library(const ir::LibraryNode& n, const Names& local) {
    static const std::map<std::string, std::vector<const char*>> symbolic = {
        {"dace.libraries.pblas.nodes.pgemm.Pgemm", {"m", "n", "k"}},
        {"dace.libraries.pblas.nodes.pgemv.Pgemv", {"m", "n"}},
        {"dace.libraries.mpi.nodes.wait.Wait", {"n"}},
        {"dace.libraries.mpi.nodes.wait.Waitall", {"n"}},
    };
    auto it = symbolic.find(n.classpath);
    if (it == symbolic.end()) return;
    for (const char* key : it->second) {
      auto p = n.properties.find(key);
      if (p == n.properties.end()) continue;
      std::string text = p->second;
      if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
      if (text == "null" || text.empty()) continue;
      auto e = sym::parse(text);
      if (e.ok()) add(*e, local);
    }
  }

  void state(const ir::State& s, const Names& outer) {
    const std::vector<int>& parents = s.scope_parents();
    auto local_at = [&](int node) {
      Names local = outer;
      int p = node >= 0 && node < static_cast<int>(parents.size()) ? parents[node] : -1;
      for (size_t steps = 0; p >= 0 && p < static_cast<int>(parents.size()) && steps < parents.size(); ++steps) {
        Names syms = entry_symbols(s.node(p));
        local.insert(syms.begin(), syms.end());
        p = parents[p];
      }
      return local;
    };
    for (int id : s.node_ids()) {
      const ir::Node* n = s.node(id);
      Names local = local_at(id);
      switch (n->kind) {
        case ir::NodeKind::MapEntry: {
          for (const auto& [conn, type] : n->in_connectors)
            if (!starts_with(conn, "IN_")) local.insert(conn);
          add_subset(static_cast<const ir::MapEntry*>(n)->map.range, local);
          break;
        }
        case ir::NodeKind::ConsumeEntry: {
          const auto& c = static_cast<const ir::ConsumeEntry*>(n)->consume;
          for (const auto& [conn, type] : n->in_connectors)
            if (!starts_with(conn, "IN_")) local.insert(conn);
          add(c.num_pes, local);
          add(c.chunksize, local);
          if (!c.condition.code.empty() && c.condition.language == ir::Language::Python) {
            local.insert(c.pe_index);
            add_names(detail::expression_names(c.condition.code), local);
          }
          break;
        }
        case ir::NodeKind::Tasklet: tasklet(static_cast<const ir::Tasklet&>(*n), local); break;
        case ir::NodeKind::Library: library(static_cast<const ir::LibraryNode&>(*n), local); break;
        case ir::NodeKind::NestedSDFG:
          for (const auto& [inner, value] : static_cast<const ir::NestedSDFGNode*>(n)->symbol_mapping) add(value, local);
          break;
        default: break;
      }
    }
    for (int e : s.edge_ids()) {
      const ir::DataflowEdge* edge = s.edge(e);
      if (edge->memlet.is_empty()) continue;
      Names local = local_at(edge->dst);
      Names src_local = local_at(edge->src);
      local.insert(src_local.begin(), src_local.end());
      if (const ir::Node* src = s.node(edge->src); src && src->is_scope_entry()) {
        Names syms = entry_symbols(src);
        local.insert(syms.begin(), syms.end());
      }
      if (const ir::Node* dst = s.node(edge->dst); dst && dst->is_scope_exit()) {
        Names syms = entry_symbols(s.node(entry_of_exit(*dst)));
        local.insert(syms.begin(), syms.end());
      }
      add_subset(edge->memlet.subset, local);
      if (edge->memlet.other_subset) add_subset(*edge->memlet.other_subset, local);
      add(edge->memlet.volume, local);
    }
  }

  void region(const ir::ControlFlowRegion& r, const Names& local, int depth) {
    if (depth > 256) return;
    for (int slot : r.edge_slots()) {
      const ir::InterstateEdge* e = r.edge(slot);
      add_names(detail::expression_names(e->condition.code), local);
      for (const auto& [target, value] : e->assignments) add_names(detail::expression_names(value), local);
    }
    for (int slot : r.block_slots()) {
      const ir::ControlFlowBlock* b = r.block(slot);
      switch (b->kind) {
        case ir::BlockKind::State: state(static_cast<const ir::State&>(*b), local); break;
        case ir::BlockKind::Region: region(static_cast<const ir::ControlFlowRegion&>(*b), local, depth + 1); break;
        case ir::BlockKind::Loop: {
          const auto& loop = static_cast<const ir::LoopRegion&>(*b);
          Names inner = local;
          if (!loop.loop_variable.empty()) inner.insert(loop.loop_variable);
          add_names(detail::expression_names(loop.loop_condition.code), inner);
          for (const ir::CodeBlock* stmt : {&loop.init_statement, &loop.update_statement}) {
            if (stmt->code.empty()) continue;
            auto parsed = tasklet::parse_assignment(stmt->code);
            if (!parsed.ok() || !parsed->value) continue;
            Names names;
            detail::collect_names(*parsed->value, names);
            add_names(names, inner);
          }
          region(loop, inner, depth + 1);
          break;
        }
        case ir::BlockKind::Conditional:
          for (const auto& [cond, body] : static_cast<const ir::ConditionalBlock&>(*b).branches) {
            if (cond) add_names(detail::expression_names(cond->code), local);
            if (body) region(*body, local, depth + 1);
          }
          break;
        default: break;
      }
    }
  }
};

}  // namespace

std::set<std::string> free_symbols(const ir::SDFG& sdfg) {
  Collector c{sdfg, {}};
  for (const auto& [name, d] : sdfg.arrays) {
    for (const auto* list : {&d.shape, &d.strides, &d.offset})
      for (sym::Expr e : *list) c.add(e, {});
    c.add(d.total_size, {});
    c.add(d.start_offset, {});
    c.add(d.buffer_size, {});
  }
  c.region(sdfg, {}, 0);

  // Symbols assigned on interstate edges anywhere, and loop variables of loop regions (a
  // transient may be sized by one, as after LoopLifting), are defined inside the SDFG.
  Names assigned;
  detail::for_each_region(sdfg, [&](const ir::ControlFlowRegion& r) {
    for (int slot : r.edge_slots())
      for (const auto& [target, value] : r.edge(slot)->assignments) assigned.insert(target);
    if (r.kind == ir::BlockKind::Loop) {
      const auto& loop = static_cast<const ir::LoopRegion&>(r);
      if (!loop.loop_variable.empty()) assigned.insert(loop.loop_variable);
    }
  });

  std::set<std::string> out;
  for (const auto& s : c.used)
    if (!assigned.count(s) && !sdfg.arrays.count(s) && !sdfg.constants.count(s) && !detail::is_module_name(s))
      out.insert(s);
  return out;
}

std::vector<Argument> argument_list(const ir::SDFG& sdfg) {
  std::vector<Argument> out;
  // std::map iterates in byte order, which is Python's sort order for identifiers.
  std::map<std::string, Argument> scalars;
  for (const auto& [name, d] : sdfg.arrays) {
    if (d.transient || starts_with(name, "__dace")) continue;
    if (d.kind == ir::DataKind::Scalar)
      scalars[name] = Argument{name, Argument::Kind::Scalar, d.dtype};
    else
      out.push_back(Argument{name, Argument::Kind::Array, d.dtype});
  }
  for (const auto& s : free_symbols(sdfg)) {
    if (starts_with(s, "__dace") || scalars.count(s)) continue;
    auto it = sdfg.symbols.find(s);
    ir::DType type = it != sdfg.symbols.end() ? it->second : ir::DType::of(ir::ScalarType::Int64);
    scalars[s] = Argument{s, Argument::Kind::Symbol, type};
  }
  for (auto& [name, arg] : scalars) out.push_back(std::move(arg));
  return out;
}

const char* to_string(Argument::Kind k) {
  switch (k) {
    case Argument::Kind::Array: return "array";
    case Argument::Kind::Scalar: return "scalar";
    case Argument::Kind::Symbol: return "symbol";
  }
  return "?";
}

}  // namespace dace::analysis
