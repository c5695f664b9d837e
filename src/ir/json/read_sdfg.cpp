// Reading SDFGs: top level, data descriptors, control-flow regions and interstate edges.
#include <future>
#include <system_error>
#include <thread>
#include <utility>

#include "ir/json/json_internal.h"
#include "ir/path.h"

namespace dace::ir::json::detail {
namespace {

Result<int> index_value(const Json& j, std::string_view key, const std::string& path, bool required) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (required) return parse_error(path, key, "missing");
    return -1;
  }
  int64_t v = -1;
  if (it->is_number_integer() || it->is_number_unsigned()) {
    v = it->get<int64_t>();
  } else if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    bool digits = !s.empty() && s.size() <= 9;
    for (char c : s) digits = digits && c >= '0' && c <= '9';
    if (!digits) return parse_error(path, key, "expected an index, got " + ir::quoted(s));
    v = std::stoll(s);
  } else {
    return parse_error(path, key, "expected an index");
  }
  if (v < 0 || v > INT32_MAX) return parse_error(path, key, "index out of range");
  return static_cast<int>(v);
}

Result<DataDescriptor> read_descriptor(const Json& j, const ReadContext& ctx, const std::string& path) {
  if (!j.is_object()) return parse_error(path, "", "expected data descriptor object");
  auto type = j.find("type");
  if (type == j.end() || !type->is_string()) return parse_error(path, "type", "missing descriptor type");
  DataDescriptor d;
  d.json_type = type->get<std::string>();
  const std::string& t = d.json_type;
  if (t == "Scalar") d.kind = DataKind::Scalar;
  else if (t == "Array") d.kind = DataKind::Array;
  else if (t == "ArrayView" || t == "View") d.kind = DataKind::View;
  else if (t == "ArrayReference" || t == "Reference") d.kind = DataKind::Reference;
  else if (t == "Stream") d.kind = DataKind::Stream;
  else return parse_error(path, "type", "unsupported data descriptor type " + ir::quoted(t));
  auto attrs = j.find("attributes");
  Attrs a(attrs == j.end() ? nullptr : &*attrs, path);
  d.dtype = DType::of(ScalarType::Int32);  // DaCe's default when omitted
  DACE_TRY(a.dtype("dtype", d.dtype));
  DACE_TRY(a.expr_list("shape", d.shape));
  DACE_TRY(a.boolean("transient", d.transient));
  DACE_TRY(a.storage("storage", d.storage));
  DACE_TRY(a.lifetime("lifetime", d.lifetime));
  DACE_TRY(a.debuginfo("debuginfo", d.debuginfo, ctx));
  DACE_TRY(a.boolean("allow_conflicts", d.allow_conflicts));
  if (d.kind == DataKind::Stream) {
    DACE_TRY(a.expr_list("offset", d.offset));
    d.buffer_size = sym::integer(0);  // DaCe's default when omitted
    DACE_TRY(a.expr("buffer_size", d.buffer_size));
  } else if (d.kind != DataKind::Scalar) {
    DACE_TRY(a.expr_list("strides", d.strides));
    DACE_TRY(a.expr_list("offset", d.offset));
    DACE_TRY(a.expr("total_size", d.total_size));
    DACE_TRY(a.expr("start_offset", d.start_offset));
    DACE_TRY(a.integer("alignment", d.alignment));
    DACE_TRY(a.boolean("may_alias", d.may_alias));
    // DaCe's optional is tri-state; None ("unknown", the default) is kept as an extra.
    const Json* opt = a.raw("optional");
    if (!opt || opt->is_null()) d.extra["optional"] = "null";
    else if (opt->is_boolean()) d.optional = opt->get<bool>();
    else return a.error("optional", "expected boolean or null");
  }
  // An offset list longer than the shape is kept as written: DaCe's GPU reduction expansions
  // reshape arrays without trimming it, and only the first rank entries mean anything.
  if (d.strides.size() > d.shape.size()) return a.error("strides", "longer than the shape");
  a.collect_extras(d.extra);
  complete_defaults(d);
  return d;
}

