// Dataflow rules of a state: graph shape, connectors, scopes, node-specific rules.
#include <algorithm>
#include <map>

#include "analysis/validate_code.h"
#include "analysis/validate_state_info.h"
#include "ir/tasklet/parser.h"

namespace dace::analysis::detail {

void validate_nested_sdfg(SdfgContext& ctx, const StateInfo& info, int id);

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool is_code_node(const ir::Node& n) {
  return n.kind == ir::NodeKind::Tasklet || n.kind == ir::NodeKind::NestedSDFG || n.kind == ir::NodeKind::Library;
}

struct StateChecker {
  SdfgContext& ctx;
  const StateInfo& info;
  const ir::State& state;
  // Per node slot: how many exits name it as their entry. Counted once per state, on the first
  // scope entry checked (a scan per entry was quadratic in maps with thousands of them).
  std::vector<int> exits_naming;

  int exits_of(int entry) {
    if (exits_naming.empty()) {
      exits_naming.assign(static_cast<size_t>(state.node_slots()), 0);
      for (int other : state.node_ids())
        if (const int e = entry_of_exit(*state.node(other)); e >= 0 && e < state.node_slots())
          ++exits_naming[static_cast<size_t>(e)];
    }
    return exits_naming[static_cast<size_t>(entry)];
  }

  std::string conn_path(int id, const std::string& conn) const {
    return ctx.node_path(state, id) + " / connector " + ir::quoted(conn);
  }

  // A view access node needs exactly one edge to the data it views (DaCe's get_view_edge).
  bool has_view_edge(int id) const {
    const std::vector<int>& in = info.in[id];
    const std::vector<int>& out = info.out[id];
    int marked = 0;
    for (int e : in)
      if (state.edge(e)->dst_conn == "views") ++marked;
    for (int e : out)
      if (state.edge(e)->src_conn == "views") ++marked;
    if (marked > 0) return marked == 1;
    if (in.empty() || out.empty()) return false;
    return in.size() == 1 || out.size() == 1;
  }

  void check_access(int id, const ir::AccessNode& a) {
    const ElementPath path(ctx, state, ElementPath::Kind::Node, id);
    // Structure members ("s.member") are addressed through their root container.
    std::string root = a.data.substr(0, a.data.find('.'));
    auto it = ctx.sdfg.arrays.find(a.data);
    if (it == ctx.sdfg.arrays.end()) it = ctx.sdfg.arrays.find(root);
    if (it == ctx.sdfg.arrays.end()) {
      ctx.error(path, "access node refers to undefined data " + ir::quoted(a.data));
      return;
    }
    const ir::DataDescriptor& d = it->second;
    if (d.kind == ir::DataKind::View && !has_view_edge(id))
      ctx.error(path, "ambiguous or missing edge to the data a view access node views");
    if (d.kind == ir::DataKind::Reference) {
      bool set_somewhere = false;
      for (const ir::State* s : states_below(ctx.sdfg))
        for (int e : s->edge_ids()) {
          const ir::DataflowEdge* edge = s->edge(e);
          const ir::Node* dst = s->node(edge->dst);
          if (edge->dst_conn == "set" && dst && dst->kind == ir::NodeKind::Access &&
              static_cast<const ir::AccessNode*>(dst)->data == a.data)
            set_somewhere = true;
        }
      if (!set_somewhere) ctx.error(path, "reference " + ir::quoted(a.data) + " is used but never set (no edge into its \"set\" connector)");
    }
    if (ctx.holder && !d.transient) {
      const auto& h = *ctx.holder;
      if (!h.in_connectors.count(root) && !h.out_connectors.count(root)) {
        ctx.error(path, "non-transient data " + ir::quoted(root) +
                            " is used in a nested SDFG but has no matching connector on the nested SDFG node");
      } else {
        bool written = false;
        for (int e : info.in[id])
          if (!state.edge(e)->memlet.is_empty()) written = true;
        if (written && !h.out_connectors.count(root))
          ctx.error(path, "data " + ir::quoted(root) +
                              " is written, but is only an input connector of the nested SDFG node");
      }
    }
  }

