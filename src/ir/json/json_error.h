// nlohmann::json's exception texts without its internal identifiers: "[json.exception.
// parse_error.101] parse error at line 1, column 3: syntax error while parsing value -
// invalid literal; last read: 'x'" becomes "syntax error while parsing value - invalid
// literal; last read: 'x'". Callers say which element and where (line/column) themselves.
#pragma once
#include <exception>
#include <string>

namespace dace::ir::json {

inline std::string json_error_reason(const std::exception& e) {
  std::string what = e.what();
  if (what.rfind("[json.exception.", 0) == 0) {
    size_t close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
  }
  if (what.rfind("parse error", 0) == 0) {
    size_t colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
  }
  return what;
}

}  // namespace dace::ir::json
