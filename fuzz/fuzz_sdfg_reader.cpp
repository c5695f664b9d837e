// The .sdfg/JSON reader: any bytes give an SDFG or an error, never a crash; a read SDFG is
// validated, and its canonical text reads back to an SDFG that writes the same text (the
// writer is deterministic and the reader accepts everything the writer produces). The
// reader's shortcuts do not change the outcome: read_sdfg with the JSON fast path on, with it
// off, and the whole-DOM reader (nlohmann alone) give the same error message or SDFGs that
// write the same text (tests/fuzz/json_fast_path_diff.cpp does the same on mutated corpus files).
#include <cstdint>

#include "analysis/validate.h"
#include "fuzz_common.h"
#include "ir/json/json_internal.h"
#include "ir/json/sdfg_json.h"

namespace {

std::string outcome(const dace::Result<std::unique_ptr<dace::ir::SDFG>>& r) {
  if (!r) return std::string("error ") + dace::code_name(r.error().code) + ": " + r.error().message;
  if (!*r) return "null SDFG without an error";
  return dace::ir::json::write_sdfg(**r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dace;
  const std::string_view text = fuzz::as_text(data, size);
  auto sdfg = ir::json::read_sdfg(text);
  const std::string fast = outcome(sdfg);
  ir::json::detail::set_json_fast_path(false);
  const std::string slow = outcome(ir::json::read_sdfg(text));
  ir::json::detail::set_json_fast_path(true);
  if (slow != fast) fuzz::finding("read_sdfg differs with the JSON fast path off:\n" + fast + "\nvs\n" + slow, text);
  const std::string whole = outcome(ir::json::read_sdfg_whole_dom(text));
  if (whole != fast) fuzz::finding("read_sdfg differs from the whole-DOM reader:\n" + fast + "\nvs\n" + whole, text);
  if (!sdfg) return 0;
  (void)analysis::validate(**sdfg);
  const std::string once = ir::json::write_sdfg(**sdfg);
  auto again = ir::json::read_sdfg(once);
  if (!again) fuzz::finding("written SDFG does not read back: " + again.error().message, text);
  if (ir::json::write_sdfg(**again) != once) fuzz::finding("write(read(write(x))) != write(x)", text);
  return 0;
}
