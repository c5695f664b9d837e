// The SDFG optimizer as a step of the compile pipeline: a registered pass or pipeline of
// src/transform (by name, e.g. "simplify") applied to a copy of the SDFG before lowering, so
// every caller (C API, CLI, Python) gets the same optimization from one compile option and
// the caller's SDFG is never changed.
#pragma once
#include <memory>
#include <string>

#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::pipeline {

// What the optimizer step contributes to the program cache key: the step's name (the
// passes' code is covered by libdace's build id, which the key holds too). Empty for none.
std::string optimizer_fingerprint(const std::string& optimizer);

// A validated copy of `g` after running pass `optimizer`. Errors: NotFound for an unknown
// name (the message lists the passes), InvalidArgument for a pattern transformation (it
// needs a location), InvalidSdfg for an invalid input, what the pass reports, and Internal when
// the pass left an invalid SDFG (a bug in the pass, reported instead of compiled).
Result<std::unique_ptr<ir::SDFG>> run_optimizer(const ir::SDFG& g, const std::string& optimizer);

}  // namespace dace::pipeline