  void check_scope_node(int id, const ir::Node& n) {
    const ElementPath path(ctx, state, ElementPath::Kind::Node, id);
    for (const auto& [conn, type] : n.in_connectors)
      if (starts_with(conn, "IN_") && !n.out_connectors.count("OUT_" + conn.substr(3)))
        ctx.error(conn_path(id, conn), "scope input connector has no matching output connector " +
                                           ir::quoted("OUT_" + conn.substr(3)));
    for (const auto& [conn, type] : n.out_connectors)
      if (starts_with(conn, "OUT_") && !n.in_connectors.count("IN_" + conn.substr(4)))
        ctx.error(conn_path(id, conn), "scope output connector has no matching input connector " +
                                           ir::quoted("IN_" + conn.substr(4)));
    if (n.is_scope_entry()) {
      const int exits = exits_of(id);
      if (exits == 0) ctx.error(path, "scope entry has no matching exit node");
      if (exits > 1) ctx.error(path, "scope entry has " + std::to_string(exits) + " exit nodes");
    } else {
      int entry = entry_of_exit(n);
      const ir::Node* e = state.node(entry);
      ir::NodeKind want = n.kind == ir::NodeKind::MapExit ? ir::NodeKind::MapEntry : ir::NodeKind::ConsumeEntry;
      if (!e || e->kind != want)
        ctx.error(path, std::string("scope exit does not refer to a ") + ir::to_string(want) + " node (entry " +
                            std::to_string(entry) + ")");
    }
  }

  void check_map(int id, const ir::MapEntry& m) {
    const ElementPath path(ctx, state, ElementPath::Kind::Node, id);
    const ir::MapScope& map = m.map;
    if (!is_valid_name(m.label)) ctx.error(path, "invalid map name");
    if (map.params.size() != map.range.rank())
      ctx.error(path, "map has " + std::to_string(map.params.size()) + " parameters but " +
                          std::to_string(map.range.rank()) + " range dimensions");
    std::set<std::string> outer;  // symbols of enclosing scopes
    for (int e : info.enclosing(id)) {
      auto syms = info.entry_symbols(e);
      outer.insert(syms.begin(), syms.end());
    }
    std::set<std::string> seen;
    for (const auto& p : map.params) {
      if (!is_valid_name(p)) ctx.error(path, "invalid map parameter name " + ir::quoted(p));
      if (!seen.insert(p).second) ctx.error(path, "map parameter " + ir::quoted(p) + " appears twice");
      if (outer.count(p)) ctx.error(path, "map parameter " + ir::quoted(p) + " is already defined by an enclosing scope");
      if (ctx.is_data(p)) ctx.error(path, "map parameter " + ir::quoted(p) + " is a data container name");
    }
    std::set<std::string> defined = info.defined_at(id);
    for (const auto& [conn, type] : m.in_connectors)
      if (!starts_with(conn, "IN_")) defined.insert(conn);  // dynamic map range inputs
    for (size_t i = 0; i < map.range.dims.size(); ++i) {
      const auto& r = map.range.dims[i];
      std::string dim = "map range dimension " + std::to_string(i);
      if (!r.start || !r.end || !r.step || !r.tile) {
        ctx.error(path, dim + " has a null expression");
        continue;
      }
      if (auto step = sym::as_integer(r.step); step && *step == 0) ctx.error(path, dim + " has step 0");
      std::set<std::string> undefined;
      for (sym::Expr e : {r.start, r.end, r.step, r.tile})
        for (const auto& s : sym::free_symbols(e))
          if (!defined.count(s)) undefined.insert(s);
      if (!undefined.empty()) ctx.error(path, "undefined symbol " + names_list(undefined) + " in " + dim);
    }
  }

