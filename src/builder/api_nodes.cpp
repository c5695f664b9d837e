// Adding and removing dataflow nodes and their connectors.
#include "builder/api_nodes.h"

#include <functional>
#include <nlohmann/json.hpp>

#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "ir/edit.h"
#include "ir/json/json_error.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;
namespace sym = dace::sym;

namespace dace::capi {

Status apply_map_options(MapScope& map, const dace_map_options_t* caller_options, const std::string& where) {
  if (!caller_options) return Status::success();
  // Only the caller's version's bytes are read; `options` points at that copy.
  auto read = read_options(caller_options);
  if (!read) return read.take_error();
  const dace_map_options_t* options = &*read;
  auto schedule = to_schedule(options->schedule, where);
  if (!schedule) return schedule.take_error();
  auto omp = to_omp_schedule(options->omp_schedule, where);
  if (!omp) return omp.take_error();
  if (options->collapse < 1) return invalid(where + ": collapse must be >= 1");
  if (options->omp_num_threads < 0) return invalid(where + ": omp_num_threads must be >= 0");
  if (options->omp_chunk_size < 0) return invalid(where + ": omp_chunk_size must be >= 0");
  std::vector<sym::Expr> block;
  if (options->gpu_block_size && *options->gpu_block_size) {
    auto b = parse_expr_list(options->gpu_block_size, where, "gpu_block_size");
    if (!b) return b.take_error();
    block = std::move(*b);
  }
  map.schedule = *schedule;
  map.omp_schedule = *omp;
  map.collapse = options->collapse;
  map.omp_num_threads = options->omp_num_threads;
  map.omp_chunk_size = options->omp_chunk_size;
  map.unroll = options->unroll != 0;
  map.gpu_block_size = std::move(block);
  return Status::success();
}

void insert_map(State& state, const std::string& label, MapRanges ranges, const MapScope& props,
                dace_id_t* out_entry, dace_id_t* out_exit) {
  MapScope map = props;
  map.params = std::move(ranges.params);
  map.range = std::move(ranges.range);
  const auto [e, x] = dace::ir::add_map(state, label, std::move(map));
  if (out_entry) *out_entry = e;
  if (out_exit) *out_exit = x;
}

}  // namespace dace::capi

namespace {

struct Target {
  SDFG* sdfg;
  State* state;
};

dace::Result<Target> target_state(dace_sdfg_t* h, dace_id_t state) {
  auto s = sdfg_of(h);
  if (!s) return s.take_error();
  auto st = find_state(**s, state);
  if (!st) return st.take_error();
  return Target{*s, *st};
}

std::string or_default(const char* s, const char* fallback) { return s && *s ? std::string(s) : std::string(fallback); }

Status add_map_common(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg, dace_id_t state,
                      const char* label, const dace_map_options_t* options,
                      const std::function<dace::Result<MapRanges>(const std::string&)>& ranges) {
  DACE_TRY(require(out_entry, "out_entry"));
  auto t = target_state(sdfg, state);
  if (!t) return t.take_error();
  std::string name = or_default(label, "map");
  std::string where = new_node_path(*t->sdfg, *t->state, NodeKind::MapEntry, name);
  DACE_TRY(check_identifier(name.c_str(), where, "map label"));
  auto r = ranges(where);
  if (!r) return r.take_error();
  MapScope props;
  DACE_TRY(apply_map_options(props, options, where));
  insert_map(*t->state, name, std::move(*r), props, out_entry, out_exit);
  return Status::success();
}

dace::Result<ExtraProperties> parse_properties(const char* json, const std::string& where) {
  ExtraProperties out;
  if (!json || !*json) return out;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json);
  } catch (const nlohmann::json::parse_error& e) {
    int column = static_cast<int>(e.byte);
    return dace::make_error(dace::Code::ParseError,
                            where + ": cannot parse properties JSON at column " + std::to_string(column) + ": " +
                                dace::ir::json::json_error_reason(e),
                            1, column);
  }
  if (!j.is_object()) return invalid(where + ": properties must be a JSON object");
  for (const auto& [key, value] : j.items()) out[key] = value.dump();
  return out;
}

}  // namespace

extern "C" {

dace_status_t dace_state_add_access(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state, const char* data) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_node, "out_node"));
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    DACE_TRY(require(data, "data"));
    if (!t->sdfg->arrays.count(data))
      return not_found(new_node_path(*t->sdfg, *t->state, NodeKind::Access, data) + ": no data container " +
                       dace::ir::quoted(data) + " in " + path_of(*t->sdfg));
    auto n = std::make_unique<AccessNode>();
    n->label = data;
    n->data = data;
    *out_node = t->state->add_node(std::move(n));
    return Status::success();
  });
}

