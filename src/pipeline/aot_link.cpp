#include "pipeline/aot_link.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace dace::pipeline {
namespace fs = std::filesystem;

namespace {

// Runs `argv` with stdout and stderr into `log`; returns the exit status (-1: not started).
int run_quietly(const std::vector<std::string>& argv, const std::string& log, std::string& why) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    why = std::strerror(rc);
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      why = std::strerror(errno);
      return -1;
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  why = "killed by signal " + std::to_string(WTERMSIG(status));
  return 128;
}

}  // namespace

Result<std::string> runtime_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&runtime_library_dir), &info) == 0 || info.dli_fname == nullptr ||
      *info.dli_fname == '\0')
    return make_error(Code::NotFound, "cannot locate libdace.so (dladdr), so not libdace_rt.so either");
  std::error_code ec;
  fs::path dir = fs::absolute(info.dli_fname, ec).parent_path();
  if (ec) return make_error(Code::NotFound, std::string("cannot locate libdace.so: ") + ec.message());
  if (!fs::exists(dir / "libdace_rt.so", ec))
    return make_error(Code::NotFound, "the CPU runtime library libdace_rt.so is not in " + dir.string() +
                                          " (next to libdace.so); it is built and installed with libdace");
  return dir.lexically_normal().string();
}

Status link_shared_library(const LinkRequest& r) {
  const char* env = std::getenv("DACE_AOT_CC");
  std::string driver = env && *env ? env : "cc";
  std::vector<std::string> argv = {driver, "-shared", "-o", r.output, r.object, "-Wl,-soname," + r.soname,
                                   "-Wl,-z,noexecstack", "-Wl,--no-undefined",
                                   // libdace_rt always a DT_NEEDED entry (drivers such as
                                   // Debian's gcc pass --as-needed by default), the rest as needed.
                                   "-L" + r.runtime_dir, "-Wl,-rpath," + r.runtime_dir, "-Wl,--no-as-needed",
                                   "-ldace_rt"};
  for (const std::string& runtime : r.runtimes) argv.push_back("-l" + runtime);
  argv.push_back("-Wl,--as-needed");
  for (const std::string& lib : r.libraries) argv.push_back("-l:" + lib);
  argv.push_back("-lmvec");
  argv.push_back("-lm");
  const std::string log = r.output + ".log";
  std::string why;
  int rc = run_quietly(argv, log, why);
  std::string output;
  {
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    output = ss.str();
  }
  std::error_code ec;
  fs::remove(log, ec);
  if (rc < 0)
    return make_error(Code::Unsupported, "cannot run the linker driver \"" + driver + "\" (" + why +
                                             "; set DACE_AOT_CC to a C compiler driver)");
  if (rc != 0) {
    std::string cmd;
    for (const std::string& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
    return make_error(Code::CompileError, "linking " + r.soname + " failed (" +
                                              (why.empty() ? "exit status " + std::to_string(rc) : why) +
                                              "): " + cmd + "\n" + output);
  }
  return Status::success();
}

}  // namespace dace::pipeline
