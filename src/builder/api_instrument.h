// Instrumentation reports of compiled programs (docs/instrumentation.md): after each call of
// a program with timers, the events its code recorded become a report in DaCe's format
// (Chrome trace events: {"traceEvents": [{"ph": "X", ...}], "sdfgHash": ...}), kept for
// dace_program_last_report and written to <dir>/report-<microseconds>.json.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "ir/result.h"
#include "libdace.h"

namespace dace::jit {
class Program;
}

namespace dace::capi {

struct ReportElement {
  std::string name;
  int cfg_id = -1, state_id = -1, id = -1;
};

struct ProgramReports {
  std::string dir;  // empty: keep the report in memory only
  std::string sdfg_hash;
  std::vector<ReportElement> elements;
  bool called = false;
  std::string last_json, last_path;
};

// Null when the program has no instrumented element. The directory comes from the context
// option "instrument_dir", else DACE_INSTRUMENT_DIR, else .dacecache/<sdfg name>/perf.
Result<std::unique_ptr<ProgramReports>> make_program_reports(const jit::Program& program, dace_context_t* context,
                                                             const std::string& sdfg_name,
                                                             const std::string& sdfg_hash);
// Builds the report of the call that just returned and writes it. IoError when the file
// cannot be written (the call itself ran).
Status record_call_report(ProgramReports& reports, const jit::Program& program);

}  // namespace dace::capi
