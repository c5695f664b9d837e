// Reading states: dataflow nodes, memlet edges and their properties.
#include "ir/json/json_internal.h"
#include "ir/path.h"

namespace dace::ir::json::detail {
namespace {

// Keys of the node object itself (not its attributes) that DaCe derives on writing.
Result<int> node_ref(const Json& j, std::string_view key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return -1;
  if (it->is_number_integer() || it->is_number_unsigned()) {
    int64_t v = it->get<int64_t>();
    return v >= 0 && v <= INT32_MAX ? static_cast<int>(v) : -1;
  }
  if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    if (s.empty() || s.size() > 9) return parse_error(path, key, "expected node id, got " + ir::quoted(s));
    int v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return parse_error(path, key, "expected node id, got " + ir::quoted(s));
      v = v * 10 + (c - '0');
    }
    return v;
  }
  return parse_error(path, key, "expected node id (string)");
}

// Readers into out-of-line members: the value is stored only when it is not the default.
Status read_debuginfo(Attrs& a, OutOfLine<DebugInfo>& out, const ReadContext& ctx) {
  DebugInfo d;
  DACE_TRY(a.debuginfo("debuginfo", d, ctx));
  out = std::move(d);
  return {};
}

Status read_guid(Attrs& a, OutOfLine<std::string>& out) {
  std::string guid;
  DACE_TRY(a.str("guid", guid));
  out = std::move(guid);
  return {};
}

Status read_code(Attrs& a, std::string_view key, OutOfLine<CodeBlock, EmptyCppCode>& out) {
  CodeBlock c = out;
  DACE_TRY(a.code(key, c));
  out = std::move(c);
  return {};
}

Status read_common(Attrs& a, Node& n, const ReadContext& ctx) {
  DACE_TRY(a.connectors("in_connectors", n.in_connectors));
  DACE_TRY(a.connectors("out_connectors", n.out_connectors));
  DACE_TRY(read_debuginfo(a, n.debuginfo, ctx));
  DACE_TRY(read_guid(a, n.guid));
  return {};
}

