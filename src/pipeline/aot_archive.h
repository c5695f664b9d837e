// The static archive of an ahead-of-time compiled program (docs/aot.md): `lib<name>.a`
// holding the one object `<name>.o`, with the archive symbol index that linkers need, in
// GNU format and deterministic (no time stamps, owner or mode), so the same object gives
// the same bytes. Written with LLVM's archive writer: no `ar` needed on the machine.
#pragma once
#include <string>

#include "ir/result.h"

namespace dace::pipeline {

// The archive's bytes. `member` is the object's name inside it (`<name>.o`). Internal when
// LLVM cannot read `object` as an object file (its message).
Result<std::string> static_archive(const std::string& object, const std::string& member);

}  // namespace dace::pipeline
