#pragma once
#include <string>
#include <vector>

namespace dace::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitError = 2;

int cmd_validate(const std::vector<std::string>& args);
int cmd_info(const std::vector<std::string>& args);
int cmd_convert(const std::vector<std::string>& args);
int cmd_hash(const std::vector<std::string>& args);
int cmd_version(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_compile(const std::vector<std::string>& args);
int cmd_optimize(const std::vector<std::string>& args);
int cmd_render(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);

}  // namespace dace::cli
