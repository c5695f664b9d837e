// Progress of long CLI work: one status line on stderr ("[2/5] MapFusion ..."), never on
// stdout, so machine-readable output (--json, written files) never changes.
//   - automatic (the default): shown only when stderr is a terminal whose TERM is not "dumb",
//     rewritten in place and cleared at the end; silent in logs, pipes and CI;
//   - --progress: shown even when stderr is not a terminal; there (and on a dumb terminal)
//     each update is a line of its own, without terminal control codes;
//   - --quiet / -q: never (it wins over --progress).
#pragma once
#include <chrono>
#include <string>
#include <vector>

namespace dace::cli {

enum class ProgressMode { Automatic, Always, Never };

class Progress {
 public:
  explicit Progress(bool quiet) : Progress(quiet ? ProgressMode::Never : ProgressMode::Automatic) {}
  explicit Progress(ProgressMode mode);
  ~Progress();  // clears the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool active() const { return active_; }
  // Shows "[index/total] what" (index from 1).
  void step(size_t index, size_t total, const std::string& what);
  // step() for loops of many short iterations (timed repetitions): shows the first, the last,
  // and in between at most one update per 100 ms, so printing never dominates the loop.
  void tick(size_t index, size_t total, const std::string& what);
  // Shows `what` alone (a phase without a count).
  void note(const std::string& what);
  void clear();

 private:
  bool active_ = false;
  bool rewrite_ = false;  // a terminal that understands "\r\033[K"; else one line per update
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_tick_{};
};

// Clears the progress line on the terminal, if one is shown: error reporters call it first so
// that their message starts a line of its own instead of continuing "[1/2] compiling ...".
void clear_progress_line();

// Removes "--quiet"/"-q" from `args`; returns whether it was there.
bool take_quiet_flag(std::vector<std::string>& args);
// Removes "--quiet"/"-q" and "--progress" from `args`; the mode they ask for.
ProgressMode take_progress_flags(std::vector<std::string>& args);

}  // namespace dace::cli
