#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dace::cli {

namespace {
// The Progress whose line is on the terminal now (the CLI is single-threaded).
Progress* g_shown = nullptr;
}  // namespace

void clear_progress_line() {
  if (g_shown) g_shown->clear();
}

Progress::Progress(ProgressMode mode) {
  const char* term = std::getenv("TERM");
  const bool terminal = ::isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
  active_ = mode == ProgressMode::Always || (mode == ProgressMode::Automatic && terminal);
  rewrite_ = active_ && terminal;
}

Progress::~Progress() {
  clear();
  if (g_shown == this) g_shown = nullptr;
}

void Progress::note(const std::string& what) {
  if (!active_) return;
  // Carriage return + erase to end of line: the line is rewritten, never scrolled.
  if (rewrite_) std::fprintf(stderr, "\r\033[K%s", what.c_str());
  else std::fprintf(stderr, "%s\n", what.c_str());
  std::fflush(stderr);
  shown_ = rewrite_;
  if (shown_) g_shown = this;
}

void Progress::step(size_t index, size_t total, const std::string& what) {
  note("[" + std::to_string(index) + "/" + std::to_string(total) + "] " + what);
}

void Progress::tick(size_t index, size_t total, const std::string& what) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (index > 1 && index < total && now - last_tick_ < std::chrono::milliseconds(100)) return;
  last_tick_ = now;
  step(index, total, what);
}

void Progress::clear() {
  if (!active_ || !shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
  if (g_shown == this) g_shown = nullptr;
}

bool take_quiet_flag(std::vector<std::string>& args) {
  auto quiet = [](const std::string& a) { return a == "--quiet" || a == "-q"; };
  bool found = std::any_of(args.begin(), args.end(), quiet);
  args.erase(std::remove_if(args.begin(), args.end(), quiet), args.end());
  return found;
}

ProgressMode take_progress_flags(std::vector<std::string>& args) {
  const bool quiet = take_quiet_flag(args);
  const bool always = std::find(args.begin(), args.end(), "--progress") != args.end();
  args.erase(std::remove(args.begin(), args.end(), "--progress"), args.end());
  if (quiet) return ProgressMode::Never;
  return always ? ProgressMode::Always : ProgressMode::Automatic;
}

}  // namespace dace::cli
