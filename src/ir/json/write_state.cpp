// Writing states in DaCe 1.0.2's form: nodes, memlet edges (with the derived fields DaCe
// writes: src_subset, dst_subset, is_data_src, num_accesses), scope_dict.
#include <algorithm>
#include <map>

#include "ir/json/json_internal.h"
#include "ir/json/memlet_paths.h"

namespace dace::ir::json::detail {
namespace {

void put_guid(Json& attrs, const std::string& guid, const WriteContext& ctx) {
  if (ctx.options.include_guids && !guid.empty()) attrs["guid"] = guid;
}

void put_extras(Json& attrs, const ExtraProperties& extra) {
  for (const auto& [key, text] : extra)
    if (!attrs.contains(key)) attrs[key] = extra_value(text);
}

void put_connectors(Json& attrs, const Node& n) {
  if (!n.in_connectors.empty()) attrs["in_connectors"] = connectors_json(n.in_connectors);
  if (!n.out_connectors.empty()) attrs["out_connectors"] = connectors_json(n.out_connectors);
}

bool is_int(sym::Expr e, int64_t v) {
  auto x = e ? sym::as_integer(e) : std::nullopt;
  return x && *x == v;
}

// DaCe's str(map): `label[i=0:N, j=0:M]`, used as the node's display label.
std::string scope_label(const std::string& label, const std::vector<std::string>& params, const sym::Subset& range) {
  std::string out = label + "[";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) out += ", ";
    out += params[i] + "=";
    if (i < range.dims.size()) {
      const sym::Range& r = range.dims[i];
      // Print as a range even for single iterations, as DaCe does.
      out += sym::to_string(r.start) + ":" + sym::to_string(sym::add(r.end, sym::integer(1)));
      if (r.step && !is_int(r.step, 1)) out += ":" + sym::to_string(r.step);
    }
  }
  return out + "]";
}

Json map_attrs(const MapEntry& n, const WriteContext& ctx) {
  const MapScope& m = n.map;
  Json a = Json::object();
  if (!n.label.empty()) a["label"] = n.label;
  if (!m.params.empty()) a["params"] = m.params;
  if (!m.range.dims.empty()) a["range"] = range_json(m.range);
  if (m.schedule != ScheduleType::Default) a["schedule"] = to_string(m.schedule);
  if (m.unroll) a["unroll"] = true;
  if (m.collapse != 1) a["collapse"] = m.collapse;
  put_debuginfo(a, n.debuginfo);
  if (m.omp_num_threads != 0) a["omp_num_threads"] = m.omp_num_threads;
  if (m.omp_schedule != OmpSchedule::Default) a["omp_schedule"] = to_string(m.omp_schedule);
  if (m.omp_chunk_size != 0) a["omp_chunk_size"] = m.omp_chunk_size;
  if (!m.gpu_block_size.empty()) {
    Json sizes = Json::array();
    for (auto e : m.gpu_block_size) sizes.push_back(expr_int_json(e));
    a["gpu_block_size"] = std::move(sizes);
  }
  return a;
}

Json consume_attrs(const ConsumeEntry& n) {
  const ConsumeScope& c = n.consume;
  Json a = Json::object();
  if (!n.label.empty()) a["label"] = n.label;
  if (!c.pe_index.empty()) a["pe_index"] = c.pe_index;
  if (c.num_pes && !is_int(c.num_pes, 1)) a["num_pes"] = expr_json(c.num_pes);
  if (!c.condition.code.empty()) a["condition"] = code_json(c.condition);
  if (c.schedule != ScheduleType::Default) a["schedule"] = to_string(c.schedule);
  if (c.chunksize && !is_int(c.chunksize, 1)) a["chunksize"] = expr_int_json(c.chunksize);
  put_debuginfo(a, n.debuginfo);
  return a;
}