  void check_consume(int id, const ir::ConsumeEntry& c) {
    const ElementPath path(ctx, state, ElementPath::Kind::Node, id);
    if (!is_valid_name(c.label)) ctx.error(path, "invalid consume name");
    if (!c.in_connectors.count("IN_stream")) ctx.error(path, "consume entry must have an input stream (connector \"IN_stream\")");
    if (!c.out_connectors.count("OUT_stream"))
      ctx.error(path, "consume entry must have an internal stream (connector \"OUT_stream\")");
    if (!is_valid_name(c.consume.pe_index)) ctx.error(path, "invalid PE index name " + ir::quoted(c.consume.pe_index));
    std::set<std::string> defined = info.defined_at(id);
    for (const auto& [conn, type] : c.in_connectors)
      if (!starts_with(conn, "IN_")) defined.insert(conn);
    if (c.consume.num_pes) {
      std::set<std::string> undefined;
      for (const auto& s : sym::free_symbols(c.consume.num_pes))
        if (!defined.count(s)) undefined.insert(s);
      if (!undefined.empty()) ctx.error(path, "undefined symbol " + names_list(undefined) + " in number of PEs");
    }
    if (!c.consume.condition.code.empty() && c.consume.condition.language == ir::Language::Python) {
      auto parsed = tasklet::parse_expression(c.consume.condition.code);
      if (!parsed.ok()) ctx.error(path, "consume condition does not parse: " + parsed.error().message);
    }
  }

  // The names Python code reads and assigns, or the parser's message; remembered per SDFG
  // (std::map: the reference stays valid), or in `uncached` once the cache is full.
  const SdfgContext::AnalyzedCode& analyze_code(const std::string& code, SdfgContext::AnalyzedCode& uncached) {
    if (auto hit = ctx.analyzed_code.find(code); hit != ctx.analyzed_code.end()) return hit->second;
    SdfgContext::AnalyzedCode out;
    auto parsed = tasklet::parse_code(code);
    if (parsed.ok()) collect_names(*parsed, out.names);
    else out.parse_error = parsed.error().message;
    if (ctx.analyzed_code.size() < SdfgContext::kMaxCachedCodes)
      return ctx.analyzed_code.emplace(code, std::move(out)).first->second;
    uncached = std::move(out);
    return uncached;
  }

  void check_tasklet(int id, const ir::Tasklet& t) {
    const ElementPath path(ctx, state, ElementPath::Kind::Node, id);
    if (!is_valid_name(t.label)) ctx.error(path, "invalid tasklet name");
    if (t.code.language != ir::Language::Python) return;  // only Python is analyzed here
    SdfgContext::AnalyzedCode uncached;
    const SdfgContext::AnalyzedCode& code = analyze_code(t.code.code, uncached);
    if (code.parse_error) {
      ctx.error(path, "tasklet code does not parse: " + *code.parse_error);
      return;
    }
    const ProgramNames& names = code.names;
    std::optional<std::set<std::string>> defined;  // only when a name is not a connector
    std::set<std::string> unknown;
    for (const auto& n : names.read) {
      if (t.in_connectors.count(n) || t.out_connectors.count(n) || names.assigned.count(n)) continue;
      if (!defined) defined = info.defined_at(id);
      if (defined->count(n) || is_module_name(n) || n == "inf" || n == "nan" || n == "pi" || n == "None") continue;
      unknown.insert(n);
    }
    if (!unknown.empty())
      ctx.error(path, "tasklet code reads " + names_list(unknown) + ", which is neither a connector nor a defined symbol");
  }