dace_status_t dace_state_add_tasklet(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state, const char* label,
                                     const char* inputs, const char* outputs, const char* code,
                                     dace_language_t language) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_node, "out_node"));
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    std::string name = or_default(label, "tasklet");
    std::string where = new_node_path(*t->sdfg, *t->state, NodeKind::Tasklet, name);
    DACE_TRY(check_identifier(name.c_str(), where, "tasklet label"));
    auto lang = to_language(language, where);
    if (!lang) return lang.take_error();
    auto in = parse_connectors(inputs ? inputs : "", where, "inputs");
    if (!in) return in.take_error();
    auto out = parse_connectors(outputs ? outputs : "", where, "outputs");
    if (!out) return out.take_error();
    for (const auto& [c, type] : *in)
      if (out->count(c)) return exists(where + " / connector " + dace::ir::quoted(c) + ": both an input and an output");
    DACE_TRY(require(code, "code"));
    DACE_TRY(check_code(code, *lang, where));
    auto n = std::make_unique<Tasklet>();
    n->label = name;
    n->in_connectors = std::move(*in);
    n->out_connectors = std::move(*out);
    n->code = CodeBlock{code, *lang};
    *out_node = t->state->add_node(std::move(n));
    return Status::success();
  });
}

dace_status_t dace_state_add_map(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg, dace_id_t state,
                                 const char* label, const char* ranges, const dace_map_options_t* options) {
  return guard([&]() -> Status {
    return add_map_common(out_entry, out_exit, sdfg, state, label, options,
                          [&](const std::string& where) -> dace::Result<MapRanges> {
                            if (!ranges) return invalid(where + ": ranges is NULL");
                            return parse_map_ranges(ranges, where);
                          });
  });
}

dace_status_t dace_state_add_map_dict(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg, dace_id_t state,
                                      const char* label, const char* const* params, const char* const* ranges,
                                      size_t count, const dace_map_options_t* options) {
  return guard([&]() -> Status {
    return add_map_common(out_entry, out_exit, sdfg, state, label, options,
                          [&](const std::string& where) -> dace::Result<MapRanges> {
                            if (count == 0) return invalid(where + ": a map needs at least one parameter");
                            if (!params || !ranges) return invalid(where + ": params or ranges is NULL");
                            MapRanges out;
                            for (size_t i = 0; i < count; ++i) {
                              DACE_TRY(check_identifier(params[i], where, "map parameter"));
                              for (const auto& p : out.params)
                                if (p == params[i])
                                  return exists(where + ": map parameter " + dace::ir::quoted(p) + " appears twice");
                              if (!ranges[i]) return invalid(where + ": range of " + dace::ir::quoted(params[i]) + " is NULL");
                              auto r = parse_one_range(ranges[i], where, params[i]);
                              if (!r) return r.take_error();
                              out.params.push_back(params[i]);
                              out.range.dims.push_back(*r);
                            }
                            return out;
                          });
  });
}

dace_status_t dace_state_add_consume(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg, dace_id_t state,
                                     const char* label, const char* pe_index, const char* num_pes,
                                     const char* condition, const char* chunksize, dace_schedule_t schedule) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_entry, "out_entry"));
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    std::string name = or_default(label, "consume");
    std::string where = new_node_path(*t->sdfg, *t->state, NodeKind::ConsumeEntry, name);
    DACE_TRY(check_identifier(name.c_str(), where, "consume label"));
    ConsumeScope c;
    DACE_TRY(check_identifier(pe_index, where, "pe_index"));
    c.pe_index = pe_index;
    if (!num_pes) return invalid(where + ": num_pes is NULL");
    auto n = parse_expr(num_pes, trim(num_pes), where, "num_pes");
    if (!n) return n.take_error();
    c.num_pes = *n;
    if (condition && *condition) {
      DACE_TRY(check_condition(condition, where, "condition"));
      c.condition = CodeBlock{std::string(trim(condition).text), Language::Python};
    }
    c.chunksize = sym::integer(1);
    if (chunksize && *chunksize) {
      auto cs = parse_expr(chunksize, trim(chunksize), where, "chunksize");
      if (!cs) return cs.take_error();
      c.chunksize = *cs;
    }
    auto sched = to_schedule(schedule, where);
    if (!sched) return sched.take_error();
    c.schedule = *sched;
    auto entry = std::make_unique<ConsumeEntry>();
    entry->label = name;
    entry->consume = std::move(c);
    auto exit = std::make_unique<ConsumeExit>();
    exit->label = name;
    int e = t->state->add_node(std::move(entry));
    exit->entry = e;
    int x = t->state->add_node(std::move(exit));
    *out_entry = e;
    if (out_exit) *out_exit = x;
    return Status::success();
  });
}

