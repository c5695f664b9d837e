#include "load.h"

#include <cstdio>

#include "ir/json/sdfg_json.h"
#include "progress.h"

namespace dace::cli {

std::unique_ptr<ir::SDFG> load_or_report(const std::string& path) {
  auto sdfg = ir::json::read_sdfg_file(path);
  if (!sdfg.ok()) {
    clear_progress_line();
    std::fprintf(stderr, "dace: %s: %s: %s\n", path.c_str(), code_name(sdfg.error().code),
                 sdfg.error().message.c_str());
    return nullptr;
  }
  return std::move(sdfg).value();
}

}  // namespace dace::cli