Status read_code_dict(Attrs& a, std::string_view key, std::map<std::string, CodeBlock>& out) {
  const Json* v = a.raw(key);
  if (!v || v->is_null()) return {};
  if (!v->is_object()) return a.error(key, "expected object");
  for (const auto& [loc, code] : v->items()) {
    auto c = parse_code_json(code, a.path(), key);
    if (!c) return c.take_error();
    out[loc] = std::move(*c);
  }
  return {};
}

Status read_interstate_edge(const Json& j, InterstateEdge& e, const std::string& path) {
  if (!j.is_object()) return parse_error(path, "", "expected edge object");
  auto attrs = j.find("attributes");
  const Json* data = nullptr;
  if (attrs != j.end() && attrs->is_object()) {
    auto d = attrs->find("data");
    if (d != attrs->end() && d->is_object()) data = &*d;
  }
  if (!data) return parse_error(path, "data", "missing InterstateEdge");
  auto inner = data->find("attributes");
  Attrs a(inner == data->end() ? nullptr : &*inner, path);
  DACE_TRY(a.code("condition", e.condition));
  if (const Json* as = a.raw("assignments"); as && !as->is_null()) {
    if (!as->is_object()) return a.error("assignments", "expected object");
    for (const auto& [var, value] : as->items()) {
      if (value.is_string()) e.assignments.emplace_back(var, value.get<std::string>());
      else if (value.is_number() || value.is_boolean()) e.assignments.emplace_back(var, compact(value));
      else return a.error("assignments", "value of " + ir::quoted(var) + ": expected string");
    }
  }
  DACE_TRY(a.str("guid", e.guid));
  a.collect_extras(e.extra);
  if (auto l = data->find("label"); l != data->end() && l->is_string()) e.label = l->get<std::string>();
  return {};
}

const char* block_word(const std::string& type) {
  if (type == "SDFGState") return "state";
  if (type == "LoopRegion") return "loop";
  if (type == "ConditionalBlock") return "conditional";
  if (type == "BreakBlock") return "break";
  if (type == "ContinueBlock") return "continue";
  if (type == "ReturnBlock") return "return";
  return "region";
}

Status read_region_graph(const Json& j, ReadContext& ctx, const std::string& path, ControlFlowRegion& region);

