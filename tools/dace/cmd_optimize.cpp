// `dace optimize IN -o OUT [--simplify] [--auto cpu|gpu] [--apply NAME[:PROPS]]... [--apply-repeated NAME[:PROPS]]...
//  [--replay HIST.json] [--revert K]... [--record HIST.json] [--json]`: runs transformations and
// passes in command-line order (--revert K undoes the last K entries of the SDFG's history,
// loaded ones included), validates the result and writes it. Exit 2 for usage errors, unknown
// names, locations where a transformation does not apply and replay failures; exit 1 when the
// input (or, by a bug, the result) is invalid. On any error OUT is not written.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/validate.h"
#include "commands.h"
#include "ir/json/sdfg_json.h"
#include "load.h"
#include "progress.h"
#include "transform/apply.h"
#include "transform/history.h"
#include "transform/replay.h"
#include "transform/revert.h"
#include "transform/request.h"

namespace dace::cli {
namespace {

using ordered_json = nlohmann::ordered_json;

struct Step {
  enum class Kind { Apply, ApplyRepeated, Replay, Revert } kind;
  std::string arg;  // NAME[:PROPS], a history file, or how many steps to revert
};

int usage() {
  std::fputs(
      "usage: dace optimize IN -o OUT [--simplify] [--auto cpu|gpu] [--apply NAME[:PROPS_JSON]]...\n"
      "                     [--apply-repeated NAME[:PROPS_JSON]]...\n"
      "                     [--replay HIST.json] [--revert K]... [--record HIST.json] [--json] [--quiet|--progress]\n",
      stderr);
  return kExitError;
}

// NAME[:PROPS_JSON] as a history entry (transform/request.h: the parser the C API uses).
Result<transform::HistoryEntry> parse_apply(const std::string& arg, bool* has_location) {
  const size_t colon = arg.find(':');
  const std::string name = arg.substr(0, colon);
  DACE_TRY(transform::require_known(name));
  const std::string_view props = colon == std::string::npos ? std::string_view() : std::string_view(arg).substr(colon + 1);
  return transform::entry_from_request(name, props, has_location);
}

// K of --revert: a non-negative decimal integer.
Result<size_t> parse_steps(const std::string& arg) {
  size_t k = 0;
  if (arg.empty() || arg.size() > 9 || arg.find_first_not_of("0123456789") != std::string::npos)
    return make_error(Code::InvalidArgument, "--revert " + arg + ": expected a number of steps (0, 1, 2, ...)");
  for (char c : arg) k = k * 10 + static_cast<size_t>(c - '0');
  return k;
}

// Replaces `sdfg` by the SDFG with its last K steps undone (transform/revert.h).
Status revert_step(std::unique_ptr<ir::SDFG>& sdfg, const std::string& arg, transform::AnalysisManager& am) {
  Result<size_t> k = parse_steps(arg);
  if (!k.ok()) return k.take_error();
  Result<std::unique_ptr<ir::SDFG>> r = transform::reverted(*sdfg, *k);
  if (!r.ok()) return r.take_error();
  am.clear();  // cached analyses belong to the old object
  sdfg = std::move(*r);
  return Status::success();
}

Status run_step(ir::SDFG& sdfg, const Step& step, transform::AnalysisManager& am) {
  if (step.kind == Step::Kind::Replay) {
    std::ifstream in(step.arg, std::ios::binary);
    if (!in) return make_error(Code::IoError, step.arg + ": cannot read");
    std::stringstream text;
    text << in.rdbuf();
    Result<std::vector<transform::HistoryEntry>> entries = transform::parse_history(text.str());
    if (!entries.ok()) return make_error(entries.error().code, step.arg + ": " + entries.error().message);
    return transform::replay(sdfg, *entries, am);
  }
  bool has_location = false;
  Result<transform::HistoryEntry> e = parse_apply(step.arg, &has_location);
  if (!e.ok()) return e.take_error();
  if (e->kind == transform::HistoryEntry::Kind::Pass || has_location) return transform::apply_entry(sdfg, *e, am);
  Result<std::unique_ptr<transform::Transformation>> configured = transform::configured_transformation(*e);
  if (!configured.ok()) return configured.take_error();
  std::unique_ptr<transform::Transformation>& t = *configured;
  if (step.kind == Step::Kind::ApplyRepeated) {
    Result<int> n = transform::apply_repeated(sdfg, *t, am);
    if (!n.ok()) return n.take_error();
    return Status::success();
  }
  Result<std::optional<transform::Match>> m = transform::apply_first(sdfg, *t, am);
  if (!m.ok()) return m.take_error();
  if (!*m) std::fprintf(stderr, "dace optimize: %s: no match where it applies\n", e->transformation.c_str());
  return Status::success();
}

}  // namespace

int cmd_optimize(const std::vector<std::string>& raw_args) {
  std::vector<std::string> args = raw_args;
  Progress progress(take_progress_flags(args));
  std::string in, out, record;
  std::vector<Step> steps;
  bool json = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "-o" && has_value) out = args[++i];
    else if (a == "--simplify") steps.push_back({Step::Kind::Apply, "simplify"});
    else if (a == "--auto" && has_value) {
      // DaCe's auto_optimize(sdfg, device): the registered "auto_optimize" (CPU) or
      // "auto_optimize_gpu" pipeline.
      const std::string device = args[++i];
      if (device != "cpu" && device != "gpu") {
        std::fprintf(stderr, "dace optimize: --auto: unknown device '%s' (known: cpu, gpu)\n", device.c_str());
        return usage();
      }
      steps.push_back({Step::Kind::Apply, device == "gpu" ? "auto_optimize_gpu" : "auto_optimize"});
    }
    else if (a == "--apply" && has_value) steps.push_back({Step::Kind::Apply, args[++i]});
    else if (a == "--apply-repeated" && has_value) steps.push_back({Step::Kind::ApplyRepeated, args[++i]});
    else if (a == "--replay" && has_value) steps.push_back({Step::Kind::Replay, args[++i]});
    else if (a == "--revert" && has_value) steps.push_back({Step::Kind::Revert, args[++i]});
    else if (a == "--record" && has_value) record = args[++i];
    else if (a == "--json") json = true;
    else if (a.starts_with("-")) {
      std::fprintf(stderr, "dace optimize: unknown option or missing value '%s'\n", a.c_str());
      return usage();
    } else if (in.empty()) in = a;
    else return usage();
  }
  if (in.empty() || out.empty()) return usage();

  auto sdfg = load_or_report(in);
  if (!sdfg) return kExitError;
  if (Status v = analysis::validate(*sdfg); !v.ok()) {
    std::fprintf(stderr, "dace optimize: %s: invalid input: %s\n", in.c_str(), v.error().message.c_str());
    return kExitFailed;
  }
  // Entries already in the input (ours or DaCe's) are not this run's steps; those a --revert
  // undid are not in the result at all.
  size_t history_before = transform::history_of(*sdfg).size();
  const auto start = std::chrono::steady_clock::now();
  transform::AnalysisManager am;
  for (size_t k = 0; k < steps.size(); ++k) {
    const Step& step = steps[k];
    progress.step(k + 1, steps.size(), step.arg);
    Status s = step.kind == Step::Kind::Revert ? revert_step(sdfg, step.arg, am) : run_step(*sdfg, step, am);
    if (s.ok() && step.kind == Step::Kind::Revert)
      history_before = std::min(history_before, transform::history_of(*sdfg).size());
    if (!s.ok()) {
      progress.clear();
      std::fprintf(stderr, "dace optimize: %s: %s\n", code_name(s.error().code), s.error().message.c_str());
      return kExitError;
    }
  }
  progress.clear();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (Status v = analysis::validate(*sdfg); !v.ok()) {
    std::fprintf(stderr, "dace optimize: the result is invalid (a transformation bug): %s\n", v.error().message.c_str());
    return kExitFailed;
  }
  std::vector<transform::HistoryEntry> history = transform::history_of(*sdfg);
  const std::vector<transform::HistoryEntry> applied(history.begin() + static_cast<std::ptrdiff_t>(history_before),
                                                     history.end());

  if (Status w = ir::json::write_sdfg_file(*sdfg, out); !w.ok()) {
    std::fprintf(stderr, "dace: %s: %s\n", out.c_str(), w.error().message.c_str());
    return kExitError;
  }
  if (!record.empty()) {
    std::ofstream f(record, std::ios::binary | std::ios::trunc);
    f << transform::history_json(applied);
    if (!f) {
      std::fprintf(stderr, "dace: %s: cannot write\n", record.c_str());
      return kExitError;
    }
  }
  if (json) {
    ordered_json j = ordered_json::object();
    j["ms"] = ms;
    ordered_json list = ordered_json::array();
    for (const auto& e : applied) list.push_back(ordered_json::parse(transform::to_json(e)));
    j["applied"] = std::move(list);
    std::printf("%s\n", j.dump().c_str());
  }
  return kExitOk;
}

}  // namespace dace::cli
