// The tasklet-language parser: any text gives a program or a parse error; a parsed program
// prints (printer.h) to source that parses back and prints the same.
#include <cstdint>

#include "fuzz_common.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dace;
  if (size > 8192) return 0;
  const std::string_view text = fuzz::as_text(data, size);
  (void)tasklet::parse_expression(text);
  (void)tasklet::parse_assignment(text);
  auto program = tasklet::parse_code(text);
  if (!program) return 0;
  const std::string printed = tasklet::to_source(*program);
  auto back = tasklet::parse_code(printed);
  if (!back) fuzz::finding("printed tasklet does not parse:\n" + printed + "\n" + back.error().message, text);
  if (tasklet::to_source(*back) != printed) fuzz::finding("print(parse(print(p))) != print(p):\n" + printed, text);
  return 0;
}
