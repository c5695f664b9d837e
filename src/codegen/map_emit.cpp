#include "codegen/map_emit.h"

#include "codegen/addressing.h"
#include "codegen/allocation.h"
#include "codegen/loops.h"
#include "codegen/node_emit.h"
#include "codegen/registry_query.h"
#include "codegen/target_lowering.h"
#include "ir/path.h"
#include "plugin/interfaces.h"
#include "plugin/registry.h"

namespace dace::codegen {

namespace {

using ScheduleLowering = std::shared_ptr<const plugin::ScheduleLowering>;

// The lowering of a map: a sequential loop nest (null) or the plugin that registered its
// schedule. Default maps go to the host's parallel schedule outside parallel code when the
// options allow it; schedules DaCe runs as plain loops on the host stay sequential here.
Result<ScheduleLowering> choose(const StateEmitter& se, int entry, const ir::MapScope& map) {
  const LowerOptions& options = se.f->mc.options;
  switch (map.schedule) {
    case ir::ScheduleType::Default:
      if (!options.parallelize_default_maps || se.f->parallel_context) return ScheduleLowering();
      return host_parallel_schedule(options);
    case ir::ScheduleType::Sequential:
    case ir::ScheduleType::Unrolled:
    case ir::ScheduleType::SVE_Map:
    case ir::ScheduleType::Snitch: return ScheduleLowering();
    default: break;
  }
  const std::string name = ir::to_string(map.schedule);
  if (options.registry)
    if (ScheduleLowering lowering = options.registry->find_schedule(name)) return lowering;
  return make_error(Code::PluginUnavailable,
                    se.where(entry) + ": schedule " + name + " needs a plugin that lowers it, and no loaded plugin does");
}

}  // namespace

bool can_parallelize(const StateEmitter& se) {
  return se.f->mc.options.parallelize_default_maps && !se.f->parallel_context &&
         host_parallel_schedule(se.f->mc.options) != nullptr;
}

Status emit_parallel_loop(StateEmitter& se, llvm::Value* total, const std::string& name,
                          const std::function<Status(llvm::Value*)>& body) {
  ScheduleLowering host = host_parallel_schedule(se.f->mc.options);
  if (!host) return make_error(Code::Internal, se.f->sc.path + " / " + name + ": no parallel schedule (can_parallelize)");
  ParallelLoopContext ctx(se, total, name, body);
  return host->lower_parallel_loop(ctx);
}

Result<RangeValues> range_values(Frame& f, const sym::Range& r) {
  Result<llvm::Value*> start = f.sym(r.start);
  if (!start) return start.take_error();
  Result<llvm::Value*> end = f.sym(r.end);
  if (!end) return end.take_error();
  Result<llvm::Value*> step = f.sym(r.step);
  if (!step) return step.take_error();
  return RangeValues{*start, *end, *step};
}

Result<std::vector<MapDimension>> map_dimensions(Frame& f, const ir::MapScope& map, size_t n, size_t first) {
  if (n > map.range.dims.size())
    return make_error(Code::InvalidSdfg, f.sc.path + ": map has fewer ranges than parameters");
  std::vector<MapDimension> out;
  for (size_t d = first; d < n; ++d) {
    const sym::Range& range = map.range.dims[d];
    if (range.start && range.end && range.step && sym::as_integer(range.step) == std::optional<int64_t>(1)) {
      // Unit step: the length end - start + 1 as one symbolic expression (`N - 2` for
      // `1:N-2`), exact in wrapping i64 like the value-by-value form, in a third of its
      // instructions, and a constant when the range is.
      Result<llvm::Value*> start = f.sym(range.start);
      if (!start) return start.take_error();
      Result<llvm::Value*> length = f.sym(sym::add(sym::sub(range.end, range.start), sym::integer(1)));
      if (!length) return length.take_error();
      out.push_back(MapDimension{*start, f.b.getInt64(1), clamp_count(f.b, *length)});
      continue;
    }
    Result<RangeValues> r = range_values(f, range);
    if (!r) return r.take_error();
    out.push_back(MapDimension{r->start, r->step, trip_count(f.b, r->start, r->end, r->step)});
  }
  return out;
}

Status emit_map_loops(StateEmitter& se, const ir::MapScope& map, size_t first, const std::function<Status()>& inner) {
  if (first >= map.params.size()) return inner();
  Frame& f = *se.f;
  if (first >= map.range.dims.size())
    return make_error(Code::InvalidSdfg, f.sc.path + ": map has fewer ranges than parameters");
  const sym::Range& range = map.range.dims[first];
  const std::string& p = map.params[first];
  CountedLoop loop;
  llvm::Value* param;
  std::optional<int64_t> cstep = range.start && range.end && range.step ? sym::as_integer(range.step) : std::nullopt;
  if (cstep && *cstep > 0) {
    // Ascending constant step: the parameter itself is the induction variable, up to
    // end + 1 folded into one expression (`N - 1` for an end of `N - 2`).
    Result<llvm::Value*> start = f.sym(range.start);
    if (!start) return start.take_error();
    Result<llvm::Value*> bound = f.sym(sym::add(range.end, sym::integer(1)));
    if (!bound) return bound.take_error();
    loop = begin_loop(f.b, *start, *bound, p, f.b.getInt64(*cstep));
    param = loop.iv;
  } else {
    Result<RangeValues> r = range_values(f, range);
    if (!r) return r.take_error();
    llvm::Value* n = trip_count(f.b, r->start, r->end, r->step);
    loop = begin_loop(f.b, f.b.getInt64(0), n, p + ".k");
    param = f.b.CreateAdd(r->start, f.b.CreateMul(loop.iv, r->step), p);
  }
  f.push_scope();
  f.bind_symbol(p, SymbolBinding{param, ScalarType::Int64, false});
  auto saved = se.scope_symbols;
  se.scope_symbols[p] = ScalarType::Int64;
  Status s = emit_map_loops(se, map, first + 1, inner);
  se.scope_symbols = saved;
  f.pop_scope();
  if (!s.ok()) return s;
  end_loop(f.b, loop);
  return Status::success();
}

Status emit_map_body(StateEmitter& se, int entry) {
  Result<std::vector<llvm::Value*>> locals = se.allocate_scope_locals(entry);
  if (!locals) return locals.take_error();
  DACE_TRY(se.emit_scope(entry));
  se.free_all(*locals);
  return Status::success();
}

std::vector<std::string> begin_block_reuse(StateEmitter& se, int entry) {
  Frame& f = *se.f;
  std::vector<std::string> taken;
  if (is_device_code(f)) return taken;
  auto inside = [&](int scope) {
    for (int s = scope; s >= 0; s = se.parents[static_cast<size_t>(s)])
      if (s == entry) return true;
    return false;
  };
  for (const auto& [scope, names] : se.scope_locals) {
    if (scope < 0 || !inside(scope)) continue;
    for (const std::string& name : names) {
      auto d = se.sdfg.arrays.find(name);
      if (d == se.sdfg.arrays.end() || !scope_local_on_heap(f, d->second)) continue;
      Frame::ReusedBlock& r = f.reused_blocks[name];
      if (r.active) continue;
      if (!r.ptr) {
        // Null in the entry block; end_block_reuse sets it back to null after its free, so
        // the slot is null wherever no block is held.
        r.ptr = f.entry_alloca(f.b.getPtrTy(), name + ".reused");
        r.bytes = f.entry_alloca(f.b.getInt64Ty(), name + ".reused.bytes");
        llvm::IRBuilder<> eb(f.entry_block()->getTerminator());
        eb.CreateStore(llvm::ConstantPointerNull::get(f.b.getPtrTy()), r.ptr);
        eb.CreateStore(eb.getInt64(0), r.bytes);
      }
      r.active = true;
      taken.push_back(name);
    }
  }
  return taken;
}

void end_block_reuse(StateEmitter& se, const std::vector<std::string>& names) {
  Frame& f = *se.f;
  for (const std::string& name : names) {
    Frame::ReusedBlock& r = f.reused_blocks.at(name);
    heap_free(f.b, f.mc, f.b.CreateLoad(f.b.getPtrTy(), r.ptr));
    f.b.CreateStore(llvm::ConstantPointerNull::get(f.b.getPtrTy()), r.ptr);
    f.b.CreateStore(f.b.getInt64(0), r.bytes);
    r.active = false;
  }
}

Status bind_dynamic_map_inputs(StateEmitter& se, int entry) {
  Frame& f = *se.f;
  for (int e : se.state.in_edges(entry)) {
    const ir::DataflowEdge* edge = se.state.edge(e);
    if (edge->dst_conn.empty() || edge->dst_conn.rfind("IN_", 0) == 0 || edge->memlet.is_empty()) continue;
    Result<DataBinding> d = f.data(edge->memlet.data);
    if (!d) return d.take_error();
    Result<llvm::Value*> p = subset_pointer(f, *d, edge->memlet.subset);
    if (!p) return p.take_error();
    TypedValue v = load_scalar(f.b, *p, d->desc->dtype.scalar, edge->dst_conn.c_str());
    f.bind_symbol(edge->dst_conn, SymbolBinding{v.value, v.type, false});
    se.scope_symbols[edge->dst_conn] = v.type;
  }
  return Status::success();
}

Status emit_map(StateEmitter& se, int entry) {
  const auto& node = static_cast<const ir::MapEntry&>(*se.state.node(entry));
  const ir::MapScope& map = node.map;
  Frame& f = *se.f;
  f.push_scope();
  auto saved = se.scope_symbols;
  // Dynamic map ranges: connectors that are not IN_* carry scalars the ranges use.
  if (Status bound = bind_dynamic_map_inputs(se, entry); !bound.ok()) {
    se.scope_symbols = saved;
    f.pop_scope();
    return bound;
  }
  Result<ScheduleLowering> how = choose(se, entry, map);
  Status s = Status::success();
  if (!how) {
    s = how.take_error();
  } else if (*how) {
    ScopeContext ctx(se, entry, map);
    s = (*how)->lower_scope(ctx);
  } else {
    const std::vector<std::string> reused = begin_block_reuse(se, entry);
    s = emit_map_loops(se, map, 0, [&]() { return emit_map_body(se, entry); });
    if (s.ok()) end_block_reuse(se, reused);
  }
  se.scope_symbols = saved;
  f.pop_scope();
  return s;
}

}  // namespace dace::codegen
