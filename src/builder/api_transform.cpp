// The optimizer through the C API (libdace.h, section "Transformations"): simplify, list,
// match and apply transformations by name with JSON properties, read, replay and revert the
// history.
//
// "A failed call changes nothing": every mutating call first runs on a copy of the SDFG and
// validates the result. When that succeeded, the copy becomes the handle's SDFG — unless the
// host holds borrowed handles of nested SDFGs (dace_node_get_nested_sdfg), which point into
// the SDFG object: then the steps the copy recorded are replayed on the SDFG itself (replay
// is exact: same input, same steps, same bytes — docs/optimizer.md), so those handles stay
// valid wherever the steps keep their nodes.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "builder/api_internal.h"
#include "ir/path.h"
#include "transform/apply.h"
#include "transform/history.h"
#include "transform/registry.h"
#include "transform/replay.h"
#include "transform/revert.h"
#include "transform/request.h"

using namespace dace::capi;
using dace::Code;
using dace::Result;
using dace::Status;
using dace::ir::SDFG;
namespace tf = dace::transform;

namespace {

// The SDFG of a top-level handle, for calls that transform it (the history belongs to the
// root SDFG, and cfg ids count from it).
Result<SDFG*> root_of(dace_sdfg_t* h, const char* function) {
  auto s = sdfg_of(h);
  if (!s) return s.take_error();
  if (!h->owned)
    return invalid(std::string(function) + ": " + dace::ir::path_of(**s) +
                   " is a nested SDFG (borrowed handle); transformations apply to a top-level SDFG (clone it first)");
  return *s;
}

Status require_name(const char* name) {
  DACE_TRY(require(name, "name"));
  return tf::require_known(name);
}

Status require_valid(const SDFG& g, const std::string& name) {
  Status v = dace::analysis::validate(g);
  if (v.ok()) return v;
  dace::Error e = v.take_error();
  e.message = name + ": the SDFG is invalid: " + e.message;
  return e;
}

bool has_borrowed_nested(dace_sdfg_t* h) {
  std::lock_guard<std::mutex> lock(h->nested_mutex);
  return !h->nested.empty();
}

// Runs `op` on a copy of `*h`'s SDFG; when it succeeds and the copy still validates, the
// result replaces the SDFG (see the file comment). Returns what `op` returned.
template <class Op>
Status transactional(dace_sdfg_t* h, SDFG& g, const std::string& what, Op&& op) {
  std::unique_ptr<SDFG> copy = g.clone_sdfg();
  const size_t before = tf::history_of(*copy).size();
  {
    tf::AnalysisManager am;
    DACE_TRY(op(*copy, am));
  }
  if (Status v = dace::analysis::validate(*copy); !v.ok())
    return dace::make_error(Code::Internal, what + ": the result does not validate (a transformation bug; the SDFG " +
                                                "is unchanged): " + v.error().message);
  // The copy kept the original's change stamps, and an operation may have edited it through
  // element pointers only: stamp the SDFG that takes its place (content hashes are
  // remembered by stamp).
  if (!has_borrowed_nested(h)) {
    h->owned = std::move(copy);
    h->sdfg = h->owned.get();
    h->sdfg->touch();
    return Status::success();
  }
  std::vector<tf::HistoryEntry> steps = tf::history_of(*copy);
  steps.erase(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(before));
  if (steps.empty()) return Status::success();
  tf::AnalysisManager am;
  const Status replayed = tf::replay(g, steps, am);
  g.touch();
  if (replayed.ok()) return Status::success();
  // Replay is exact, so this is a bug; the copy holds the right result: take it (borrowed
  // nested handles of this SDFG are then stale, as after removing their nodes).
  h->owned = std::move(copy);
  h->sdfg = h->owned.get();
  h->sdfg->touch();
  return Status::success();
}

}  // namespace

extern "C" {

dace_status_t dace_sdfg_simplify(dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    auto g = root_of(sdfg, "dace_sdfg_simplify");
    if (!g) return g.take_error();
    DACE_TRY(require_valid(**g, "simplify"));
    return transactional(sdfg, **g, "simplify", [](SDFG& s, tf::AnalysisManager& am) -> Status {
      std::unique_ptr<tf::Pass> p = tf::make_pass("simplify");
      Result<bool> changed = tf::run_pass(s, *p, am);
      if (!changed) return changed.take_error();
      return Status::success();
    });
  });
}

