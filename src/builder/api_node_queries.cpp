// Reading and modifying dataflow nodes: kinds, labels, properties, code, schedules, map
// ranges, nested SDFGs, library properties and scope structure.
#include <functional>
#include <nlohmann/json.hpp>

#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "builder/api_memlet.h"
#include "builder/api_nodes.h"
#include "ir/json/json_error.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;
using dace::ir::quoted;
namespace sym = dace::sym;

namespace {

struct NodeRef {
  SDFG* sdfg;
  State* state;
  Node* node;
  std::string where;
};

template <class H, class Fn>
dace_status_t with_node(H h, dace_id_t state, dace_id_t node, Fn&& fn) {
  return guard([&]() -> Status {
    auto s = sdfg_of(h);
    if (!s) return s.take_error();
    SDFG& g = const_cast<SDFG&>(**s);
    auto st = find_state(g, state);
    if (!st) return st.take_error();
    auto n = find_node(g, **st, node);
    if (!n) return n.take_error();
    NodeRef ref{&g, *st, *n, path_of_node(g, **st, node)};
    return fn(ref);
  });
}

// The entry holding a scope's properties, for an entry or its exit.
Node* scope_entry(const NodeRef& r) {
  Node* n = r.node;
  int entry = -1;
  if (n->kind == NodeKind::MapExit) entry = static_cast<MapExit*>(n)->entry;
  if (n->kind == NodeKind::ConsumeExit) entry = static_cast<ConsumeExit*>(n)->entry;
  if (entry >= 0) n = r.state->node(entry);
  return n;
}

MapScope* map_of(const NodeRef& r) {
  Node* n = scope_entry(r);
  return n && n->kind == NodeKind::MapEntry ? &static_cast<MapEntry*>(n)->map : nullptr;
}

ConsumeScope* consume_of(const NodeRef& r) {
  Node* n = scope_entry(r);
  return n && n->kind == NodeKind::ConsumeEntry ? &static_cast<ConsumeEntry*>(n)->consume : nullptr;
}

dace::Error wrong_kind(const NodeRef& r, const char* expected) {
  return invalid(r.where + ": a " + to_string(r.node->kind) + " is not " + expected);
}

std::string expr_text(sym::Expr e) { return e ? sym::to_string(e) : std::string(); }

std::string mapping_text(const std::map<std::string, sym::Expr>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k + ": " + expr_text(v);
  return out;
}

std::optional<std::string> node_property(const NodeRef& r, std::string_view p) {
  const Node* n = r.node;
  if (p == "label") return n->label;
  if (p == "kind") return std::string(to_string(n->kind));
  if (p == "in_connectors") return connectors_to_string(n->in_connectors);
  if (p == "out_connectors") return connectors_to_string(n->out_connectors);
  switch (n->kind) {
    case NodeKind::Access: {
      auto* a = static_cast<const AccessNode*>(n);
      if (p == "data") return a->data;
      if (p == "setzero") return std::string(a->setzero ? "1" : "0");
      break;
    }
    case NodeKind::Tasklet: {
      auto* t = static_cast<const Tasklet*>(n);
      if (p == "code") return t->code.code;
      if (p == "language") return std::string(to_string(t->code.language));
      if (p == "side_effects") return std::string(t->side_effects ? "1" : "0");
      break;
    }
    case NodeKind::MapEntry:
    case NodeKind::MapExit: {
      const MapScope* m = map_of(r);
      if (!m) break;
      if (p == "params") {
        std::string out;
        for (const auto& s : m->params) out += (out.empty() ? "" : ", ") + s;
        return out;
      }
      if (p == "range") return map_ranges_to_string(m->params, m->range);
      if (p == "schedule") return std::string(to_string(m->schedule));
      if (p == "collapse") return std::to_string(m->collapse);
      if (p == "omp_num_threads") return std::to_string(m->omp_num_threads);
      if (p == "omp_schedule") return std::string(to_string(m->omp_schedule));
      if (p == "omp_chunk_size") return std::to_string(m->omp_chunk_size);
      if (p == "unroll") return std::string(m->unroll ? "1" : "0");
      if (p == "gpu_block_size") return join_exprs(m->gpu_block_size);
      break;
    }
    case NodeKind::ConsumeEntry:
    case NodeKind::ConsumeExit: {
      const ConsumeScope* c = consume_of(r);
      if (!c) break;
      if (p == "pe_index") return c->pe_index;
      if (p == "num_pes") return expr_text(c->num_pes);
      if (p == "condition") return c->condition.code;
      if (p == "schedule") return std::string(to_string(c->schedule));
      if (p == "chunksize") return expr_text(c->chunksize);
      break;
    }
    case NodeKind::NestedSDFG: {
      auto* ns = static_cast<const NestedSDFGNode*>(n);
      if (p == "symbol_mapping") return mapping_text(ns->symbol_mapping);
      if (p == "schedule") return std::string(to_string(ns->schedule));
      if (p == "sdfg_name") return ns->sdfg ? ns->sdfg->name : std::string();
      break;
    }
    case NodeKind::Library: {
      auto* l = static_cast<const LibraryNode*>(n);
      if (p == "name") return l->name;
      if (p == "classpath") return l->classpath;
      if (p == "implementation") return l->implementation;
      if (p == "schedule") return std::string(to_string(l->schedule));
      if (p == "properties") {
        nlohmann::ordered_json j = nlohmann::ordered_json::object();
        for (const auto& [k, v] : l->properties) j[k] = nlohmann::ordered_json::parse(v, nullptr, false);
        return j.dump();
      }
      break;
    }
  }
  return std::nullopt;
}

}  // namespace