Status read_map(Attrs& a, MapEntry& n) {
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

Status read_consume(Attrs& a, ConsumeEntry& n) {
  ConsumeScope& c = n.consume;
  DACE_TRY(a.str("label", n.label));
  DACE_TRY(a.str("pe_index", c.pe_index));
  c.num_pes = sym::integer(1);
  DACE_TRY(a.expr("num_pes", c.num_pes));
  DACE_TRY(a.code("condition", c.condition));
  DACE_TRY(a.schedule("schedule", c.schedule));
  c.chunksize = sym::integer(1);
  DACE_TRY(a.expr("chunksize", c.chunksize));
  return {};
}

Status read_tasklet(Attrs& a, Tasklet& n) {
  DACE_TRY(a.str("label", n.label));
  DACE_TRY(a.code("code", n.code));
  DACE_TRY(read_code(a, "code_global", n.code_global));
  DACE_TRY(read_code(a, "code_init", n.code_init));
  DACE_TRY(read_code(a, "code_exit", n.code_exit));
  DACE_TRY(a.boolean("side_effects", n.side_effects));
  return {};
}

Status read_nested(Attrs& a, NestedSDFGNode& n, ReadContext& ctx) {
  DACE_TRY(a.str("label", n.label));
  DACE_TRY(a.schedule("schedule", n.schedule));
  if (const Json* m = a.raw("symbol_mapping"); m && !m->is_null()) {
    if (!m->is_object()) return a.error("symbol_mapping", "expected object");
    for (const auto& [inner, outer] : m->items()) {
      auto e = parse_expr_value(outer, a.path(), "symbol_mapping");
      if (!e) return e.take_error();
      n.symbol_mapping[inner] = *e;
    }
  }
  const Json* sub = a.raw("sdfg");
  if (!sub || !sub->is_object()) return a.error("sdfg", "expected the nested SDFG object");
  n.sdfg = std::make_unique<SDFG>();
  n.sdfg->parent_node = &n;
  return read_sdfg_json(*sub, ctx, a.path(), *n.sdfg);
}

Status read_library(Attrs& a, LibraryNode& n, const Json& j) {
  DACE_TRY(a.str("name", n.name));
  DACE_TRY(a.str("label", n.label));
  DACE_TRY(a.str("implementation", n.implementation));
  DACE_TRY(a.schedule("schedule", n.schedule));
  auto cp = j.find("classpath");
  if (cp != j.end() && !cp->is_null()) {
    if (!cp->is_string()) return parse_error(a.path(), "classpath", "expected string");
    n.classpath = cp->get<std::string>();
  }
  return {};
}

Result<std::unique_ptr<Node>> read_node(const Json& j, ReadContext& ctx, const std::string& path) {
  if (!j.is_object()) return parse_error(path, "", "expected node object");
  auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) return parse_error(path, "type", "missing node type");
  const std::string& type = type_it->get_ref<const std::string&>();
  auto attrs_it = j.find("attributes");
  if (attrs_it != j.end() && !attrs_it->is_object() && !attrs_it->is_null())
    return parse_error(path, "attributes", "expected object");
  std::string npath = path + " (" + type + ")";
  Attrs a(attrs_it == j.end() ? nullptr : &*attrs_it, npath);
  std::string top_label;
  if (auto l = j.find("label"); l != j.end() && l->is_string()) top_label = l->get<std::string>();

  std::unique_ptr<Node> node;
  bool library = false;
  if (type == "AccessNode") {
    auto n = std::make_unique<AccessNode>();
    DACE_TRY(a.str("data", n->data));
    DACE_TRY(a.boolean("setzero", n->setzero));
    n->label = n->data;
    node = std::move(n);
  } else if (type == "Tasklet") {
    auto n = std::make_unique<Tasklet>();
    n->label = top_label;
    DACE_TRY(read_tasklet(a, *n));
    node = std::move(n);
  } else if (type == "MapEntry") {
    auto n = std::make_unique<MapEntry>();
    DACE_TRY(read_map(a, *n));
    node = std::move(n);
  } else if (type == "MapExit") {
    auto n = std::make_unique<MapExit>();
    n->label = top_label;
    node = std::move(n);
  } else if (type == "ConsumeEntry") {
    auto n = std::make_unique<ConsumeEntry>();
    DACE_TRY(read_consume(a, *n));
    node = std::move(n);
  } else if (type == "ConsumeExit") {
    auto n = std::make_unique<ConsumeExit>();
    n->label = top_label;
    node = std::move(n);
  } else if (type == "NestedSDFG") {
    auto n = std::make_unique<NestedSDFGNode>();
    n->label = top_label;
    DACE_TRY(read_nested(a, *n, ctx));
    node = std::move(n);
  } else if (type == "LibraryNode" || j.contains("classpath")) {
    auto n = std::make_unique<LibraryNode>();
    n->label = top_label;
    DACE_TRY(read_library(a, *n, j));
    if (n->classpath.empty() && type != "LibraryNode") n->classpath = type;
    node = std::move(n);
    library = true;
  } else {
    return parse_error(path, "type", "unknown node type " + ir::quoted(type));
  }
  DACE_TRY(read_common(a, *node, ctx));
  if (node->is_scope_exit()) node->debuginfo = DebugInfo{};  // exits have no debuginfo in DaCe
  // Library nodes keep everything else as their class-specific properties.
  if (library) a.collect_extras(static_cast<LibraryNode&>(*node).properties);
  else a.collect_extras(node->extra);
  return node;
}