Json tasklet_attrs(const Tasklet& n) {
  Json a = Json::object();
  const CodeBlock empty_cpp{"", Language::CPP};
  if (!(n.code == CodeBlock{"", Language::Python})) a["code"] = code_json(n.code);
  if (!(n.code_global == empty_cpp)) a["code_global"] = code_json(n.code_global);
  if (!(n.code_init == empty_cpp)) a["code_init"] = code_json(n.code_init);
  if (!(n.code_exit == empty_cpp)) a["code_exit"] = code_json(n.code_exit);
  put_debuginfo(a, n.debuginfo);
  if (n.side_effects) a["side_effects"] = true;
  if (!n.label.empty()) a["label"] = n.label;
  return a;
}

Json library_attrs(const LibraryNode& n) {
  Json a = Json::object();
  if (!n.name.empty()) a["name"] = n.name;
  if (!n.implementation.empty()) a["implementation"] = n.implementation;
  if (n.schedule != ScheduleType::Default) a["schedule"] = to_string(n.schedule);
  put_debuginfo(a, n.debuginfo);
  if (!n.label.empty()) a["label"] = n.label;
  put_extras(a, n.properties);
  return a;
}

Json nested_attrs(const NestedSDFGNode& n, WriteContext& ctx) {
  // Its own five keys, the extras, connectors and guid are added after the nested SDFG.
  Json a = object_with_room(8 + n.extra.size());
  if (n.sdfg) a["sdfg"] = write_sdfg_json(*n.sdfg, ctx, /*root=*/false);
  else a["sdfg"] = nullptr;
  if (n.schedule != ScheduleType::Default) a["schedule"] = to_string(n.schedule);
  if (!n.symbol_mapping.empty()) {
    Json m = Json::object();
    for (const auto& [inner, outer] : n.symbol_mapping) m[inner] = expr_json(outer);
    a["symbol_mapping"] = std::move(m);
  }
  put_debuginfo(a, n.debuginfo);
  if (!n.label.empty()) a["label"] = n.label;
  return a;
}

const char* node_type(const Node& n) {
  return n.kind == NodeKind::Library ? "LibraryNode" : to_string(n.kind);
}

int entry_of_exit(const Node& n) {
  if (n.kind == NodeKind::MapExit) return static_cast<const MapExit&>(n).entry;
  if (n.kind == NodeKind::ConsumeExit) return static_cast<const ConsumeExit&>(n).entry;
  return -1;
}

std::string display_label(const State& st, const Node& n) {
  const Node* scope = &n;
  if (n.is_scope_exit()) {
    scope = st.node(entry_of_exit(n));
    if (!scope) return n.label;
  }
  if (scope->kind == NodeKind::MapEntry) {
    const auto& m = static_cast<const MapEntry*>(scope)->map;
    return scope_label(scope->label, m.params, m.range);
  }
  if (scope->kind == NodeKind::ConsumeEntry) {
    const auto& c = static_cast<const ConsumeEntry*>(scope)->consume;
    return scope->label + "[" + c.pe_index + "=0:" + (c.num_pes ? sym::to_string(c.num_pes) : "1") + "]";
  }
  if (n.kind == NodeKind::Access) return static_cast<const AccessNode&>(n).data;
  return n.label;
}

// DaCe's Memlet.try_initialize: which end of the path holds `data`.
std::optional<bool> effective_is_data_src(const State& st, int edge_id, MemletPaths& paths) {
  const Memlet& m = st.edge(edge_id)->memlet;
  auto ends = paths.ends(edge_id);
  if (!ends) return m.is_data_src;
  auto holds = [&](int node) {
    const Node* n = st.node(node);
    return n && n->kind == NodeKind::Access && static_cast<const AccessNode*>(n)->data == m.data && !m.data.empty();
  };
  bool src = holds(ends->src), dst = holds(ends->dst);
  if (src && dst) return m.is_data_src ? m.is_data_src : std::optional<bool>(true);
  return src;
}

