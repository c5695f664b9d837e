// `dace report FILE... [--json]`: a summary of instrumentation reports in DaCe's format (Chrome
// trace events, docs/instrumentation.md): per element (grouped by name and by DaCe's
// cfg_id/state_id/id), the number of timed executions, min/median/mean/max in milliseconds
// and the share of the program's time. Several files (one per call, as `dace run --repeat`
// writes them) are summarized together.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "commands.h"
#include "median.h"

namespace dace::cli {
namespace {

struct Key {
  int cfg_id = -1, state_id = -1, id = -1;
  std::string name;
  bool operator<(const Key& o) const {
    return std::tie(cfg_id, state_id, id, name) < std::tie(o.cfg_id, o.state_id, o.id, o.name);
  }
};

struct Stats {
  size_t count = 0;
  double min = 0, median = 0, mean = 0, max = 0, total = 0;
};

Stats summarize(std::vector<double> v) {
  Stats s;
  s.count = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  for (double x : v) s.total += x;
  s.min = v.front();
  s.max = v.back();
  s.mean = s.total / static_cast<double>(v.size());
  s.median = median_of_sorted(v);
  return s;
}

int arg_or(const nlohmann::json& args, const char* key) {
  auto it = args.find(key);
  return it != args.end() && it->is_number_integer() ? it->get<int>() : -1;
}

// Reads the duration events of one report into `times` (milliseconds). False with a
// message on stderr when the file is not a report.
bool read_report(const std::string& path, std::map<Key, std::vector<double>>& times, std::string& hash,
                 double& span_begin, double& span_end) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "dace report: %s: cannot open\n", path.c_str());
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array()) {
    std::fprintf(stderr, "dace report: %s: not an instrumentation report (no traceEvents list)\n", path.c_str());
    return false;
  }
  if (j.contains("sdfgHash") && j["sdfgHash"].is_string()) hash = j["sdfgHash"].get<std::string>();
  for (const auto& e : j["traceEvents"]) {
    if (!e.is_object() || e.value("ph", "") != "X") continue;
    if (!e.contains("dur") || !e["dur"].is_number() || !e.contains("ts") || !e["ts"].is_number()) continue;
    Key k;
    k.name = e.value("name", "");
    if (e.contains("args") && e["args"].is_object()) {
      const auto& a = e["args"];
      // DaCe's locator: a state only with an SDFG, a node only with a state.
      k.cfg_id = arg_or(a, "cfg_id");
      if (k.cfg_id >= 0) k.state_id = arg_or(a, "state_id");
      if (k.state_id >= 0) k.id = arg_or(a, "id");
    }
    const double ts = e["ts"].get<double>(), dur = e["dur"].get<double>();
    span_begin = std::min(span_begin, ts);
    span_end = std::max(span_end, ts + dur);
    times[k].push_back(dur / 1000.0);
  }
  return true;
}

std::string element_label(const Key& k) {
  std::string where = k.cfg_id < 0 ? "" : "cfg " + std::to_string(k.cfg_id);
  if (k.state_id >= 0) where += ", state " + std::to_string(k.state_id);
  if (k.id >= 0) where += ", node " + std::to_string(k.id);
  int depth = k.id >= 0 ? 2 : k.state_id >= 0 ? 1 : 0;
  return std::string(static_cast<size_t>(2 * depth), ' ') + k.name + (where.empty() ? "" : " (" + where + ")");
}

}  // namespace

int cmd_report(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  bool json = false;
  for (const auto& a : args) {
    if (a == "--json") json = true;
    else if (a.starts_with("-")) {
      std::fprintf(stderr, "dace report: unknown option '%s'\nusage: dace report FILE... [--json]\n", a.c_str());
      return kExitError;
    } else files.push_back(a);
  }
  if (files.empty()) {
    std::fputs("usage: dace report FILE... [--json]\n", stderr);
    return kExitError;
  }
  std::map<Key, std::vector<double>> times;
  std::string hash;
  double span_begin = 1e300, span_end = -1e300;
  for (const auto& f : files)
    if (!read_report(f, times, hash, span_begin, span_end)) return kExitError;

  // The program's time: its root SDFG's timer (cfg 0, no state) when it has one, else the
  // span from the first event's start to the last one's end.
  double program_ms = 0;
  bool from_timer = false;
  for (const auto& [k, v] : times)
    if (k.cfg_id == 0 && k.state_id < 0 && k.name.starts_with("SDFG ")) {
      for (double x : v) program_ms += x;
      from_timer = true;
    }
  if (!from_timer && span_end > span_begin) program_ms = (span_end - span_begin) * static_cast<double>(files.size()) / 1000.0;

  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (!json) {
    std::printf("instrumentation report%s: %s\n", files.size() > 1 ? "s" : "", files.size() == 1 ? files[0].c_str() : (std::to_string(files.size()) + " files").c_str());
    if (!hash.empty()) std::printf("SDFG hash: %s\n", hash.c_str());
    std::printf("program time: %.3f ms (%s)\n", program_ms, from_timer ? "the SDFG's timer" : "span of the events");
    std::printf("%-48s %7s %11s %11s %11s %11s %9s\n", "Element", "Count", "Min (ms)", "Median (ms)", "Mean (ms)",
                "Max (ms)", "% program");
  }
  for (const auto& [k, v] : times) {
    Stats s = summarize(v);
    double share = program_ms > 0 ? 100.0 * s.total / program_ms : 0;
    if (json) {
      nlohmann::ordered_json row;
      row["name"] = k.name;
      row["cfg_id"] = k.cfg_id;
      row["state_id"] = k.state_id;
      row["id"] = k.id;
      row["count"] = s.count;
      row["min_ms"] = s.min;
      row["median_ms"] = s.median;
      row["mean_ms"] = s.mean;
      row["max_ms"] = s.max;
      row["total_ms"] = s.total;
      row["percent_of_program"] = share;
      out.push_back(row);
    } else {
      std::printf("%-48s %7zu %11.3f %11.3f %11.3f %11.3f %9.1f\n", element_label(k).c_str(), s.count, s.min,
                  s.median, s.mean, s.max, share);
    }
  }
  if (json) std::printf("%s\n", out.dump(1).c_str());
  return kExitOk;
}

}  // namespace dace::cli
