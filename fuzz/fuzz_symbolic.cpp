// The symbolic-expression parser: any text gives an expression or a parse error; a parsed
// expression prints to text that parses back to the same expression (expr.h's promise), and
// simplification, bounds and evaluation of it do not crash.
#include <cstdint>

#include "fuzz_common.h"
#include "ir/symbolic/expr.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dace;
  if (size > 4096) return 0;
  const std::string_view text = fuzz::as_text(data, size);
  auto e = sym::parse(text);
  if (!e) return 0;
  const std::string printed = sym::to_string(*e);
  auto back = sym::parse(printed);
  if (!back) fuzz::finding("printed expression does not parse: '" + printed + "': " + back.error().message, text);
  if (sym::compare(*back, *e) != 0) fuzz::finding("parse(to_string(e)) != e for '" + printed + "'", text);
  (void)sym::simplify(*e);
  (void)sym::bounds(*e);
  std::map<std::string, int64_t> values;
  for (const std::string& s : sym::free_symbols(*e)) values[s] = 3;
  (void)sym::evaluate(*e, values);
  return 0;
}