Result<std::unique_ptr<ControlFlowBlock>> read_block(const Json& j, ReadContext& ctx, const std::string& region_path,
                                                     int index) {
  std::string ipath = region_path + " / block " + std::to_string(index);
  if (!j.is_object()) return parse_error(ipath, "", "expected block object");
  auto type_it = j.find("type");
  if (type_it == j.end() || !type_it->is_string()) return parse_error(ipath, "type", "missing block type");
  const std::string& type = type_it->get_ref<const std::string&>();
  std::string label;
  if (auto l = j.find("label"); l != j.end() && !l->is_null()) {
    if (!l->is_string()) return parse_error(ipath, "label", "expected string");
    label = l->get<std::string>();
  }
  std::string path = region_path + " / " + block_word(type) + " " + ir::quoted(label);
  auto attrs = j.find("attributes");
  const Json* attrs_p = attrs == j.end() ? nullptr : &*attrs;

  std::unique_ptr<ControlFlowBlock> block;
  if (type == "SDFGState") {
    auto st = std::make_unique<State>();
    DACE_TRY(read_state_json(j, ctx, path, *st));
    block = std::move(st);
  } else if (type == "LoopRegion") {
    auto loop = std::make_unique<LoopRegion>();
    Attrs a(attrs_p, path);
    DACE_TRY(a.str("loop_variable", loop->loop_variable));
    DACE_TRY(a.code("init_statement", loop->init_statement));
    DACE_TRY(a.code("loop_condition", loop->loop_condition));
    DACE_TRY(a.code("update_statement", loop->update_statement));
    DACE_TRY(a.boolean("inverted", loop->inverted));
    DACE_TRY(a.boolean("update_before_condition", loop->update_before_condition));
    DACE_TRY(a.str("guid", loop->guid));
    a.skip("executions");
    a.skip("dynamic_executions");
    a.skip("ranges");
    a.collect_extras(loop->extra);
    DACE_TRY(read_region_graph(j, ctx, path, *loop));
    block = std::move(loop);
  } else if (type == "ControlFlowRegion") {
    auto region = std::make_unique<ControlFlowRegion>();
    Attrs a(attrs_p, path);
    DACE_TRY(a.str("guid", region->guid));
    a.collect_extras(region->extra);
    DACE_TRY(read_region_graph(j, ctx, path, *region));
    block = std::move(region);
  } else if (type == "ConditionalBlock") {
    auto cond = std::make_unique<ConditionalBlock>();
    Attrs a(attrs_p, path);
    DACE_TRY(a.str("guid", cond->guid));
    a.collect_extras(cond->extra);
    auto branches = j.find("branches");
    if (branches == j.end() || !branches->is_array()) return parse_error(path, "branches", "expected list");
    int b = 0;
    for (const auto& br : *branches) {
      std::string bpath = path + " / branch " + std::to_string(b++);
      if (!br.is_array() || br.size() != 2) return parse_error(bpath, "", "expected [condition, region]");
      std::optional<CodeBlock> condition;
      if (!br[0].is_null()) {
        auto c = parse_code_json(br[0], bpath, "condition");
        if (!c) return c.take_error();
        condition = std::move(*c);
      }
      auto region = read_block(br[1], ctx, bpath, 0);
      if (!region) return region.take_error();
      if ((*region)->kind != BlockKind::Region) return parse_error(bpath, "", "branch body must be a ControlFlowRegion");
      cond->branches.emplace_back(std::move(condition),
                                  std::unique_ptr<ControlFlowRegion>(static_cast<ControlFlowRegion*>(region->release())));
    }
    block = std::move(cond);
  } else if (type == "BreakBlock" || type == "ContinueBlock" || type == "ReturnBlock") {
    if (type == "BreakBlock") block = std::make_unique<BreakBlock>();
    else if (type == "ContinueBlock") block = std::make_unique<ContinueBlock>();
    else block = std::make_unique<ReturnBlock>();
    Attrs a(attrs_p, path);
    DACE_TRY(a.str("guid", block->guid));
    a.collect_extras(block->extra);
  } else {
    return parse_error(ipath, "type", "unknown control-flow block type " + ir::quoted(type));
  }
  block->label = std::move(label);
  return block;
}

// ---- reading large states two at a time ----

// States whose node and edge lists hold at least this much text are read on two threads, a
// pair at a time. Smaller ones (all but one state of the corpus) never start a thread.
constexpr size_t kReadAheadBytes = size_t{256} << 10;

thread_local uint64_t read_ahead_count = 0;

// Bytes of text in the lists the skeleton pass deferred for block `j`, when it is a state.
size_t deferred_bytes(const Json& j) {
  if (!j.is_object()) return 0;
  auto type = j.find("type");
  if (type == j.end() || !type->is_string() || type->get_ref<const std::string&>() != "SDFGState") return 0;
  size_t total = 0;
  for (const char* key : {"nodes", "edges"}) {
    size_t begin = 0, end = 0;
    if (auto it = j.find(key); it != j.end() && deferred_range(*it, begin, end)) total += end - begin;
  }
  return total;
}

using BlockResult = Result<std::unique_ptr<ControlFlowBlock>>;

// Block `j` read on another thread, with its own copy of the context (reading a state changes
// nothing in it but the count of deferred lists read, returned beside the block). Invalid when
// no thread could be started: the caller then reads the block itself.
std::future<std::pair<BlockResult, size_t>> read_block_elsewhere(const Json& j, const ReadContext& ctx,
                                                                 const std::string& path, int index) {
  try {
    return std::async(std::launch::async, [&j, local = ctx, &path, index]() mutable {
      const size_t before = local.deferred_read;
      BlockResult block = read_block(j, local, path, index);
      return std::make_pair(std::move(block), local.deferred_read - before);
    });
  } catch (const std::system_error&) {
    return {};
  }
}

}  // namespace

