// Handing back the pages of input text the reader has passed (docs/sdfg-json.md "Reading
// large files"). A memory-mapped file's pages count in the process's resident set as they are
// read; releasing those the reader is done with keeps the peak near the IR instead of the IR
// plus the whole file. Text in ordinary memory has no releaser and nothing happens.
#pragma once
#include <cstddef>
#include <functional>

namespace dace::ir::json {

// Called with byte ranges of the text that the reader will not need again soon; the callee
// drops whatever whole pages lie inside. Reading such a range again must still work (a mapped
// file's pages fault back in from the page cache): the reader may, on its slower paths.
using TextReleaseFn = std::function<void(size_t begin, size_t end)>;

// Releases in steps while a pass moves forward through the text, so that the cost of a
// release (a system call) is paid once per step, not per value.
class TextRelease {
 public:
  static constexpr size_t kStep = size_t{4} << 20;

  TextRelease() = default;
  explicit TextRelease(const TextReleaseFn* fn) : fn_(fn && *fn ? fn : nullptr) {}

  bool active() const { return fn_ != nullptr; }
  // A pass starts (or restarts) at `pos`: nothing before it is released by `passed`.
  void start(size_t pos) { done_ = pos; }
  // The pass has read everything before `pos`.
  void passed(size_t pos) {
    if (fn_ && pos >= done_ + kStep) {
      (*fn_)(done_, pos);
      done_ = pos;
    }
  }
  // Everything from the last release up to `end` (the end of the pass or of a list).
  void finish(size_t end) {
    if (fn_ && end > done_) (*fn_)(done_, end);
    done_ = end;
  }

 private:
  const TextReleaseFn* fn_ = nullptr;
  size_t done_ = 0;
};

}  // namespace dace::ir::json
