// dace_state_add_mapped_tasklet: DaCe's add_mapped_tasklet convenience (map + tasklet +
// edges, optionally access nodes outside the map with memlets covering the iteration space).
#include <set>

#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "builder/api_memlet.h"
#include "builder/api_nodes.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;
namespace sym = dace::sym;

namespace {

struct Binding {
  std::string connector;
  Memlet memlet;
};

// "a: A[i, j]; b: B[i]".
dace::Result<std::vector<Binding>> parse_bindings(const SDFG& sdfg, const char* text, const std::string& where,
                                                  const char* what, const std::string& wcr) {
  std::vector<Binding> out;
  std::string_view t = text ? std::string_view(text) : std::string_view();
  std::set<std::string> seen;
  for (const Piece& p : split_top(t, ';')) {
    size_t colon = p.text.find(':');
    Piece conn = trim(p.text.substr(0, colon == std::string_view::npos ? 0 : colon), p.offset);
    if (colon == std::string_view::npos || !is_identifier(conn.text))
      return dace::make_error(dace::Code::ParseError,
                              where + ": cannot parse " + what + " " + quoted(t) +
                                  ": expected 'connector: memlet' at column " + std::to_string(p.offset + 1),
                              1, static_cast<int>(p.offset) + 1);
    std::string name(conn.text);
    if (!seen.insert(name).second) return exists(where + " / connector " + quoted(name) + ": appears twice in " + what);
    std::string memlet_text(trim(p.text.substr(colon + 1)).text);
    dace_memlet_options_t mo = DACE_MEMLET_OPTIONS_INIT;
    if (!wcr.empty()) mo.wcr = wcr.c_str();
    auto m = build_memlet(sdfg, memlet_text.c_str(), &mo, where + " / connector " + quoted(name));
    if (!m) return m.take_error();
    if (m->is_empty()) return invalid(where + " / connector " + quoted(name) + ": empty memlet");
    out.push_back({name, std::move(*m)});
  }
  return out;
}

// Outer memlet of `data` covering every binding that uses it.
Memlet outer_memlet(const std::string& data, const std::vector<Binding>& bindings, const SDFG& sdfg,
                    const MapRanges& map) {
  Memlet out;
  out.data = data;
  const DataDescriptor& desc = sdfg.arrays.at(data);
  bool first = true;
  for (const Binding& b : bindings) {
    if (b.memlet.data != data) continue;
    sym::Subset s = propagate_over_map(b.memlet.subset, desc, map.params, map.range);
    if (first) {
      out.subset = s;
      out.wcr = b.memlet.wcr;
      first = false;
      continue;
    }
    for (size_t d = 0; d < s.dims.size() && d < out.subset.dims.size(); ++d) {
      out.subset.dims[d].start = sym::min(out.subset.dims[d].start, s.dims[d].start);
      out.subset.dims[d].end = sym::max(out.subset.dims[d].end, s.dims[d].end);
    }
  }
  return out;
}

std::vector<std::string> data_names(const std::vector<Binding>& bindings) {
  std::vector<std::string> out;
  for (const Binding& b : bindings) {
    bool known = false;
    for (const auto& d : out) known = known || d == b.memlet.data;
    if (!known) out.push_back(b.memlet.data);
  }
  return out;
}

}  // namespace

extern "C" {

dace_status_t dace_state_add_mapped_tasklet(dace_id_t* out_tasklet, dace_id_t* out_entry, dace_id_t* out_exit,
                                            dace_sdfg_t* sdfg, dace_id_t state, const char* name,
                                            const char* map_ranges, const char* inputs, const char* code,
                                            const char* outputs, const dace_mapped_tasklet_options_t* options) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = **s;
    auto st = find_state(g, state);
    if (!st) return st.take_error();
    State& S = **st;
    std::string label = name && *name ? name : "tasklet";
    std::string where = path_of(g, S) + " / mapped tasklet " + quoted(label);
    DACE_TRY(check_identifier(label.c_str(), where, "label"));
    auto read = read_options(options);
    if (!read) return read.take_error();
    const dace_mapped_tasklet_options_t o = *read;
    auto schedule = to_schedule(o.schedule, where);
    if (!schedule) return schedule.take_error();
    auto lang = to_language(o.language, where);
    if (!lang) return lang.take_error();
    std::string wcr;
    if (o.output_wcr && *o.output_wcr) {
      auto w = parse_wcr(o.output_wcr, where);
      if (!w) return w.take_error();
      wcr = *w;
    }
    if (!map_ranges) return invalid(where + ": map_ranges is NULL");
    auto ranges = parse_map_ranges(map_ranges, where);
    if (!ranges) return ranges.take_error();
    auto ins = parse_bindings(g, inputs, where, "inputs", "");
    if (!ins) return ins.take_error();
    auto outs = parse_bindings(g, outputs, where, "outputs", wcr);
    if (!outs) return outs.take_error();
    for (const Binding& b : *ins)
      for (const Binding& c : *outs)
        if (b.connector == c.connector)
          return exists(where + " / connector " + quoted(b.connector) + ": both an input and an output");
    DACE_TRY(require(code, "code"));
    DACE_TRY(check_code(code, *lang, where));

    // Everything is checked; build.
    MapScope props;
    props.schedule = *schedule;
    MapRanges map = *ranges;
    dace_id_t entry = -1, exit = -1;
    insert_map(S, label, *ranges, props, &entry, &exit);
    auto t = std::make_unique<Tasklet>();
    t->label = label;
    for (const Binding& b : *ins) t->in_connectors.emplace(b.connector, DType());
    for (const Binding& b : *outs) t->out_connectors.emplace(b.connector, DType());
    t->code = CodeBlock{code, *lang};
    int tasklet = S.add_node(std::move(t));
    Node& en = *S.node(entry);
    Node& ex = *S.node(exit);

    for (const Binding& b : *ins) {
      ensure_connector(en, false, "IN_" + b.memlet.data);
      ensure_connector(en, true, "OUT_" + b.memlet.data);
      S.add_edge({entry, tasklet, "OUT_" + b.memlet.data, b.connector, b.memlet});
    }
    if (ins->empty()) S.add_edge({entry, tasklet, "", "", Memlet()});
    for (const Binding& b : *outs) {
      ensure_connector(ex, false, "IN_" + b.memlet.data);
      ensure_connector(ex, true, "OUT_" + b.memlet.data);
      S.add_edge({tasklet, exit, b.connector, "IN_" + b.memlet.data, b.memlet});
    }
    if (outs->empty()) S.add_edge({tasklet, exit, "", "", Memlet()});

    if (o.external_edges) {
      for (const std::string& d : data_names(*ins)) {
        auto a = std::make_unique<AccessNode>();
        a->label = a->data = d;
        int id = S.add_node(std::move(a));
        Memlet m = outer_memlet(d, *ins, g, map);
        m.wcr.clear();
        S.add_edge({id, entry, "", "IN_" + d, std::move(m)});
      }
      for (const std::string& d : data_names(*outs)) {
        auto a = std::make_unique<AccessNode>();
        a->label = a->data = d;
        int id = S.add_node(std::move(a));
        S.add_edge({exit, id, "OUT_" + d, "", outer_memlet(d, *outs, g, map)});
      }
    }
    if (out_tasklet) *out_tasklet = tasklet;
    if (out_entry) *out_entry = entry;
    if (out_exit) *out_exit = exit;
    return Status::success();
  });
}

}  // extern "C"