Json memlet_json(const State& st, const SDFG& sdfg, int edge_id, const WriteContext& ctx, MemletPaths& paths) {
  const Memlet& m = st.edge(edge_id)->memlet;
  sym::Subset subset = m.subset;
  if (!m.data.empty() && subset.dims.empty()) {
    // "A": the whole container, as DaCe fills it in on loading.
    auto it = sdfg.arrays.find(m.data);
    if (it != sdfg.arrays.end())
      for (auto s : it->second.shape) subset.dims.push_back({sym::integer(0), sym::sub(s, sym::integer(1)), sym::integer(1), sym::integer(1)});
  }
  sym::Expr volume = m.volume;
  if (!volume) {
    if (!subset.dims.empty()) volume = sym::volume(subset);
    else if (m.other_subset && !m.other_subset->dims.empty()) volume = sym::volume(*m.other_subset);
    else volume = sym::integer(1);
  }
  Json a = Json::object();
  if (!is_int(volume, 0)) a["volume"] = expr_json(volume);
  if (m.dynamic) a["dynamic"] = true;
  const bool has_subset = !subset.dims.empty();
  if (has_subset) a["subset"] = range_json(subset);
  if (m.other_subset) a["other_subset"] = range_json(*m.other_subset);
  if (!m.data.empty()) a["data"] = m.data;
  if (!m.wcr.empty()) a["wcr"] = m.wcr.get();
  put_debuginfo(a, m.debuginfo);
  if (m.wcr_nonatomic) a["wcr_nonatomic"] = true;
  if (m.allow_oob) a["allow_oob"] = true;
  put_extras(a, m.extra);
  put_guid(a, m.guid, ctx);
  auto is_src = effective_is_data_src(st, edge_id, paths);
  Json subset_j = has_subset ? range_json(subset) : Json(nullptr);
  Json other_j = m.other_subset ? range_json(*m.other_subset) : Json(nullptr);
  bool data_is_src = !is_src || *is_src;
  a["src_subset"] = data_is_src ? subset_j : other_j;
  a["dst_subset"] = data_is_src ? other_j : subset_j;
  a["is_data_src"] = is_src ? Json(*is_src) : Json(nullptr);
  a["num_accesses"] = m.dynamic ? Json(-1) : expr_json(volume);
  Json data = Json::object();
  data["type"] = "Memlet";
  data["attributes"] = std::move(a);
  return data;
}

}  // namespace