extern "C" {

dace_status_t dace_state_list_nodes(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                                    dace_id_t state) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto st = find_state(const_cast<SDFG&>(**s), state);
    if (!st) return st.take_error();
    write_ids(out_ids, capacity, out_count, (*st)->node_ids());
    return Status::success();
  });
}

dace_status_t dace_node_get_kind(dace_node_kind_t* out_kind, const dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_kind, "out_kind"));
    *out_kind = static_cast<dace_node_kind_t>(r.node->kind);
    return Status::success();
  });
}

dace_status_t dace_node_get_label(const char** out_label, const dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_label, "out_label"));
    *out_label = keep(r.node->label);
    return Status::success();
  });
}

dace_status_t dace_node_set_label(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* label) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    if (!label || !*label) return invalid(r.where + ": empty label");
    // The kinds whose labels validation checks as names (DaCe's validate_name).
    switch (r.node->kind) {
      case NodeKind::Tasklet:
      case NodeKind::MapEntry:
      case NodeKind::MapExit:
      case NodeKind::ConsumeEntry:
      case NodeKind::ConsumeExit:
      case NodeKind::NestedSDFG: DACE_TRY(check_identifier(label, r.where, "label")); break;
      default: break;
    }
    r.node->label = label;
    return Status::success();
  });
}

dace_status_t dace_node_get_property(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                     const char* property) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_value, "out_value"));
    DACE_TRY(require(property, "property"));
    auto v = node_property(r, property);
    if (!v) return not_found(r.where + ": a " + to_string(r.node->kind) + " has no property " + quoted(property));
    *out_value = keep(std::move(*v));
    return Status::success();
  });
}

dace_status_t dace_node_get_connector_type(const char** out_dtype, const dace_sdfg_t* sdfg, dace_id_t state,
                                           dace_id_t node, int32_t is_output, const char* name) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_dtype, "out_dtype"));
    DACE_TRY(require(name, "connector name"));
    const auto& conns = is_output ? r.node->out_connectors : r.node->in_connectors;
    auto it = conns.find(name);
    if (it == conns.end())
      return not_found(r.where + " / connector " + quoted(name) + ": no such " + (is_output ? "output" : "input") +
                       " connector");
    *out_dtype = keep(it->second.is_unknown() ? std::string() : to_string(it->second));
    return Status::success();
  });
}