dace_status_t dace_sdfg_auto_optimize(dace_sdfg_t* sdfg, dace_device_t device, const char* options_json) {
  return guard([&]() -> Status {
    auto g = root_of(sdfg, "dace_sdfg_auto_optimize");
    if (!g) return g.take_error();
    // The registered pipelines `dace optimize --auto cpu|gpu` runs: "auto_optimize" and
    // "auto_optimize_gpu" (GPUTransformSDFG after the loop and map steps).
    if (device != DACE_DEVICE_CPU && device != DACE_DEVICE_GPU)
      return invalid("auto_optimize: unknown device " + std::to_string(static_cast<long long>(device)) +
                     " (known: DACE_DEVICE_CPU, DACE_DEVICE_GPU)");
    const std::string pipeline = device == DACE_DEVICE_GPU ? "auto_optimize_gpu" : "auto_optimize";
    DACE_TRY(tf::require_no_options(pipeline, str_or_empty(options_json)));
    DACE_TRY(require_valid(**g, pipeline));
    return transactional(sdfg, **g, pipeline, [&pipeline](SDFG& s, tf::AnalysisManager& am) -> Status {
      std::unique_ptr<tf::Pass> p = tf::make_pass(pipeline);
      Result<bool> changed = tf::run_pass(s, *p, am);
      if (!changed) return changed.take_error();
      return Status::success();
    });
  });
}

dace_status_t dace_sdfg_transformation_count(size_t* out_count) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    *out_count = tf::registered_names().size();
    return Status::success();
  });
}

dace_status_t dace_sdfg_transformation_name(const char** out_name, size_t index) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_name, "out_name"));
    const std::vector<std::string> names = tf::registered_names();
    if (index >= names.size())
      return not_found("transformation index " + std::to_string(index) + ": there are " +
                       std::to_string(names.size()) + " transformations");
    *out_name = keep(names[index]);
    return Status::success();
  });
}

dace_status_t dace_sdfg_transformation_is_pass(int32_t* out_is_pass, const char* name) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_is_pass, "out_is_pass"));
    DACE_TRY(require_name(name));
    *out_is_pass = tf::is_pattern_transformation(name) ? 0 : 1;
    return Status::success();
  });
}

dace_status_t dace_sdfg_match_transformation(const char** out_matches_json, dace_sdfg_t* sdfg, const char* name,
                                             const char* props_json) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_matches_json, "out_matches_json"));
    auto g = root_of(sdfg, "dace_sdfg_match_transformation");
    if (!g) return g.take_error();
    DACE_TRY(require_name(name));
    if (!tf::is_pattern_transformation(name))
      return invalid(std::string(name) + ": is a pass, not a pattern transformation; it has no matches");
    bool has_location = false;
    auto e = tf::entry_from_request(name, props_json ? props_json : "", &has_location);
    if (!e) return e.take_error();
    if (has_location) return invalid(std::string(name) + ": properties to match with must not hold a location");
    auto t = tf::configured_transformation(*e);
    if (!t) return t.take_error();
    DACE_TRY(require_valid(**g, name));
    tf::AnalysisManager am;
    std::vector<tf::HistoryEntry> legal;
    const std::string props = (*t)->properties().to_json();
    for (const tf::Match& m : (*t)->enumerate(**g, am))
      if ((*t)->can_be_applied(**g, m, am))
        legal.push_back(tf::HistoryEntry{tf::HistoryEntry::Kind::Pattern, name, m, props});
    *out_matches_json = keep(tf::history_json(legal));
    return Status::success();
  });
}

dace_status_t dace_sdfg_apply_transformation(dace_sdfg_t* sdfg, const char* name, const char* props_json) {
  return guard([&]() -> Status {
    auto g = root_of(sdfg, "dace_sdfg_apply_transformation");
    if (!g) return g.take_error();
    DACE_TRY(require_name(name));
    bool has_location = false;
    auto e = tf::entry_from_request(name, props_json ? props_json : "", &has_location);
    if (!e) return e.take_error();
    if (e->kind == tf::HistoryEntry::Kind::Pattern) {
      auto t = tf::configured_transformation(*e);
      if (!t) return t.take_error();
    }
    DACE_TRY(require_valid(**g, name));
    const tf::HistoryEntry entry = *e;
    return transactional(sdfg, **g, name, [&](SDFG& s, tf::AnalysisManager& am) -> Status {
      if (entry.kind == tf::HistoryEntry::Kind::Pass || has_location) return tf::apply_entry(s, entry, am);
      auto t = tf::configured_transformation(entry);
      if (!t) return t.take_error();
      Result<std::optional<tf::Match>> m = tf::apply_first(s, **t, am);
      if (!m) return m.take_error();
      if (!*m) return not_found(entry.transformation + ": no legal match in " + dace::ir::path_of(s));
      return Status::success();
    });
  });
}