dace_status_t dace_state_add_nested_sdfg(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state,
                                         const dace_sdfg_t* inner, const char* label, const char* inputs,
                                         const char* outputs, const char* symbol_mapping) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_node, "out_node"));
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    auto in_sdfg = sdfg_of(inner);
    if (!in_sdfg) return invalid("inner sdfg handle is NULL");
    const SDFG& nested = **in_sdfg;
    if (&nested == t->sdfg) return invalid(path_of(*t->sdfg) + ": an SDFG cannot be nested in itself");
    std::string name = or_default(label, nested.name.c_str());
    std::string where = new_node_path(*t->sdfg, *t->state, NodeKind::NestedSDFG, name);
    DACE_TRY(check_identifier(name.c_str(), where, "nested SDFG label"));
    auto in = parse_connectors(inputs ? inputs : "", where, "inputs");
    if (!in) return in.take_error();
    auto out = parse_connectors(outputs ? outputs : "", where, "outputs");
    if (!out) return out.take_error();
    for (const auto* conns : {&*in, &*out})
      for (const auto& [c, type] : *conns)
        if (!nested.arrays.count(c))
          return not_found(where + " / connector " + dace::ir::quoted(c) + ": no data container " + dace::ir::quoted(c) + " in " +
                           path_of(nested));
    std::map<std::string, sym::Expr> mapping;
    if (symbol_mapping && *symbol_mapping) {
      auto m = parse_symbol_mapping(symbol_mapping, where);
      if (!m) return m.take_error();
      mapping = std::move(*m);
    } else {
      for (const auto& [sym_name, type] : nested.symbols) mapping.emplace(sym_name, sym::symbol(sym_name));
    }
    auto n = std::make_unique<NestedSDFGNode>();
    n->label = name;
    n->in_connectors = std::move(*in);
    n->out_connectors = std::move(*out);
    n->symbol_mapping = std::move(mapping);
    n->sdfg = nested.clone_sdfg();
    n->sdfg->parent_node = n.get();
    *out_node = t->state->add_node(std::move(n));
    return Status::success();
  });
}

dace_status_t dace_state_add_library_node(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state, const char* name,
                                          const char* classpath, const char* implementation,
                                          const char* properties_json, const char* inputs, const char* outputs) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_node, "out_node"));
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    std::string label = or_default(name, "library_node");
    std::string where = new_node_path(*t->sdfg, *t->state, NodeKind::Library, label);
    if (!classpath || !*classpath) return invalid(where + ": classpath is required");
    auto props = parse_properties(properties_json, where);
    if (!props) return props.take_error();
    auto in = parse_connectors(inputs ? inputs : "", where, "inputs");
    if (!in) return in.take_error();
    auto out = parse_connectors(outputs ? outputs : "", where, "outputs");
    if (!out) return out.take_error();
    auto n = std::make_unique<LibraryNode>();
    n->label = label;
    n->name = label;
    n->classpath = classpath;
    n->implementation = implementation ? implementation : "";
    n->properties = std::move(*props);
    n->in_connectors = std::move(*in);
    n->out_connectors = std::move(*out);
    *out_node = t->state->add_node(std::move(n));
    return Status::success();
  });
}

dace_status_t dace_state_remove_node(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node) {
  return guard([&]() -> Status {
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    auto n = find_node(*t->sdfg, *t->state, node);
    if (!n) return n.take_error();
    t->state->remove_node(node);
    return Status::success();
  });
}

static dace_status_t add_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* name,
                                   const char* dtype, bool output) {
  return guard([&]() -> Status {
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    auto n = find_node(*t->sdfg, *t->state, node);
    if (!n) return n.take_error();
    std::string where = path_of_node(*t->sdfg, *t->state, node);
    DACE_TRY(check_identifier(name, where, "connector name"));
    DType type;
    if (dtype && *dtype) {
      auto parsed = parse_dtype(dtype);
      if (!parsed) return invalid(where + " / connector " + dace::ir::quoted(name) + ": unknown type " + dace::ir::quoted(dtype));
      type = *parsed;
    }
    auto& conns = output ? (*n)->out_connectors : (*n)->in_connectors;
    if (conns.count(name))
      return exists(where + " / connector " + dace::ir::quoted(name) + ": " + (output ? "output" : "input") +
                    " connector exists");
    conns.emplace(name, type);
    return Status::success();
  });
}

dace_status_t dace_node_add_in_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* name,
                                         const char* dtype) {
  return add_connector(sdfg, state, node, name, dtype, false);
}

dace_status_t dace_node_add_out_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* name,
                                          const char* dtype) {
  return add_connector(sdfg, state, node, name, dtype, true);
}

dace_status_t dace_node_remove_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, int32_t is_output,
                                         const char* name) {
  return guard([&]() -> Status {
    auto t = target_state(sdfg, state);
    if (!t) return t.take_error();
    auto n = find_node(*t->sdfg, *t->state, node);
    if (!n) return n.take_error();
    DACE_TRY(require(name, "connector name"));
    std::string where = path_of_node(*t->sdfg, *t->state, node) + " / connector " + dace::ir::quoted(name);
    auto& conns = is_output ? (*n)->out_connectors : (*n)->in_connectors;
    if (!conns.count(name)) return not_found(where + ": no such connector");
    for (int e : is_output ? t->state->out_edges(node) : t->state->in_edges(node)) {
      const DataflowEdge* edge = t->state->edge(e);
      if ((is_output ? edge->src_conn : edge->dst_conn) == name)
        return invalid(where + ": still used by " + path_of_edge(*t->sdfg, *t->state, e));
    }
    conns.erase(name);
    return Status::success();
  });
}

}  // extern "C"
