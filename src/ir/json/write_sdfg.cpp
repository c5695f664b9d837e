// Writing SDFGs in the canonical dialect (what DaCe 1.0.2 writes and loads): properties in
// DaCe's order, defaults omitted as DaCe omits them, std::map order for name-keyed tables.
#include "ir/json/json_internal.h"

namespace dace::ir::json::detail {
namespace {

void put_guid(Json& attrs, const std::string& guid, const WriteContext& ctx) {
  if (ctx.options.include_guids && !guid.empty()) attrs["guid"] = guid;
}

void put_extras(Json& attrs, const ExtraProperties& extra) {
  for (const auto& [key, text] : extra)
    if (!attrs.contains(key)) attrs[key] = extra_value(text);
}

bool is_int(sym::Expr e, int64_t v) {
  auto x = e ? sym::as_integer(e) : std::nullopt;
  return x && *x == v;
}

Json expr_list_json(const std::vector<sym::Expr>& list) {
  Json out = Json::array();
  for (auto e : list) out.push_back(expr_json(e));
  return out;
}

// DaCe 1.0.2 cannot load the abstract `View` and `Reference`: write their array forms.
const char* descriptor_type(const DataDescriptor& d) {
  switch (d.kind) {
    case DataKind::Scalar: return "Scalar";
    case DataKind::Array: return "Array";
    case DataKind::Stream: return "Stream";
    case DataKind::View: return "ArrayView";
    case DataKind::Reference: return "ArrayReference";
  }
  return "Array";
}

// total_size 0 is omitted only where reading derives 0 again (an empty shape): a 0 next to a
// non-empty shape (hostile input) would otherwise come back as the shape's extent, and the
// content hash would change on a save/load round trip.
bool omit_total_size(const DataDescriptor& d) {
  if (!d.total_size) return true;
  if (!is_int(d.total_size, 0)) return false;
  DataDescriptor derived = d;
  derived.total_size = nullptr;
  complete_defaults(derived);
  return is_int(derived.total_size, 0);
}

Json descriptor_json(const DataDescriptor& d) {
  Json a = Json::object();
  if (d.allow_conflicts && d.kind != DataKind::Stream) a["allow_conflicts"] = true;
  if (d.kind == DataKind::Stream) {
    if (!d.offset.empty()) a["offset"] = expr_list_json(d.offset);
    if (d.buffer_size && !is_int(d.buffer_size, 0)) a["buffer_size"] = expr_json(d.buffer_size);
  } else if (d.kind != DataKind::Scalar) {
    if (!d.strides.empty()) a["strides"] = expr_list_json(d.strides);
    if (!omit_total_size(d)) a["total_size"] = expr_json(d.total_size);
    if (!d.offset.empty()) a["offset"] = expr_list_json(d.offset);
    if (d.may_alias) a["may_alias"] = true;
    if (d.alignment != 0) a["alignment"] = d.alignment;
    if (d.start_offset && !is_int(d.start_offset, 0)) a["start_offset"] = expr_int_json(d.start_offset);
    // Without the flag, the "optional": null kept in `extra` (DaCe's None, "unknown") applies.
    if (d.optional || !d.extra.count("optional")) a["optional"] = d.optional;
  }
  a["dtype"] = dtype_json(d.dtype);
  a["shape"] = expr_list_json(d.shape);
  if (d.transient) a["transient"] = true;
  if (d.storage != StorageType::Default) a["storage"] = to_string(d.storage);
  if (d.lifetime != Lifetime::Scope) a["lifetime"] = to_string(d.lifetime);
  put_extras(a, d.extra);
  put_debuginfo(a, d.debuginfo);
  Json out = Json::object();
  out["type"] = descriptor_type(d);
  out["attributes"] = std::move(a);
  return out;
}

Json code_dict_json(const std::map<std::string, CodeBlock>& codes) {
  Json out = Json::object();
  // DaCe's frontend always has the "frame" location; a missing one is the empty frame.
  if (!codes.count("frame")) out["frame"] = code_json(CodeBlock{"", Language::CPP});
  for (const auto& [loc, code] : codes) out[loc] = code_json(code);
  return out;
}

Json constants_json(const SDFG& sdfg) {
  Json out = Json::object();
  for (const auto& [name, c] : sdfg.constants) {
    Json desc_attrs = Json::object();
    desc_attrs["dtype"] = dtype_json(c.dtype);
    desc_attrs["shape"] = Json::array({"1"});
    desc_attrs["debuginfo"] = nullptr;
    Json desc = Json::object();
    desc["type"] = "Scalar";
    desc["attributes"] = std::move(desc_attrs);
    out[name] = Json::array({std::move(desc), extra_value(c.value_json)});
  }
  return out;
}

Json interstate_edge_json(const InterstateEdge& e, int src, int dst, const WriteContext& ctx) {
  Json a = Json::object();
  if (!e.assignments.empty()) {
    Json as = Json::object();
    for (const auto& [var, value] : e.assignments) as[var] = value;
    a["assignments"] = std::move(as);
  }
  if (!(e.condition == CodeBlock{"1", Language::Python})) a["condition"] = code_json(e.condition);
  put_extras(a, e.extra);
  put_guid(a, e.guid, ctx);
  // DaCe's display label: "cond; a=1,b=2".
  std::string assigns;
  for (const auto& [var, value] : e.assignments) assigns += (assigns.empty() ? "" : ",") + var + "=" + value;
  std::string label;
  if (e.condition.code == "1") label = assigns;
  else label = assigns.empty() ? e.condition.code : e.condition.code + "; " + assigns;
  Json data = Json::object();
  data["type"] = "InterstateEdge";
  data["attributes"] = std::move(a);
  data["label"] = label;
  Json attrs = Json::object();
  attrs["data"] = std::move(data);
  Json out = Json::object();
  out["type"] = "Edge";
  out["attributes"] = std::move(attrs);
  out["src"] = std::to_string(src);
  out["dst"] = std::to_string(dst);
  return out;
}

Json block_json(const ControlFlowBlock& b, const SDFG& sdfg, WriteContext& ctx, int json_id);

// nodes, edges and start_block of a region; live slots numbered densely.
void put_region_graph(Json& out, const ControlFlowRegion& region, const SDFG& sdfg, WriteContext& ctx) {
  const std::vector<int> slots = region.block_slots();
  std::vector<int> dense(slots.empty() ? 0 : static_cast<size_t>(slots.back()) + 1, -1);
  for (size_t i = 0; i < slots.size(); ++i) dense[static_cast<size_t>(slots[i])] = static_cast<int>(i);
  Json nodes = Json::array();
  for (size_t i = 0; i < slots.size(); ++i) nodes.push_back(block_json(*region.block(slots[i]), sdfg, ctx, static_cast<int>(i)));
  Json edges = Json::array();
  for (int es : region.edge_slots()) {
    const InterstateEdge& e = *region.edge(es);
    if (!region.block(e.src) || !region.block(e.dst)) continue;
    edges.push_back(interstate_edge_json(e, dense[static_cast<size_t>(e.src)], dense[static_cast<size_t>(e.dst)], ctx));
  }
  out["nodes"] = std::move(nodes);
  out["edges"] = std::move(edges);
}

Json start_block_json(const ControlFlowRegion& region) {
  if (!region.block(region.start_block)) return nullptr;
  int index = 0;
  for (int s : region.block_slots()) {
    if (s == region.start_block) return index;
    ++index;
  }
  return nullptr;
}

Json region_json(const ControlFlowRegion& region, const SDFG& sdfg, WriteContext& ctx, Json attrs, Json id) {
  const int cfg_id = ctx.next_cfg_id++;  // pre-order, as DaCe's cfg_list
  // The nine keys below and dace_version (write_sdfg_json): nodes must not be copied.
  Json out = object_with_room(10);
  out["type"] = to_string(region.kind);
  out["attributes"] = std::move(attrs);
  put_region_graph(out, region, sdfg, ctx);
  out["collapsed"] = false;
  out["label"] = region.kind == BlockKind::SDFG ? std::string() : region.label;
  out["id"] = std::move(id);
  out["cfg_list_id"] = cfg_id;
  out["start_block"] = start_block_json(region);
  return out;
}

Json block_json(const ControlFlowBlock& b, const SDFG& sdfg, WriteContext& ctx, int json_id) {
  switch (b.kind) {
    case BlockKind::State: return write_state_json(static_cast<const State&>(b), sdfg, ctx, json_id);
    case BlockKind::Loop: {
      const auto& loop = static_cast<const LoopRegion&>(b);
      Json a = Json::object();
      if (!loop.update_statement.code.empty()) a["update_statement"] = code_json(loop.update_statement);
      if (!loop.init_statement.code.empty()) a["init_statement"] = code_json(loop.init_statement);
      if (!loop.loop_condition.code.empty()) a["loop_condition"] = code_json(loop.loop_condition);
      if (loop.inverted) a["inverted"] = true;
      if (!loop.update_before_condition) a["update_before_condition"] = false;
      if (!loop.loop_variable.empty()) a["loop_variable"] = loop.loop_variable;
      put_extras(a, b.extra);
      put_guid(a, b.guid, ctx);
      return region_json(loop, sdfg, ctx, std::move(a), json_id);
    }
    case BlockKind::Region: {
      Json a = Json::object();
      put_extras(a, b.extra);
      put_guid(a, b.guid, ctx);
      return region_json(static_cast<const ControlFlowRegion&>(b), sdfg, ctx, std::move(a), json_id);
    }
    case BlockKind::Conditional: {
      const auto& cond = static_cast<const ConditionalBlock&>(b);
      Json a = Json::object();
      put_extras(a, b.extra);
      put_guid(a, b.guid, ctx);
      Json out = object_with_room(6);  // branches, holding nested regions, come last
      out["type"] = "ConditionalBlock";
      out["collapsed"] = false;
      out["label"] = b.label;
      out["id"] = json_id;
      out["attributes"] = std::move(a);
      Json branches = Json::array();
      for (const auto& [condition, region] : cond.branches) {
        Json ra = Json::object();
        put_extras(ra, region->extra);
        put_guid(ra, region->guid, ctx);
        Json body = region_json(*region, sdfg, ctx, std::move(ra), nullptr);
        branches.push_back(Json::array({condition ? code_json(*condition) : Json(nullptr), std::move(body)}));
      }
      out["branches"] = std::move(branches);
      return out;
    }
    case BlockKind::Break:
    case BlockKind::Continue:
    case BlockKind::Return:
    case BlockKind::SDFG: {
      Json a = Json::object();
      put_extras(a, b.extra);
      put_guid(a, b.guid, ctx);
      Json out = Json::object();
      out["type"] = to_string(b.kind);
      out["collapsed"] = false;
      out["label"] = b.label;
      out["id"] = json_id;
      out["attributes"] = std::move(a);
      out["nodes"] = Json::array();
      out["edges"] = Json::array();
      return out;
    }
  }
  return nullptr;
}

}  // namespace

Json write_sdfg_json(const SDFG& sdfg, WriteContext& ctx, bool root) {
  Json a = Json::object();
  a["name"] = sdfg.name;
  if (!sdfg.arg_names.empty()) a["arg_names"] = sdfg.arg_names;
  if (auto it = sdfg.extra.find("constants_prop"); it != sdfg.extra.end()) a["constants_prop"] = extra_value(it->second);
  else if (!sdfg.constants.empty()) a["constants_prop"] = constants_json(sdfg);
  if (!sdfg.arrays.empty()) {
    Json arrays = Json::object();
    for (const auto& [name, desc] : sdfg.arrays) arrays[name] = descriptor_json(desc);
    a["_arrays"] = std::move(arrays);
  }
  if (!sdfg.symbols.empty()) {
    Json syms = Json::object();
    for (const auto& [name, type] : sdfg.symbols) syms[name] = dtype_json(type);
    a["symbols"] = std::move(syms);
  }
  a["global_code"] = code_dict_json(sdfg.global_code);
  a["init_code"] = code_dict_json(sdfg.init_code);
  a["exit_code"] = code_dict_json(sdfg.exit_code);
  put_debuginfo(a, sdfg.debuginfo);
  if (sdfg.using_explicit_control_flow) a["using_experimental_blocks"] = true;  // DaCe 1.0's name
  put_extras(a, sdfg.extra);
  put_guid(a, sdfg.guid, ctx);

  Json out = region_json(sdfg, sdfg, ctx, std::move(a), nullptr);
  if (root) out["dace_version"] = kWrittenDaceVersion;
  return out;
}

}  // namespace dace::ir::json::detail
