// DaCe's `instrument` property through the C API, and the per-call reports of instrumented
// programs (api_instrument.h).
#include "builder/api_instrument.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "builder/api_internal.h"
#include "ir/instrument.h"
#include "jit/program.h"

using namespace dace::capi;
using dace::Code;
using dace::Status;

namespace dace::capi {

namespace {

std::string report_dir(dace_context_t* context, const std::string& sdfg_name) {
  {
    std::lock_guard<std::mutex> lock(context->mutex);
    auto it = context->options.find("instrument_dir");
    if (it != context->options.end()) return it->second;
  }
  if (const char* env = std::getenv("DACE_INSTRUMENT_DIR")) return env;
  return (std::filesystem::path(".dacecache") / sdfg_name / "perf").string();
}

// report-<microseconds since the epoch>.json as DaCe names them (its reader takes the number
// as the report's name); a later number when that file exists (two calls in one microsecond).
std::string fresh_report_path(const std::string& dir) {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  long long us = std::chrono::duration_cast<std::chrono::microseconds>(now).count();
  std::error_code ec;
  for (;; ++us) {
    std::filesystem::path p = std::filesystem::path(dir) / ("report-" + std::to_string(us) + ".json");
    if (!std::filesystem::exists(p, ec)) return p.string();
  }
}

// The report's `tid` of each recording thread: 0 for the thread that called the program
// (the one building the report, right after the call), then 1, 2, ... for the runtime's
// helpers in the order of their first event's start. Small dense numbers instead of DaCe's
// hashed std::thread::id: the same tracks from call to call, and readable in Perfetto.
std::map<uint64_t, int> number_threads(const std::vector<codegen::InstrumentEvent>& events) {
  std::map<uint64_t, int> tid;
  tid[static_cast<uint64_t>(pthread_self())] = 0;
  std::vector<const codegen::InstrumentEvent*> by_start;
  for (const auto& ev : events) by_start.push_back(&ev);
  std::stable_sort(by_start.begin(), by_start.end(), [](const auto* a, const auto* b) {
    return a->start_ns != b->start_ns ? a->start_ns < b->start_ns : a->thread < b->thread;
  });
  for (const auto* ev : by_start) tid.emplace(ev->thread, static_cast<int>(tid.size()));
  return tid;
}

}  // namespace

Result<std::unique_ptr<ProgramReports>> make_program_reports(const jit::Program& program, dace_context_t* context,
                                                             const std::string& sdfg_name,
                                                             const std::string& sdfg_hash) {
  const std::string& table = program.instrument_elements();
  if (table.empty()) return std::unique_ptr<ProgramReports>{};
  auto reports = std::make_unique<ProgramReports>();
  nlohmann::json j = nlohmann::json::parse(table);
  for (const auto& e : j) {
    ReportElement el;
    el.name = e.at("name").get<std::string>();
    el.cfg_id = e.at("cfg_id").get<int>();
    el.state_id = e.at("state_id").get<int>();
    el.id = e.at("id").get<int>();
    reports->elements.push_back(std::move(el));
  }
  std::string dir = report_dir(context, sdfg_name);
  reports->dir = dir == "-" ? std::string() : dir;
  reports->sdfg_hash = sdfg_hash;
  return reports;
}

Status record_call_report(ProgramReports& reports, const jit::Program& program) {
  int64_t dropped = 0;
  std::vector<codegen::InstrumentEvent> events = program.last_instrument_events(&dropped);
  nlohmann::ordered_json trace = nlohmann::ordered_json::array();
  const long pid = static_cast<long>(getpid());
  const std::map<uint64_t, int> tids = number_threads(events);
  for (const auto& ev : events) {
    if (ev.element < 0 || static_cast<size_t>(ev.element) >= reports.elements.size()) continue;
    const ReportElement& el = reports.elements[static_cast<size_t>(ev.element)];
    nlohmann::ordered_json e;
    e["name"] = el.name;
    e["cat"] = "Timer";
    e["ph"] = "X";
    // Chrome trace times are microseconds; the steady clock's nanoseconds keep 3 decimals.
    e["ts"] = static_cast<double>(ev.start_ns) / 1000.0;
    e["dur"] = static_cast<double>(ev.end_ns - ev.start_ns) / 1000.0;
    e["pid"] = pid;
    e["tid"] = tids.at(ev.thread);
    nlohmann::ordered_json args = nlohmann::ordered_json::object();
    args["cfg_id"] = el.cfg_id;
    if (el.state_id >= 0) args["state_id"] = el.state_id;
    if (el.state_id >= 0 && el.id >= 0) args["id"] = el.id;
    e["args"] = std::move(args);
    trace.push_back(std::move(e));
  }
  nlohmann::ordered_json report;
  report["traceEvents"] = std::move(trace);
  report["sdfgHash"] = reports.sdfg_hash;
  if (dropped > 0) report["droppedEvents"] = dropped;
  reports.last_json = report.dump(1);
  reports.last_path.clear();
  reports.called = true;
  if (reports.dir.empty()) return Status::success();
  std::error_code ec;
  std::filesystem::create_directories(reports.dir, ec);
  if (ec) return make_error(Code::IoError, "instrumentation report: cannot create \"" + reports.dir + "\": " + ec.message());
  std::string path = fresh_report_path(reports.dir);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return make_error(Code::IoError, "instrumentation report: cannot open \"" + path + "\" for writing");
  bool ok = std::fwrite(reports.last_json.data(), 1, reports.last_json.size(), f) == reports.last_json.size();
  ok = std::fputc('\n', f) != EOF && ok;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return make_error(Code::IoError, "instrumentation report: cannot write \"" + path + "\"");
  reports.last_path = path;
  return Status::success();
}

}  // namespace dace::capi

