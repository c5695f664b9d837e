// Dataflow edges and their memlets.
#include "builder/api_internal.h"
#include "builder/api_memlet.h"
#include "builder/api_nodes.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;
namespace sym = dace::sym;

namespace {

struct StateRef {
  SDFG* sdfg;
  State* state;
};

template <class H>
dace::Result<StateRef> state_ref(H h, dace_id_t state) {
  auto s = sdfg_of(h);
  if (!s) return s.take_error();
  SDFG& g = const_cast<SDFG&>(**s);
  auto st = find_state(g, state);
  if (!st) return st.take_error();
  return StateRef{&g, *st};
}

bool is_scope_node(const Node& n) { return n.is_scope_entry() || n.is_scope_exit(); }

// Checks a connector of an edge end; `*add` is set when a scope IN_/OUT_ connector is to be
// created on insertion.
Status check_connector(const SDFG& sdfg, const State& state, int node_id, const Node& node, const char* conn,
                       bool output, bool* add) {
  *add = false;
  if (!conn || !*conn) return Status::success();
  const auto& conns = output ? node.out_connectors : node.in_connectors;
  if (conns.count(conn)) return Status::success();
  std::string_view c(conn);
  bool scope_conn = is_scope_node(node) && (c.rfind(output ? "OUT_" : "IN_", 0) == 0) &&
                    c.size() > (output ? 4u : 3u);
  if (scope_conn) {
    *add = true;
    return Status::success();
  }
  return not_found(path_of_node(sdfg, state, node_id) + " / connector " + quoted(c) + ": no such " +
                   (output ? "output" : "input") + " connector");
}

}  // namespace

extern "C" {

dace_status_t dace_state_add_edge(dace_id_t* out_edge, dace_sdfg_t* sdfg, dace_id_t state, dace_id_t src,
                                  const char* src_conn, dace_id_t dst, const char* dst_conn, const char* memlet,
                                  const dace_memlet_options_t* options) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_edge, "out_edge"));
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto a = find_node(*r->sdfg, *r->state, src);
    if (!a) return a.take_error();
    auto b = find_node(*r->sdfg, *r->state, dst);
    if (!b) return b.take_error();
    std::string where = path_of(*r->sdfg, *r->state) + " / new edge (" + std::to_string(src) +
                        (src_conn && *src_conn ? std::string(".") + src_conn : "") + " -> " + std::to_string(dst) +
                        (dst_conn && *dst_conn ? std::string(".") + dst_conn : "") + ")";
    if (src == dst) return invalid(where + ": a node cannot be connected to itself");
    bool add_src = false, add_dst = false;
    DACE_TRY(check_connector(*r->sdfg, *r->state, src, **a, src_conn, true, &add_src));
    DACE_TRY(check_connector(*r->sdfg, *r->state, dst, **b, dst_conn, false, &add_dst));
    auto m = build_memlet(*r->sdfg, memlet, options, where);
    if (!m) return m.take_error();
    if (add_src) ensure_connector(**a, true, src_conn);
    if (add_dst) ensure_connector(**b, false, dst_conn);
    DataflowEdge e;
    e.src = src;
    e.dst = dst;
    e.src_conn = src_conn ? src_conn : "";
    e.dst_conn = dst_conn ? dst_conn : "";
    e.memlet = std::move(*m);
    *out_edge = r->state->add_edge(std::move(e));
    return Status::success();
  });
}

dace_status_t dace_state_remove_edge(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t edge) {
  return guard([&]() -> Status {
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto e = find_edge(*r->sdfg, *r->state, edge);
    if (!e) return e.take_error();
    r->state->remove_edge(edge);
    return Status::success();
  });
}

dace_status_t dace_state_list_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                                    dace_id_t state) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    write_ids(out_ids, capacity, out_count, r->state->edge_ids());
    return Status::success();
  });
}

namespace {

// In- or out-edges of a node, with the two-call idiom.
dace_status_t list_node_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                              dace_id_t state, dace_id_t node, bool incoming) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto n = find_node(*r->sdfg, *r->state, node);
    if (!n) return n.take_error();
    write_ids(out_ids, capacity, out_count, incoming ? r->state->in_edges(node) : r->state->out_edges(node));
    return Status::success();
  });
}

}  // namespace

dace_status_t dace_node_list_in_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                                      dace_id_t state, dace_id_t node) {
  return list_node_edges(out_ids, capacity, out_count, sdfg, state, node, true);
}

dace_status_t dace_node_list_out_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                                       dace_id_t state, dace_id_t node) {
  return list_node_edges(out_ids, capacity, out_count, sdfg, state, node, false);
}

dace_status_t dace_edge_get_endpoints(dace_id_t* out_src, const char** out_src_conn, dace_id_t* out_dst,
                                      const char** out_dst_conn, const dace_sdfg_t* sdfg, dace_id_t state,
                                      dace_id_t edge) {
  return guard([&]() -> Status {
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto e = find_edge(*r->sdfg, *r->state, edge);
    if (!e) return e.take_error();
    if (out_src) *out_src = (*e)->src;
    if (out_dst) *out_dst = (*e)->dst;
    if (out_src_conn) *out_src_conn = keep((*e)->src_conn);
    if (out_dst_conn) *out_dst_conn = keep((*e)->dst_conn);
    return Status::success();
  });
}

dace_status_t dace_edge_get_memlet(const char** out_memlet, const dace_sdfg_t* sdfg, dace_id_t state, dace_id_t edge) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_memlet, "out_memlet"));
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto e = find_edge(*r->sdfg, *r->state, edge);
    if (!e) return e.take_error();
    *out_memlet = keep(to_string((*e)->memlet));
    return Status::success();
  });
}

dace_status_t dace_edge_get_memlet_property(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state,
                                            dace_id_t edge, const char* property) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_value, "out_value"));
    DACE_TRY(require(property, "property"));
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto e = find_edge(*r->sdfg, *r->state, edge);
    if (!e) return e.take_error();
    const Memlet& m = (*e)->memlet;
    std::string p = property;
    std::optional<std::string> v;
    if (p == "data") v = m.data;
    if (p == "subset") v = m.is_empty() ? std::string() : sym::to_string(m.subset);
    if (p == "other_subset") v = m.other_subset ? sym::to_string(*m.other_subset) : std::string();
    if (p == "volume") {
      sym::Expr vol = m.volume ? m.volume : (m.is_empty() ? sym::integer(0) : sym::volume(m.subset));
      v = sym::to_string(vol);
    }
    if (p == "dynamic") v = m.dynamic ? "1" : "0";
    if (p == "wcr") v = m.wcr;
    if (p == "wcr_nonatomic") v = m.wcr_nonatomic ? "1" : "0";
    if (p == "allow_oob") v = m.allow_oob ? "1" : "0";
    if (!v) return not_found(path_of_edge(*r->sdfg, *r->state, edge) + ": a memlet has no property " + quoted(p));
    *out_value = keep(std::move(*v));
    return Status::success();
  });
}

dace_status_t dace_edge_set_memlet(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t edge, const char* memlet,
                                   const dace_memlet_options_t* options) {
  return guard([&]() -> Status {
    auto r = state_ref(sdfg, state);
    if (!r) return r.take_error();
    auto e = find_edge(*r->sdfg, *r->state, edge);
    if (!e) return e.take_error();
    auto m = build_memlet(*r->sdfg, memlet, options, path_of_edge(*r->sdfg, *r->state, edge));
    if (!m) return m.take_error();
    (*e)->memlet = std::move(*m);
    return Status::success();
  });
}

}  // extern "C"