uint64_t blocks_read_ahead() { return read_ahead_count; }

namespace {

Status read_region_graph(const Json& j, ReadContext& ctx, const std::string& path, ControlFlowRegion& region) {
  if (++ctx.depth > kMaxDepth) return nesting_error(path);
  auto nodes = j.find("nodes");
  if (nodes != j.end() && !nodes->is_null() && !nodes->is_array()) return parse_error(path, "nodes", "expected list");
  int count = 0;
  if (nodes != j.end() && nodes->is_array()) {
    static const bool several_cores = std::thread::hardware_concurrency() > 1;
    const auto& blocks = nodes->get_ref<const Json::array_t&>();
    for (size_t i = 0; i < blocks.size(); ++i) {
      // Two large states in a row: the second is read on another thread while this one is
      // read here. Results are taken in order, so the error reported is still the first in
      // the file (a pending read is waited for, and dropped, when this one fails).
      std::future<std::pair<BlockResult, size_t>> next;
      if (several_cores && i + 1 < blocks.size() && deferred_bytes(blocks[i]) >= kReadAheadBytes &&
          deferred_bytes(blocks[i + 1]) >= kReadAheadBytes)
        next = read_block_elsewhere(blocks[i + 1], ctx, path, count + 1);
      auto b = read_block(blocks[i], ctx, path, count++);
      if (!b) return b.take_error();
      region.add_block(std::move(*b));
      if (!next.valid()) continue;
      auto [second, lists_read] = next.get();
      ++read_ahead_count;
      ++i;
      ++count;
      ctx.deferred_read += lists_read;
      if (!second) return second.take_error();
      region.add_block(std::move(*second));
    }
  }
  auto edges = j.find("edges");
  if (edges != j.end() && !edges->is_null() && !edges->is_array()) return parse_error(path, "edges", "expected list");
  if (edges != j.end() && edges->is_array()) {
    int index = 0;
    for (const auto& ej : *edges) {
      std::string epath = path + " / interstate edge " + std::to_string(index++);
      InterstateEdge e;
      auto src = index_value(ej, "src", epath, true);
      if (!src) return src.take_error();
      auto dst = index_value(ej, "dst", epath, true);
      if (!dst) return dst.take_error();
      if (*src >= count) return parse_error(epath, "src", "no block " + std::to_string(*src));
      if (*dst >= count) return parse_error(epath, "dst", "no block " + std::to_string(*dst));
      e.src = *src;
      e.dst = *dst;
      DACE_TRY(read_interstate_edge(ej, e, epath));
      region.add_edge(std::move(e));
    }
  }
  // DaCe < 0.16 calls it start_state.
  const char* start_key = j.contains("start_block") ? "start_block" : "start_state";
  auto start = index_value(j, start_key, path, false);
  if (!start) return start.take_error();
  // DaCe's simplify can leave a stale index behind; DaCe then falls back to the unique source
  // block, which is what -1 means here.
  region.start_block = *start < count ? *start : -1;
  --ctx.depth;
  return {};
}

Status read_sdfg_attributes(Attrs& a, ReadContext& ctx, SDFG& out) {
  DACE_TRY(a.string_list("arg_names", out.arg_names));
  if (const Json* syms = a.raw("symbols"); syms && !syms->is_null()) {
    if (!syms->is_object()) return a.error("symbols", "expected object");
    for (const auto& [name, type] : syms->items()) {
      auto t = parse_dtype_json(type, a.path() + " / symbol " + ir::quoted(name), "dtype");
      if (!t) return t.take_error();
      out.symbols[name] = std::move(*t);
    }
  }
  if (const Json* arrays = a.raw("_arrays"); arrays && !arrays->is_null()) {
    if (!arrays->is_object()) return a.error("_arrays", "expected object");
    for (const auto& [name, desc] : arrays->items()) {
      auto d = read_descriptor(desc, ctx, a.path() + " / data " + ir::quoted(name));
      if (!d) return d.take_error();
      out.arrays[name] = std::move(*d);
    }
  }
  if (const Json* consts = a.raw("constants_prop"); consts && !consts->is_null()) {
    if (!consts->is_object()) return a.error("constants_prop", "expected object");
    bool all_scalar = true;
    for (const auto& [name, entry] : consts->items()) {
      std::string cpath = a.path() + " / constant " + ir::quoted(name);
      if (!entry.is_array() || entry.size() != 2) return parse_error(cpath, "constants_prop", "expected [descriptor, value]");
      Constant c;
      c.value_json = compact(entry[1]);
      if (entry[0].is_object() && entry[0].contains("attributes")) {
        auto d = read_descriptor(entry[0], ctx, cpath);
        if (!d) return d.take_error();
        c.dtype = d->dtype;
        all_scalar = all_scalar && d->kind == DataKind::Scalar;
      } else {
        auto t = parse_dtype_json(entry[0], cpath, "constants_prop");
        if (!t) return t.take_error();
        c.dtype = std::move(*t);
        all_scalar = false;
      }
      out.constants[name] = std::move(c);
    }
    // Array constants need their descriptors, which Constant does not hold: keep them verbatim.
    if (!all_scalar) out.extra["constants_prop"] = compact(*consts);
  }
  DACE_TRY(read_code_dict(a, "global_code", out.global_code));
  DACE_TRY(read_code_dict(a, "init_code", out.init_code));
  DACE_TRY(read_code_dict(a, "exit_code", out.exit_code));
  DACE_TRY(a.debuginfo("debuginfo", out.debuginfo, ctx));
  DACE_TRY(a.str("guid", out.guid));
  DACE_TRY(a.boolean("using_explicit_control_flow", out.using_explicit_control_flow));
  DACE_TRY(a.boolean("using_experimental_blocks", out.using_explicit_control_flow));
  a.skip("hash");  // stale as soon as anything changes; DaCe recomputes it
  return {};
}

}  // namespace