Status read_memlet(const Json& edge, Memlet& m, const ReadContext& ctx, const std::string& path) {
  auto attrs = edge.find("attributes");
  if (attrs == edge.end() || !attrs->is_object()) return parse_error(path, "attributes", "missing edge attributes");
  auto data = attrs->find("data");
  if (data == attrs->end() || !data->is_object()) return parse_error(path, "data", "missing memlet");
  auto type = data->find("type");
  if (type != data->end() && (!type->is_string() || type->get_ref<const std::string&>() != "Memlet"))
    return parse_error(path, "data", "expected a Memlet");
  auto inner = data->find("attributes");
  Attrs a(inner == data->end() ? nullptr : &*inner, path);
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
  if (const Json* s = a.raw("is_data_src"); s && !s->is_null()) {
    if (!s->is_boolean()) return a.error("is_data_src", "expected boolean");
    m.is_data_src = s->get<bool>();
  }
  // Derived from the others; recomputed on writing.
  a.skip("src_subset");
  a.skip("dst_subset");
  a.skip("num_accesses");
  a.collect_extras(m.extra);
  return {};
}

Result<std::string> connector_name(const Json& j, std::string_view key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::string();
  if (!it->is_string()) return parse_error(path, key, "expected string or null");
  return it->get<std::string>();
}

// Scope exits name their entry in `scope_entry`; entries name their exit in `scope_exit`.
void link_scopes(State& st, const std::vector<int>& scope_entry, const std::vector<int>& scope_exit) {
  auto entry_of = [&](Node* n) -> int* {
    if (n->kind == NodeKind::MapExit) return &static_cast<MapExit*>(n)->entry;
    if (n->kind == NodeKind::ConsumeExit) return &static_cast<ConsumeExit*>(n)->entry;
    return nullptr;
  };
  auto matches = [](const Node* exit, const Node* entry) {
    return entry && ((exit->kind == NodeKind::MapExit && entry->kind == NodeKind::MapEntry) ||
                     (exit->kind == NodeKind::ConsumeExit && entry->kind == NodeKind::ConsumeEntry));
  };
  const int n = st.node_slots();
  for (int i = 0; i < n; ++i) {
    Node* node = st.node(i);
    int* entry = entry_of(node);
    if (entry && matches(node, st.node(scope_entry[i]))) *entry = scope_entry[i];
  }
  for (int i = 0; i < n; ++i) {
    Node* node = st.node(i);
    if (!node->is_scope_entry()) continue;
    Node* exit = st.node(scope_exit[i]);
    if (!exit) continue;
    int* entry = entry_of(exit);
    if (entry && *entry < 0 && matches(exit, node)) *entry = i;
  }
  for (int i = 0; i < n; ++i) {
    Node* node = st.node(i);
    int* entry = entry_of(node);
    if (entry && *entry >= 0) node->label = st.node(*entry)->label;
  }
  st.touch();  // the exits' entries were written through node pointers
}

// Refuses scopes nested deeper than kMaxScopeDepth (see sdfg_json.h), naming the entry that
// opens the first level too many. Linear: each node's depth is computed once, walking up the
// scope parents only to the first node whose depth is known.
Status check_scope_depth(const State& st, const std::string& path) {
  const std::vector<int> parent = st.scope_parents();
  const int n = st.node_slots();
  constexpr int kUnknown = -1, kVisiting = -2;
  // Number of scope entries around each node (its own scope not counted for an entry).
  std::vector<int> depth(static_cast<size_t>(n), kUnknown);
  std::vector<int> chain;
  auto parent_of = [&](int u) {
    int p = parent[static_cast<size_t>(u)];
    return p >= 0 && p < n && st.node(p) ? p : -1;
  };
  for (int id : st.node_ids()) {
    chain.clear();
    int u = id, base = 0;
    while (u >= 0) {
      int& d = depth[static_cast<size_t>(u)];
      if (d >= 0) {
        base = d;
        break;
      }
      if (d == kVisiting) break;  // cannot happen for a topological parent table; stay finite
      d = kVisiting;
      chain.push_back(u);
      u = parent_of(u);
    }
    // chain runs from `id` up to the outermost unknown node; assign from the top down.
    // An entry's contents are one level deeper than the entry itself.
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const int p = parent_of(*it);
      const int here = p < 0 ? 0 : (it == chain.rbegin() ? base : depth[static_cast<size_t>(p)]) + 1;
      depth[static_cast<size_t>(*it)] = here;
    }
  }
  for (int id : st.node_ids()) {
    const Node* node = st.node(id);
    if (!node->is_scope_entry() || depth[static_cast<size_t>(id)] < kMaxScopeDepth) continue;
    return parse_error(path + " / node " + std::to_string(id) + " (" + to_string(node->kind) + ")", "",
                       "map and consume scopes nested deeper than " + std::to_string(kMaxScopeDepth) + " levels");
  }
  return {};
}

}  // namespace

