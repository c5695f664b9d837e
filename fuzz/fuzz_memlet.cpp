// The subset and memlet parsers: any text gives a subset/memlet or a parse error; a parsed
// one prints to text that parses back to the same.
#include <cstdint>

#include "fuzz_common.h"
#include "ir/memlet.h"
#include "ir/symbolic/expr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dace;
  if (size > 4096) return 0;
  const std::string_view text = fuzz::as_text(data, size);
  if (auto s = sym::parse_subset(text)) {
    const std::string printed = sym::to_string(*s);
    auto back = sym::parse_subset(printed);
    if (!back) fuzz::finding("printed subset does not parse: '" + printed + "': " + back.error().message, text);
    if (sym::to_string(*back) != printed) fuzz::finding("subset round trip changed '" + printed + "'", text);
    (void)sym::size(*s);
  }
  if (auto m = ir::parse_memlet(text)) {
    const std::string printed = ir::to_string(*m);
    auto back = ir::parse_memlet(printed);
    if (!back) fuzz::finding("printed memlet does not parse: '" + printed + "': " + back.error().message, text);
    if (ir::to_string(*back) != printed) fuzz::finding("memlet round trip changed '" + printed + "'", text);
  }
  return 0;
}
