// Progress of long CLI work on a terminal: one status line on stderr, rewritten in place
// ("[2/5] MapFusion ...") and cleared at the end. Silent when stderr is not a terminal (logs,
// pipes, CI), when TERM is "dumb", or with --quiet, so scripted output never changes.
#pragma once
#include <string>
#include <vector>

namespace dace::cli {

class Progress {
 public:
  explicit Progress(bool quiet);
  ~Progress();  // clears the line
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool active() const { return active_; }
  // Shows "[index/total] what" (index from 1).
  void step(size_t index, size_t total, const std::string& what);
  // Shows `what` alone (a phase without a count).
  void note(const std::string& what);
  void clear();

 private:
  bool active_ = false;
  bool shown_ = false;
};

// Removes "--quiet"/"-q" from `args`; returns whether it was there.
bool take_quiet_flag(std::vector<std::string>& args);

}  // namespace dace::cli