  void check_connectors(int id, const ir::Node& n) {
    bool nested_or_lib = n.kind == ir::NodeKind::NestedSDFG || n.kind == ir::NodeKind::Library;
    for (const auto* conns : {&n.in_connectors, &n.out_connectors})
      for (const auto& [conn, type] : *conns)
        if (!is_valid_name(conn)) ctx.error(conn_path(id, conn), "invalid connector name");
    if (!nested_or_lib) {
      for (const auto& [conn, type] : n.in_connectors)
        if (n.out_connectors.count(conn)) ctx.error(conn_path(id, conn), "connector is both an input and an output");
      if (!n.is_scope_entry()) {
        for (const auto* conns : {&n.in_connectors, &n.out_connectors})
          for (const auto& [conn, type] : *conns)
            if (ctx.declared.count(conn) || ctx.is_data(conn))
              ctx.error(conn_path(id, conn), "connector name is already used as a symbol, constant or data name");
      }
    }
    std::map<std::string, int> in_count, out_count;
    std::vector<int> touching = info.in[id];
    touching.insert(touching.end(), info.out[id].begin(), info.out[id].end());
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
    for (int e : touching) {
      const ir::DataflowEdge* edge = state.edge(e);
      if (edge->dst == id && !edge->dst_conn.empty()) {
        ++in_count[edge->dst_conn];
        if (!n.in_connectors.count(edge->dst_conn))
          ctx.error(ctx.edge_path(state, e), "edge leads to nonexistent input connector " + ir::quoted(edge->dst_conn) +
                                                 " of node " + std::to_string(id));
      }
      if (edge->src == id && !edge->src_conn.empty()) {
        ++out_count[edge->src_conn];
        if (!n.out_connectors.count(edge->src_conn))
          ctx.error(ctx.edge_path(state, e), "edge comes from nonexistent output connector " +
                                                 ir::quoted(edge->src_conn) + " of node " + std::to_string(id));
      }
    }
    for (const auto& [conn, type] : n.in_connectors) {
      int c = in_count[conn];
      if (c == 0) ctx.error(conn_path(id, conn), "input connector has no incoming edge");
      if (c > 1 && !n.is_scope_exit())
        ctx.error(conn_path(id, conn), "input connector has " + std::to_string(c) + " incoming edges");
    }
    for (const auto& [conn, type] : n.out_connectors) {
      int c = out_count[conn];
      if (c == 0) ctx.error(conn_path(id, conn), "output connector has no outgoing edge");
      if (c > 1 && (n.is_scope_exit() || is_code_node(n)))
        ctx.error(conn_path(id, conn), "output connector has " + std::to_string(c) + " outgoing edges");
    }
  }

  void check_node(int id) {
    const ir::Node& n = *state.node(id);
    bool isolated = info.in[id].empty() && info.out[id].empty();
    if (isolated && !is_code_node(n)) ctx.error(ctx.node_path(state, id), "isolated node");
    if (n.is_scope_entry() || n.is_scope_exit()) check_scope_node(id, n);
    check_connectors(id, n);
    switch (n.kind) {
      case ir::NodeKind::Access: check_access(id, static_cast<const ir::AccessNode&>(n)); break;
      case ir::NodeKind::Tasklet: check_tasklet(id, static_cast<const ir::Tasklet&>(n)); break;
      case ir::NodeKind::MapEntry: check_map(id, static_cast<const ir::MapEntry&>(n)); break;
      case ir::NodeKind::ConsumeEntry: check_consume(id, static_cast<const ir::ConsumeEntry&>(n)); break;
      case ir::NodeKind::NestedSDFG: validate_nested_sdfg(ctx, info, id); break;
      default: break;
    }
  }

  // The scope an edge leaves from must be the scope it arrives in: entering a scope goes
  // through its entry, leaving it through its exit.
  void check_scope_crossing(int e) {
    const ir::DataflowEdge* edge = state.edge(e);
    const ir::Node* src = state.node(edge->src);
    const ir::Node* dst = state.node(edge->dst);
    int from = src->is_scope_entry() ? edge->src : info.parents[edge->src];
    int to = dst->is_scope_exit() ? entry_of_exit(*dst) : info.parents[edge->dst];
    if (from != to)
      ctx.error(ctx.edge_path(state, e), "edge crosses a scope boundary without passing through the scope's entry or exit node");
  }

  void run() {
    for (int e : state.edge_ids()) {
      const ir::DataflowEdge* edge = state.edge(e);
      if (!state.node(edge->src) || !state.node(edge->dst))
        ctx.error(ctx.edge_path(state, e), "edge endpoint does not exist (source " + std::to_string(edge->src) +
                                               ", destination " + std::to_string(edge->dst) + ")");
    }
    if (!info.acyclic) ctx.error(ctx.block_path(state), "dataflow graph contains a cycle");
    for (int id : state.node_ids()) {
      if (ctx.full()) return;
      check_node(id);
    }
    if (info.acyclic)
      for (int e : info.edges) check_scope_crossing(e);
    validate_memlets(ctx, info);
  }
};

}  // namespace

void validate_state(SdfgContext& ctx, const ir::State& state, const RegionScope& scope) {
  StateInfo info(ctx, state, scope);
  StateChecker{ctx, info, state, {}}.run();
}

}  // namespace dace::analysis::detail