extern "C" {

dace_status_t dace_sdfg_set_instrument(dace_sdfg_t* sdfg, const char* value) {
  return guard([&]() -> Status {
    DACE_TRY(require(value, "value"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    return dace::ir::set_instrument((*g)->extra, value, dace::ir::path_of(**g));
  });
}

dace_status_t dace_sdfg_get_instrument(const char** out_value, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_value, "out_value"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    *out_value = keep(dace::ir::instrument_name((*g)->extra));
    return Status::success();
  });
}

dace_status_t dace_state_set_instrument(dace_sdfg_t* sdfg, dace_id_t state, const char* value) {
  return guard([&]() -> Status {
    DACE_TRY(require(value, "value"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    auto st = find_state(**g, state);
    if (!st) return st.take_error();
    return dace::ir::set_instrument((*st)->extra, value, dace::ir::path_of(**g, **st));
  });
}

dace_status_t dace_state_get_instrument(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_value, "out_value"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    auto st = find_state(const_cast<dace::ir::SDFG&>(**g), state);
    if (!st) return st.take_error();
    *out_value = keep(dace::ir::instrument_name((*st)->extra));
    return Status::success();
  });
}

dace_status_t dace_node_set_instrument(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* value) {
  return guard([&]() -> Status {
    DACE_TRY(require(value, "value"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    auto st = find_state(**g, state);
    if (!st) return st.take_error();
    auto n = find_node(**g, **st, node);
    if (!n) return n.take_error();
    return dace::ir::set_node_instrument(**g, **st, node, value);
  });
}

dace_status_t dace_node_get_instrument(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state,
                                       dace_id_t node) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_value, "out_value"));
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    auto& mg = const_cast<dace::ir::SDFG&>(**g);
    auto st = find_state(mg, state);
    if (!st) return st.take_error();
    auto n = find_node(mg, **st, node);
    if (!n) return n.take_error();
    *out_value = keep(dace::ir::instrument_name(dace::ir::instrument_properties(**n)));
    return Status::success();
  });
}

dace_status_t dace_sdfg_instrument(int32_t* out_count, dace_sdfg_t* sdfg, const char* selection) {
  return guard([&]() -> Status {
    DACE_TRY(require(selection, "selection"));
    auto sel = dace::ir::parse_instrument_selection(selection);
    if (!sel) return sel.take_error();
    auto g = sdfg_of(sdfg);
    if (!g) return g.take_error();
    int n = dace::ir::apply_instrument_selection(**g, *sel);
    if (out_count) *out_count = n;
    return Status::success();
  });
}

}  // extern "C"