dace_status_t dace_node_set_data(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* data) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    if (r.node->kind != NodeKind::Access) return wrong_kind(r, "an AccessNode");
    DACE_TRY(require(data, "data"));
    if (!r.sdfg->arrays.count(data)) return not_found(r.where + ": no data container " + quoted(data));
    auto* a = static_cast<AccessNode*>(r.node);
    if (a->label == a->data) a->label = data;
    a->data = data;
    return Status::success();
  });
}

dace_status_t dace_node_set_code(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* code,
                                 dace_language_t language) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    if (r.node->kind != NodeKind::Tasklet) return wrong_kind(r, "a Tasklet");
    auto lang = to_language(language, r.where);
    if (!lang) return lang.take_error();
    DACE_TRY(require(code, "code"));
    DACE_TRY(check_code(code, *lang, r.where));
    static_cast<Tasklet*>(r.node)->code = CodeBlock{code, *lang};
    return Status::success();
  });
}

dace_status_t dace_node_set_schedule(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, dace_schedule_t schedule) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    auto s = to_schedule(schedule, r.where);
    if (!s) return s.take_error();
    if (MapScope* m = map_of(r)) {
      m->schedule = *s;
    } else if (ConsumeScope* c = consume_of(r)) {
      c->schedule = *s;
    } else if (r.node->kind == NodeKind::NestedSDFG) {
      static_cast<NestedSDFGNode*>(r.node)->schedule = *s;
    } else if (r.node->kind == NodeKind::Library) {
      static_cast<LibraryNode*>(r.node)->schedule = *s;
    } else {
      return wrong_kind(r, "a map, consume scope, nested SDFG or library node");
    }
    return Status::success();
  });
}

dace_status_t dace_node_set_map_ranges(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* ranges) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    MapScope* m = map_of(r);
    if (!m) return wrong_kind(r, "a map entry or exit");
    DACE_TRY(require(ranges, "ranges"));
    auto parsed = parse_map_ranges(ranges, r.where);
    if (!parsed) return parsed.take_error();
    m->params = std::move(parsed->params);
    m->range = std::move(parsed->range);
    return Status::success();
  });
}

dace_status_t dace_node_set_map_options(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                        const dace_map_options_t* options) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    MapScope* m = map_of(r);
    if (!m) return wrong_kind(r, "a map entry or exit");
    MapScope updated = *m;
    dace_map_options_t defaults = DACE_MAP_OPTIONS_INIT;
    DACE_TRY(apply_map_options(updated, options ? options : &defaults, r.where));
    *m = std::move(updated);
    return Status::success();
  });
}

dace_status_t dace_node_get_map_options(dace_map_options_t* out_options, const dace_sdfg_t* sdfg, dace_id_t state,
                                        dace_id_t node) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_options, "out_options"));
    const MapScope* m = map_of(r);
    if (!m) return wrong_kind(r, "a map entry or exit");
    dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
    o.schedule = static_cast<dace_schedule_t>(m->schedule);
    o.collapse = m->collapse;
    o.omp_num_threads = m->omp_num_threads;
    o.omp_schedule = static_cast<dace_omp_schedule_t>(m->omp_schedule);
    o.omp_chunk_size = m->omp_chunk_size;
    o.unroll = m->unroll ? 1 : 0;
    o.gpu_block_size = m->gpu_block_size.empty() ? nullptr : keep(join_exprs(m->gpu_block_size));
    return write_versioned(out_options, o);
  });
}

dace_status_t dace_node_set_symbol_mapping(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                           const char* symbol_mapping) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    if (r.node->kind != NodeKind::NestedSDFG) return wrong_kind(r, "a NestedSDFG");
    auto m = parse_symbol_mapping(symbol_mapping ? symbol_mapping : "", r.where);
    if (!m) return m.take_error();
    static_cast<NestedSDFGNode*>(r.node)->symbol_mapping = std::move(*m);
    return Status::success();
  });
}