dace_status_t dace_sdfg_apply_transformation_repeated(int32_t* out_applied, dace_sdfg_t* sdfg, const char* name,
                                                      const char* props_json) {
  return guard([&]() -> Status {
    auto g = root_of(sdfg, "dace_sdfg_apply_transformation_repeated");
    if (!g) return g.take_error();
    DACE_TRY(require_name(name));
    if (!tf::is_pattern_transformation(name))
      return invalid(std::string(name) + ": is a pass; apply it with dace_sdfg_apply_transformation");
    bool has_location = false;
    auto e = tf::entry_from_request(name, props_json ? props_json : "", &has_location);
    if (!e) return e.take_error();
    if (has_location)
      return invalid(std::string(name) + ": repeated application takes no location (cfg_id, state_id, _subgraph)");
    auto t = tf::configured_transformation(*e);
    if (!t) return t.take_error();
    DACE_TRY(require_valid(**g, name));
    int applied = 0;
    DACE_TRY(transactional(sdfg, **g, name, [&](SDFG& s, tf::AnalysisManager& am) -> Status {
      Result<int> n = tf::apply_repeated(s, **t, am);
      if (!n) return n.take_error();
      applied = *n;
      return Status::success();
    }));
    if (out_applied) *out_applied = applied;
    return Status::success();
  });
}

dace_status_t dace_sdfg_history_json(const char** out_json, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_json, "out_json"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    *out_json = keep(tf::history_json(tf::history_of(**g)));
    return Status::success();
  });
}

dace_status_t dace_sdfg_replay_history(dace_sdfg_t* sdfg, const char* history_json) {
  return guard([&]() -> Status {
    auto g = root_of(sdfg, "dace_sdfg_replay_history");
    if (!g) return g.take_error();
    DACE_TRY(require(history_json, "history_json"));
    Result<std::vector<tf::HistoryEntry>> entries = tf::parse_history(history_json);
    if (!entries) return entries.take_error();
    for (size_t i = 0; i < entries->size(); ++i) {
      const std::string& n = (*entries)[i].transformation;
      const bool pattern = (*entries)[i].kind == tf::HistoryEntry::Kind::Pattern;
      if (pattern ? !tf::is_pattern_transformation(n) : !tf::make_pass(n))
        return not_found("history entry " + std::to_string(i) + ": unknown " + (pattern ? "transformation" : "pass") +
                         " \"" + n + "\" (known: " + tf::known_names_text() + ")");
    }
    DACE_TRY(require_valid(**g, "replay"));
    return transactional(sdfg, **g, "replay", [&](SDFG& s, tf::AnalysisManager& am) -> Status {
      return tf::replay(s, *entries, am);
    });
  });
}

dace_status_t dace_sdfg_revert_history(dace_sdfg_t* sdfg, size_t steps) {
  return guard([&]() -> Status {
    auto g = root_of(sdfg, "dace_sdfg_revert_history");
    if (!g) return g.take_error();
    if (steps == 0) return Status::success();
    Result<std::unique_ptr<SDFG>> reverted = tf::reverted(**g, steps);
    if (!reverted) return reverted.take_error();
    if (Status v = dace::analysis::validate(**reverted); !v.ok())
      return dace::make_error(Code::InvalidSdfg, "revert: the reverted SDFG does not validate (the SDFG is unchanged): " +
                                                     v.error().message);
    // The SDFG is rebuilt from its original, so borrowed handles of its nested SDFGs point
    // into the old tree: retire them (they answer "stale") before it is freed.
    {
      std::lock_guard<std::mutex> lock(sdfg->nested_mutex);
      for (auto& [inner, handle] : sdfg->nested) {
        handle->sdfg = nullptr;
        sdfg->retired_nested.push_back(std::move(handle));
      }
      sdfg->nested.clear();
    }
    sdfg->owned = std::move(*reverted);
    sdfg->sdfg = sdfg->owned.get();
    sdfg->sdfg->touch();  // rebuilt from the original: its stamps are older than the edits it undoes
    return Status::success();
  });
}

}  // extern "C"
