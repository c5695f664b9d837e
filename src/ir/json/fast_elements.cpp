// The fast way of reading a state's nodes and edges: straight from the text into the IR, for
// the common elements (access nodes, tasklets, maps, memlet edges) in the simple JSON subset
// (span_attrs.h). Building and freeing a DOM per element was over half of the reading time
// of large files. Anything else declines, and read_state.cpp reads that element the usual way.
#include "ir/json/attr_readers.h"
#include "ir/json/span_attrs.h"

namespace dace::ir::json::detail {
namespace {

thread_local uint64_t elements_read = 0;

// Reused from element to element (its vectors keep their capacity). The fast way does not
// recurse (nested SDFGs take the usual way), so one per thread is enough.
ElementScan& element_scan() {
  thread_local ElementScan scan;
  return scan;
}

// As node_ref (read_state.cpp) reads `scope_entry`, `scope_exit`, `src`, `dst`.
bool node_ref(const SpanObject& j, std::string_view key, int& out) {
  const SpanMember* m = j.find(key);
  out = -1;
  if (!m || span_is_null(m->value)) return true;
  int64_t v = 0;
  if (span_integer(m->value, v)) {
    out = v >= 0 && v <= INT32_MAX ? static_cast<int>(v) : -1;
    return true;
  }
  std::string_view s;
  if (!span_string(m->value, s) || s.empty() || s.size() > 9) return false;
  int r = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    r = r * 10 + (c - '0');
  }
  out = r;
  return true;
}

// As connector_name (read_state.cpp): missing or null is "", a string is the name.
bool connector_name(const SpanObject& j, std::string_view key, std::string& out) {
  const SpanMember* m = j.find(key);
  out.clear();
  if (!m || span_is_null(m->value)) return true;
  std::string_view s;
  if (!span_string(m->value, s)) return false;
  out.assign(s);
  return true;
}

// The object a member holds (`found` null when the member is null or missing).
bool member_object(const ElementScan& scan, const SpanObject& j, std::string_view key, SpanObject& out,
                   const SpanObject*& found) {
  found = nullptr;
  const SpanMember* m = j.find(key);
  if (!m || span_is_null(m->value)) return true;
  if (!scan.object(m->value, out)) return false;
  found = &out;
  return true;
}

Result<std::unique_ptr<Node>> node_of_type(std::string_view type, const std::string& top_label, SpanAttrs& a) {
  if (type == "AccessNode") {
    auto n = std::make_unique<AccessNode>();
    DACE_TRY(a.str("data", n->data));
    DACE_TRY(a.boolean("setzero", n->setzero));
    n->label = n->data;
    return std::unique_ptr<Node>(std::move(n));
  }
  if (type == "Tasklet") {
    auto n = std::make_unique<Tasklet>();
    n->label = top_label;
    DACE_TRY(read_tasklet(a, *n));
    return std::unique_ptr<Node>(std::move(n));
  }
  if (type == "MapEntry") {
    auto n = std::make_unique<MapEntry>();
    DACE_TRY(read_map(a, *n));
    return std::unique_ptr<Node>(std::move(n));
  }
  if (type == "MapExit") {
    auto n = std::make_unique<MapExit>();
    n->label = top_label;
    return std::unique_ptr<Node>(std::move(n));
  }
  return SpanAttrs::refused();  // consume scopes, nested SDFGs, library nodes: the usual way
}

}  // namespace

bool read_node_fast(std::string_view text, size_t& pos, const ReadContext& ctx, State& st,
                    std::vector<int>& scope_entry, std::vector<int>& scope_exit) {
  size_t at = pos;
  ElementScan& scan = element_scan();
  SpanObject j;
  if (!scan.scan(text, at, j)) return false;
  std::string_view type;
  const SpanMember* type_member = j.find("type");
  if (!type_member || !span_string(type_member->value, type) || j.find("classpath")) return false;
  SpanObject attrs_obj;
  const SpanObject* attrs = nullptr;
  if (!member_object(scan, j, "attributes", attrs_obj, attrs)) return false;
  std::string top_label;
  std::string_view label;
  if (const SpanMember* l = j.find("label"); l && span_string(l->value, label)) top_label.assign(label);

  SpanAttrs a(attrs, scan);
  auto node = node_of_type(type, top_label, a);
  if (!node) return false;
  if (!read_common(a, **node, ctx).ok()) return false;
  if ((*node)->is_scope_exit()) (*node)->debuginfo = DebugInfo{};  // exits have no debuginfo in DaCe
  if (!a.collect_extras((*node)->extra).ok()) return false;
  int entry = -1, exit = -1;
  if (!node_ref(j, "scope_entry", entry) || !node_ref(j, "scope_exit", exit)) return false;
  scope_entry.push_back(entry);
  scope_exit.push_back(exit);
  st.add_node(std::move(*node));
  pos = at;
  ++elements_read;
  return true;
}

bool read_edge_fast(std::string_view text, size_t& pos, const ReadContext& ctx, State& st) {
  size_t at = pos;
  ElementScan& scan = element_scan();
  SpanObject j;
  if (!scan.scan(text, at, j)) return false;
  DataflowEdge e;
  if (!node_ref(j, "src", e.src) || !node_ref(j, "dst", e.dst) || !st.node(e.src) || !st.node(e.dst)) return false;
  if (!connector_name(j, "src_connector", e.src_conn) || !connector_name(j, "dst_connector", e.dst_conn)) return false;
  // attributes -> data (a Memlet) -> its attributes.
  SpanObject attrs_obj, data_obj, inner_obj;
  const SpanObject *attrs = nullptr, *data = nullptr, *inner = nullptr;
  if (!member_object(scan, j, "attributes", attrs_obj, attrs) || !attrs) return false;
  if (!member_object(scan, *attrs, "data", data_obj, data) || !data) return false;
  if (const SpanMember* type = data->find("type")) {
    std::string_view t;
    if (!span_string(type->value, t) || t != "Memlet") return false;
  }
  // The usual way reads attributes that are not an object as none at all.
  if (const SpanMember* m = data->find("attributes"); m && m->value.front() == '{') {
    if (!scan.object(m->value, inner_obj)) return false;
    inner = &inner_obj;
  }
  SpanAttrs a(inner, scan);
  if (!read_memlet_attributes(a, e.memlet, ctx).ok()) return false;
  st.add_edge(std::move(e));
  pos = at;
  ++elements_read;
  return true;
}

uint64_t fast_elements_read() { return elements_read; }

}  // namespace dace::ir::json::detail
