// The .sdfg/JSON reader: any bytes give an SDFG or an error, never a crash; a read SDFG is
// validated, and its canonical text reads back to an SDFG that writes the same text (the
// writer is deterministic and the reader accepts everything the writer produces).
#include <cstdint>

#include "analysis/validate.h"
#include "fuzz_common.h"
#include "ir/json/sdfg_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dace;
  const std::string_view text = fuzz::as_text(data, size);
  auto sdfg = ir::json::read_sdfg(text);
  if (!sdfg) return 0;
  (void)analysis::validate(**sdfg);
  const std::string once = ir::json::write_sdfg(**sdfg);
  auto again = ir::json::read_sdfg(once);
  if (!again) fuzz::finding("written SDFG does not read back: " + again.error().message, text);
  if (ir::json::write_sdfg(**again) != once) fuzz::finding("write(read(write(x))) != write(x)", text);
  return 0;
}