Json write_state_json(const State& st, const SDFG& sdfg, WriteContext& ctx, int json_id) {
  const std::vector<int> ids = st.node_ids();
  std::vector<int> dense(static_cast<size_t>(st.node_slots()), -1);
  for (size_t i = 0; i < ids.size(); ++i) dense[static_cast<size_t>(ids[i])] = static_cast<int>(i);
  auto dense_of = [&](int slot) { return slot >= 0 && slot < st.node_slots() ? dense[static_cast<size_t>(slot)] : -1; };
  auto id_text = [&](int slot) { return dense_of(slot) < 0 ? Json(nullptr) : Json(std::to_string(dense_of(slot))); };

  // Scope of each node: the entry whose scope holds it; exits belong to their own entry.
  std::vector<int> parent = st.scope_parents();
  // Exits of entries that exist only (State::exit_of also answers for removed entries).
  std::vector<int> exit_of(static_cast<size_t>(st.node_slots()), -1);
  for (int id : ids) {
    const Node* n = st.node(id);
    if (!n->is_scope_exit()) continue;
    int entry = entry_of_exit(*n);
    parent[static_cast<size_t>(id)] = st.node(entry) ? entry : -1;
    // The first exit naming an entry wins, as in State::exit_of. An exit whose entry was
    // removed (the C API removes one node at a time) belongs to no scope: it is written
    // with null links, as it reads back.
    if (st.node(entry) && exit_of[static_cast<size_t>(entry)] < 0)
      exit_of[static_cast<size_t>(entry)] = id;
  }
  auto exit_text = [&](int entry) {
    return entry >= 0 && exit_of[static_cast<size_t>(entry)] >= 0 ? id_text(exit_of[static_cast<size_t>(entry)])
                                                                  : Json(nullptr);
  };
  std::map<int, std::vector<int>> scope_dict;
  scope_dict[-1];
  for (int id : ids)
    if (st.node(id)->is_scope_entry()) scope_dict[dense_of(id)];
  for (int id : ids) scope_dict[dense_of(parent[static_cast<size_t>(id)])].push_back(dense_of(id));
  Json scopes = Json::object();
  for (auto& [key, children] : scope_dict) {
    std::sort(children.begin(), children.end());
    scopes[std::to_string(key)] = children;
  }

  Json nodes = Json::array();
  for (int id : ids) {
    const Node& n = *st.node(id);
    Json attrs;
    switch (n.kind) {
      case NodeKind::Access: {
        const auto& an = static_cast<const AccessNode&>(n);
        attrs = Json::object();
        if (an.setzero) attrs["setzero"] = true;
        put_debuginfo(attrs, n.debuginfo);
        if (!an.data.empty()) attrs["data"] = an.data;
        break;
      }
      case NodeKind::Tasklet: attrs = tasklet_attrs(static_cast<const Tasklet&>(n)); break;
      case NodeKind::MapEntry: attrs = map_attrs(static_cast<const MapEntry&>(n), ctx); break;
      case NodeKind::ConsumeEntry: attrs = consume_attrs(static_cast<const ConsumeEntry&>(n)); break;
      case NodeKind::MapExit:
      case NodeKind::ConsumeExit: attrs = Json::object(); break;
      case NodeKind::NestedSDFG: attrs = nested_attrs(static_cast<const NestedSDFGNode&>(n), ctx); break;
      case NodeKind::Library: attrs = library_attrs(static_cast<const LibraryNode&>(n)); break;
    }
    put_extras(attrs, n.extra);
    put_connectors(attrs, n);
    put_guid(attrs, n.guid, ctx);

    int scope = parent[static_cast<size_t>(id)];
    Json scope_entry = nullptr, scope_exit = nullptr;
    if (n.is_scope_exit()) {
      scope = entry_of_exit(n);
    }
    if (scope >= 0 && scope < st.node_slots() && exit_of[static_cast<size_t>(scope)] >= 0) {
      scope_entry = id_text(scope);
      scope_exit = exit_text(scope);
    }
    if (n.is_scope_entry()) scope_exit = exit_text(id);

    Json nj = object_with_room(7);  // attributes (maybe a nested SDFG) is followed by more keys
    nj["type"] = node_type(n);
    nj["label"] = display_label(st, n);
    nj["attributes"] = std::move(attrs);
    nj["id"] = dense_of(id);
    nj["scope_entry"] = std::move(scope_entry);
    nj["scope_exit"] = std::move(scope_exit);
    if (n.kind == NodeKind::Library) nj["classpath"] = static_cast<const LibraryNode&>(n).classpath;
    nodes.push_back(std::move(nj));
  }

  Json edges = Json::array();
  MemletPaths paths(st);
  for (int eid : st.edge_ids()) {
    const DataflowEdge& e = *st.edge(eid);
    if (dense_of(e.src) < 0 || dense_of(e.dst) < 0) continue;  // dangling: not representable
    Json ej = Json::object();
    ej["type"] = "MultiConnectorEdge";
    Json attrs = Json::object();
    attrs["data"] = memlet_json(st, sdfg, eid, ctx, paths);
    ej["attributes"] = std::move(attrs);
    ej["src"] = std::to_string(dense_of(e.src));
    ej["dst"] = std::to_string(dense_of(e.dst));
    ej["dst_connector"] = e.dst_conn.empty() ? Json(nullptr) : Json(e.dst_conn);
    ej["src_connector"] = e.src_conn.empty() ? Json(nullptr) : Json(e.src_conn);
    edges.push_back(std::move(ej));
  }

  Json attrs = Json::object();
  if (st.nosync) attrs["nosync"] = true;
  put_extras(attrs, st.extra);
  put_guid(attrs, st.guid, ctx);

  Json out = object_with_room(8);  // nodes is followed by more keys
  out["type"] = "SDFGState";
  out["label"] = st.label;
  out["id"] = json_id;
  out["collapsed"] = false;
  out["scope_dict"] = std::move(scopes);
  out["nodes"] = std::move(nodes);
  out["edges"] = std::move(edges);
  out["attributes"] = std::move(attrs);
  return out;
}

}  // namespace dace::ir::json::detail
