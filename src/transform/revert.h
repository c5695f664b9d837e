// Reverting the last steps of a history (history.h): the first n - k entries are replayed on
// the SDFG's stored original (DaCe's `orig_sdfg`, stored when the first step was recorded, or
// as DaCe wrote it). Replay is exact, so the result is byte-identical to applying those n - k
// steps to the original input; reverting all n steps gives the original itself. Works on
// loaded files, since the original and the history are saved with the SDFG. Changes made to
// the SDFG outside the history (hand edits after the first step) are not in the result.
#pragma once
#include <cstddef>
#include <memory>

#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::transform {

// The reverted SDFG, a new object; `root` is not touched. Errors: InvalidArgument when `steps`
// exceeds the history's length; NotFound when no original is stored; ParseError when it is
// unreadable; Unsupported for an entry of a type that cannot be replayed; a replay error
// ("history entry N (NAME): ...") when a kept entry no longer applies.
Result<std::unique_ptr<ir::SDFG>> reverted(const ir::SDFG& root, size_t steps);

}  // namespace dace::transform
