#include "ir/instrument.h"

#include <array>

#include "ir/path.h"

namespace dace::ir {
namespace {

constexpr const char* kKey = "instrument";
constexpr const char* kNone = "No_Instrumentation";
constexpr const char* kTimer = "Timer";

// dace.dtypes.InstrumentationType of DaCe 1.0.2, in its order.
constexpr std::array<const char*, 7> kDaceTypes{
    "No_Instrumentation", "Timer", "PAPI_Counters", "LIKWID_CPU", "LIKWID_GPU", "GPU_Events", "FPGA"};

bool is_dace_type(std::string_view v) {
  for (const char* t : kDaceTypes)
    if (v == t) return true;
  return false;
}

// The stored JSON text is a string literal of an enum name; anything else is not a name.
std::string unquote(const std::string& json_text) {
  if (json_text.size() >= 2 && json_text.front() == '"' && json_text.back() == '"')
    return json_text.substr(1, json_text.size() - 2);
  return json_text;
}

Result<Instrumentation> classify(std::string_view v, const std::string& path) {
  if (v == kNone) return Instrumentation::None;
  if (v == kTimer) return Instrumentation::Timer;
  if (is_dace_type(v))
    return make_error(Code::Unsupported, path + ": instrument " + quoted(v) +
                                             " is not implemented by libdace (Timer and No_Instrumentation are)");
  return make_error(Code::InvalidArgument, path + ": instrument " + quoted(v) +
                                               " is not an instrumentation type (No_Instrumentation, Timer, "
                                               "PAPI_Counters, LIKWID_CPU, LIKWID_GPU, GPU_Events, FPGA)");
}

void store(ExtraProperties& props, Instrumentation value) {
  if (value == Instrumentation::None) props.erase(kKey);
  else props[kKey] = std::string("\"") + kTimer + "\"";
}

}  // namespace

bool can_be_instrumented(const Node& node) {
  switch (node.kind) {
    case NodeKind::MapEntry:
    case NodeKind::ConsumeEntry:
    case NodeKind::Tasklet:
    case NodeKind::NestedSDFG:
    case NodeKind::Library: return true;
    default: return false;
  }
}

const ExtraProperties& instrument_properties(const Node& node) {
  return node.kind == NodeKind::Library ? static_cast<const LibraryNode&>(node).properties : node.extra;
}

std::string instrument_name(const ExtraProperties& props) {
  auto it = props.find(kKey);
  return it == props.end() ? kNone : unquote(it->second);
}

Result<Instrumentation> instrumentation_of(const ExtraProperties& props, const std::string& path) {
  auto it = props.find(kKey);
  if (it == props.end()) return Instrumentation::None;
  return classify(unquote(it->second), path);
}

Result<Instrumentation> instrumentation_of(const SDFG& sdfg, const State& state, int node_id) {
  const Node* n = state.node(node_id);
  if (!n) return make_error(Code::NotFound, path_of_node(sdfg, state, node_id) + ": no such node");
  const ExtraProperties& props = instrument_properties(*n);
  if (!props.count(kKey)) return Instrumentation::None;
  if (!can_be_instrumented(*n)) {
    // DaCe's access nodes carry data instrumentation (Save/Restore); exits mirror their entry.
    std::string v = instrument_name(props);
    if (n->kind == NodeKind::Access && v != kNone)
      return make_error(Code::Unsupported, path_of_node(sdfg, state, node_id) + ": data instrumentation " +
                                               quoted(v) + " is not implemented by libdace");
    return Instrumentation::None;
  }
  return instrumentation_of(props, path_of_node(sdfg, state, node_id));
}

Status set_instrument(ExtraProperties& props, std::string_view value, const std::string& path) {
  Result<Instrumentation> v = classify(value, path);
  if (!v) return v.take_error();
  store(props, *v);
  return Status::success();
}

Status set_node_instrument(SDFG& sdfg, State& state, int node_id, std::string_view value) {
  Node* n = state.node(node_id);
  const std::string path = path_of_node(sdfg, state, node_id);
  if (!n) return make_error(Code::NotFound, path + ": no such node");
  if (!can_be_instrumented(*n))
    return make_error(Code::InvalidArgument,
                      path + ": a " + to_string(n->kind) +
                          " has no timer (instrument maps and consumes on their entry; tasklets, library "
                          "and nested-SDFG nodes, states and SDFGs directly)");
  Result<Instrumentation> v = classify(value, path);
  if (!v) return v.take_error();
  store(n->kind == NodeKind::Library ? static_cast<LibraryNode*>(n)->properties : n->extra, *v);
  if (n->is_scope_entry()) {
    int exit = state.exit_of(node_id);
    if (exit >= 0) store(state.node(exit)->extra, *v);
  }
  state.touch();  // written through node pointers (SDFG::last_change)
  return Status::success();
}

Result<InstrumentSelection> parse_instrument_selection(std::string_view text) {
  InstrumentSelection s;
  if (text == "all") return InstrumentSelection{true, true, true, true};
  if (text == "none") {
    s.none = true;
    return s;
  }
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view word = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (word == "program") s.program = true;
    else if (word == "states") s.states = true;
    else if (word == "maps") s.maps = true;
    else if (word == "nodes") s.nodes = true;
    else
      return make_error(Code::InvalidArgument, "instrument selection " + quoted(text) + ": " + quoted(word) +
                                                   " is not one of program, states, maps, nodes, all, none");
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return s;
}

namespace {

int apply_to(SDFG& sdfg, const InstrumentSelection& sel, bool clear, bool root) {
  int count = 0;
  const Instrumentation on = clear ? Instrumentation::None : Instrumentation::Timer;
  if (clear || (root && sel.program)) {
    store(sdfg.extra, on);
    count += clear ? 0 : 1;
  }
  for (State* state : sdfg.all_states()) {
    if (clear || sel.states) {
      store(state->extra, on);
      count += clear ? 0 : 1;
    }
    const std::vector<int>& scope_parent = state->scope_parents();
    for (int id : state->node_ids()) {
      Node* n = state->node(id);
      // Nodes inside a map run once per iteration: a timer there would cost more than the
      // node and overlap its map's, so selections take only the outermost maps and the
      // nodes (and nested SDFGs' elements) at the top level of a state.
      const bool top_level = static_cast<size_t>(id) < scope_parent.size() && scope_parent[static_cast<size_t>(id)] < 0;
      if (n->kind == NodeKind::NestedSDFG && (clear || top_level)) {
        auto* nested = static_cast<NestedSDFGNode*>(n);
        if (nested->sdfg) count += apply_to(*nested->sdfg, sel, clear, false);
      }
      bool scope = n->kind == NodeKind::MapEntry || n->kind == NodeKind::ConsumeEntry || n->is_scope_exit();
      bool code = n->kind == NodeKind::Tasklet || n->kind == NodeKind::Library || n->kind == NodeKind::NestedSDFG;
      if (clear ? (scope || code) : ((scope && sel.maps && top_level) || (code && sel.nodes && top_level))) {
        store(n->kind == NodeKind::Library ? static_cast<LibraryNode*>(n)->properties : n->extra, on);
        if (!clear && !n->is_scope_exit()) ++count;
      }
    }
  }
  sdfg.touch();  // written through element pointers (SDFG::last_change)
  return count;
}

}  // namespace

int apply_instrument_selection(SDFG& sdfg, const InstrumentSelection& selection) {
  return apply_to(sdfg, selection, selection.none, true);
}

}  // namespace dace::ir
