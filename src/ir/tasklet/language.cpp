#include "ir/tasklet/language.h"

#include <string>

namespace dace::tasklet {

bool is_supported_language(std::string_view language) { return language == "Python"; }

Error unsupported_language_error(std::string_view language, std::string_view element) {
  std::string msg;
  if (!element.empty()) msg = std::string(element) + ": ";
  msg += "tasklet language '" + std::string(language) +
         "' cannot be compiled (only Python tasklets are; a plugin may recognize or re-expand "
         "this tasklet)";
  return make_error(Code::Unsupported, std::move(msg));
}

}  // namespace dace::tasklet