Status read_sdfg_json(const Json& j, ReadContext& ctx, const std::string& parent_path, SDFG& out) {
  std::string ppath = parent_path.empty() ? std::string("sdfg") : parent_path + " / sdfg";
  if (!j.is_object()) return parse_error(ppath, "", "expected an SDFG object");
  auto type = j.find("type");
  if (type == j.end() || !type->is_string() || type->get_ref<const std::string&>() != "SDFG")
    return parse_error(ppath, "type", "expected \"SDFG\"");
  auto attrs = j.find("attributes");
  if (attrs == j.end() || !attrs->is_object()) return parse_error(ppath, "attributes", "missing");
  auto name = attrs->find("name");
  if (name == attrs->end() || !name->is_string()) return parse_error(ppath, "name", "missing SDFG name (string)");
  out.name = name->get<std::string>();
  std::string path = (parent_path.empty() ? std::string() : parent_path + " / ") + "sdfg " + ir::quoted(out.name);
  // The SDFG's nesting level is counted by read_region_graph (an SDFG is its top-level region):
  // counting both would halve the documented bound for nested SDFGs.

  if (parent_path.empty()) {
    if (auto v = j.find("dace_version"); v != j.end() && v->is_string()) out.dace_version = v->get<std::string>();
    ctx.dialect = Dialect::parse(out.dace_version);
    if (auto sf = j.find("source_files"); sf != j.end() && sf->is_array()) {
      for (const auto& f : *sf) ctx.source_files.push_back(f.is_string() ? f.get<std::string>() : std::string());
    }
  }

  Attrs a(&*attrs, path);
  a.skip("name");
  DACE_TRY(read_sdfg_attributes(a, ctx, out));
  a.collect_extras(out.extra);
  DACE_TRY(read_region_graph(j, ctx, path, out));
  // Block ids are SDFG-wide, in pre-order of the region tree.
  out.for_each_block([&](ControlFlowBlock& b) { out.register_block(b); });
  relink_parents(out);
  return {};
}

}  // namespace dace::ir::json::detail
