// validate, convert, hash, version.
#include <cstdio>

#include "analysis/validate.h"
#include "commands.h"
#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "libdace.h"
#include "load.h"

namespace dace::cli {

int cmd_validate(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fputs("usage: dace validate FILE\n", stderr);
    return kExitError;
  }
  auto sdfg = load_or_report(args[0]);
  if (!sdfg) return kExitError;
  auto errors = analysis::validate_all(*sdfg);
  if (errors.empty()) {
    std::printf("%s: valid\n", args[0].c_str());
    return kExitOk;
  }
  for (const auto& e : errors) std::fprintf(stderr, "%s: invalid: %s\n", args[0].c_str(), e.message.c_str());
  return kExitFailed;
}

int cmd_convert(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  ir::json::WriteOptions options;
  for (const auto& a : args) {
    if (a == "--compact") options.pretty = false;
    else if (a.starts_with("--")) {
      std::fprintf(stderr, "dace convert: unknown option '%s'\n", a.c_str());
      return kExitError;
    } else files.push_back(a);
  }
  if (files.size() != 2) {
    std::fputs("usage: dace convert IN OUT [--compact]\n", stderr);
    return kExitError;
  }
  auto sdfg = load_or_report(files[0]);
  if (!sdfg) return kExitError;
  auto status = ir::json::write_sdfg_file(*sdfg, files[1], options);
  if (!status.ok()) {
    std::fprintf(stderr, "dace: %s: %s\n", files[1].c_str(), status.error().message.c_str());
    return kExitError;
  }
  return kExitOk;
}

int cmd_hash(const std::vector<std::string>& args) {
  if (args.size() != 1) {
    std::fputs("usage: dace hash FILE\n", stderr);
    return kExitError;
  }
  auto sdfg = load_or_report(args[0]);
  if (!sdfg) return kExitError;
  std::printf("%s\n", ir::content_hash(*sdfg).c_str());
  return kExitOk;
}

int cmd_version(const std::vector<std::string>&) {
  std::printf("libdace %s\n", dace_version());
  return kExitOk;
}

}  // namespace dace::cli