dace_status_t dace_node_get_nested_sdfg(dace_sdfg_t** out_sdfg, dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_sdfg, "out_sdfg"));
    if (r.node->kind != NodeKind::NestedSDFG) return wrong_kind(r, "a NestedSDFG");
    SDFG* inner = static_cast<NestedSDFGNode*>(r.node)->sdfg.get();
    if (!inner) return not_found(r.where + ": the node holds no SDFG");
    dace_sdfg* root = sdfg->root;
    std::lock_guard<std::mutex> lock(root->nested_mutex);
    auto& slot = root->nested[inner];
    if (!slot) {
      slot = std::make_unique<dace_sdfg>();
      slot->sdfg = inner;
      slot->root = root;
    }
    *out_sdfg = slot.get();
    return Status::success();
  });
}

dace_status_t dace_node_set_library_properties(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                               const char* implementation, const char* properties_json) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    if (r.node->kind != NodeKind::Library) return wrong_kind(r, "a LibraryNode");
    auto* l = static_cast<LibraryNode*>(r.node);
    ExtraProperties props = l->properties;
    if (properties_json) {
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(properties_json);
      } catch (const nlohmann::json::parse_error& e) {
        int column = static_cast<int>(e.byte);
        return dace::make_error(dace::Code::ParseError,
                                r.where + ": cannot parse properties JSON at column " + std::to_string(column) +
                                    ": " + dace::ir::json::json_error_reason(e),
                                1, column);
      }
      if (!j.is_object()) return invalid(r.where + ": properties must be a JSON object");
      props.clear();
      for (const auto& [key, value] : j.items()) props[key] = value.dump();
    }
    l->implementation = implementation ? implementation : "";
    l->properties = std::move(props);
    return Status::success();
  });
}

dace_status_t dace_node_get_scope_partner(dace_id_t* out_node, const dace_sdfg_t* sdfg, dace_id_t state,
                                          dace_id_t node) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_node, "out_node"));
    if (r.node->is_scope_entry()) {
      *out_node = r.state->exit_of(node);
    } else if (r.node->kind == NodeKind::MapExit) {
      *out_node = static_cast<MapExit*>(r.node)->entry;
    } else if (r.node->kind == NodeKind::ConsumeExit) {
      *out_node = static_cast<ConsumeExit*>(r.node)->entry;
    } else {
      return wrong_kind(r, "a scope entry or exit");
    }
    if (*out_node >= 0 && !r.state->node(*out_node)) *out_node = DACE_NO_ID;
    return Status::success();
  });
}

dace_status_t dace_node_get_scope_parent(dace_id_t* out_entry, const dace_sdfg_t* sdfg, dace_id_t state,
                                         dace_id_t node) {
  return with_node(sdfg, state, node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_entry, "out_entry"));
    const std::vector<int>& parents = r.state->scope_parents();
    *out_entry = node < static_cast<dace_id_t>(parents.size()) ? parents[node] : DACE_NO_ID;
    return Status::success();
  });
}

dace_status_t dace_map_propagate_memlet(const char** out_memlet, const dace_sdfg_t* sdfg, dace_id_t state,
                                        dace_id_t map_node, const char* memlet) {
  return with_node(sdfg, state, map_node, [&](const NodeRef& r) -> Status {
    DACE_TRY(require(out_memlet, "out_memlet"));
    const MapScope* m = map_of(r);
    if (!m) return wrong_kind(r, "a map entry or exit");
    DACE_TRY(require(memlet, "memlet"));
    auto parsed = build_memlet(*r.sdfg, memlet, nullptr, r.where + " / memlet " + quoted(memlet));
    if (!parsed) return parsed.take_error();
    Memlet outer;
    outer.data = parsed->data;
    if (!parsed->is_empty())
      outer.subset = propagate_over_map(parsed->subset, r.sdfg->arrays.at(parsed->data), m->params, m->range);
    *out_memlet = keep(to_string(outer));
    return Status::success();
  });
}

}  // extern "C"
