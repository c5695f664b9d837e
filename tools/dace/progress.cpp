#include "progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dace::cli {

Progress::Progress(bool quiet) {
  const char* term = std::getenv("TERM");
  active_ = !quiet && ::isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
}

Progress::~Progress() { clear(); }

void Progress::note(const std::string& what) {
  if (!active_) return;
  // Carriage return + erase to end of line: the line is rewritten, never scrolled.
  std::fprintf(stderr, "\r\033[K%s", what.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::step(size_t index, size_t total, const std::string& what) {
  note("[" + std::to_string(index) + "/" + std::to_string(total) + "] " + what);
}

void Progress::clear() {
  if (!active_ || !shown_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  shown_ = false;
}

bool take_quiet_flag(std::vector<std::string>& args) {
  auto quiet = [](const std::string& a) { return a == "--quiet" || a == "-q"; };
  bool found = std::any_of(args.begin(), args.end(), quiet);
  args.erase(std::remove_if(args.begin(), args.end(), quiet), args.end());
  return found;
}

}  // namespace dace::cli
