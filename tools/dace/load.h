#pragma once
#include <memory>
#include <string>

#include "ir/sdfg.h"

namespace dace::cli {

// Loads an SDFG file or prints `dace: <path>: <message>` to stderr and returns null.
std::unique_ptr<ir::SDFG> load_or_report(const std::string& path);

}  // namespace dace::cli