Status read_state_json(const Json& j, ReadContext& ctx, const std::string& path, State& st) {
  auto attrs = j.find("attributes");
  Attrs a(attrs == j.end() ? nullptr : &*attrs, path);
  DACE_TRY(a.boolean("nosync", st.nosync));
  DACE_TRY(a.str("guid", st.guid));
  // Results of DaCe's state propagation analysis: derived, stale after any change.
  a.skip("executions");
  a.skip("dynamic_executions");
  a.skip("ranges");
  a.collect_extras(st.extra);

  auto nodes = j.find("nodes");
  if (nodes != j.end() && !is_list(*nodes) && !nodes->is_null()) return parse_error(path, "nodes", "expected list");
  std::vector<int> scope_entry, scope_exit;
  if (nodes != j.end() && is_list(*nodes)) {
    int index = 0;
    DACE_TRY(for_each_element(*nodes, ctx, path, "nodes", [&](const Json& nj) -> Status {
      std::string npath = path + " / node " + std::to_string(index);
      auto node = read_node(nj, ctx, npath);
      if (!node) return node.take_error();
      auto se = node_ref(nj, "scope_entry", npath);
      if (!se) return se.take_error();
      auto sx = node_ref(nj, "scope_exit", npath);
      if (!sx) return sx.take_error();
      scope_entry.push_back(*se);
      scope_exit.push_back(*sx);
      st.add_node(std::move(*node));
      ++index;
      return {};
    }));
  }
  link_scopes(st, scope_entry, scope_exit);

  auto edges = j.find("edges");
  if (edges != j.end() && !is_list(*edges) && !edges->is_null()) return parse_error(path, "edges", "expected list");
  if (edges == j.end() || !is_list(*edges)) return {};
  int index = 0;
  DACE_TRY(for_each_element(*edges, ctx, path, "edges", [&](const Json& ej) -> Status {
    std::string epath = path + " / edge " + std::to_string(index++);
    if (!ej.is_object()) return parse_error(epath, "", "expected edge object");
    DataflowEdge e;
    auto src = node_ref(ej, "src", epath);
    if (!src) return src.take_error();
    auto dst = node_ref(ej, "dst", epath);
    if (!dst) return dst.take_error();
    if (!st.node(*src)) return parse_error(epath, "src", "no node " + std::to_string(*src));
    if (!st.node(*dst)) return parse_error(epath, "dst", "no node " + std::to_string(*dst));
    e.src = *src;
    e.dst = *dst;
    auto sc = connector_name(ej, "src_connector", epath);
    if (!sc) return sc.take_error();
    auto dc = connector_name(ej, "dst_connector", epath);
    if (!dc) return dc.take_error();
    e.src_conn = std::move(*sc);
    e.dst_conn = std::move(*dc);
    DACE_TRY(read_memlet(ej, e.memlet, ctx, epath));
    st.add_edge(std::move(e));
    return {};
  }));
  return check_scope_depth(st, path);
}

}  // namespace dace::ir::json::detail
