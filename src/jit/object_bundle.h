// Several relocatable objects as one byte string: what a module compiled in pieces (parallel
// code generation) hands to the object cache and to JitModule::object_file(). A module
// compiled in one piece stays a plain ELF object, so its bytes are what they always were.
//
// Format: magic "DACEOBJB", u32 count, count × u64 size (little endian), then the objects in
// order.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ir/result.h"

namespace dace::jit {

// One object is returned as it is; two or more are bundled.
std::string bundle_objects(const std::vector<std::string>& objects);

// The objects in `bytes`: a bundle's parts, or `bytes` itself when it is not a bundle.
// Views into `bytes`. Errors: CompileError for a truncated or inconsistent bundle.
Result<std::vector<std::string_view>> unbundle_objects(std::string_view bytes);
// The views would outlive a temporary string's bytes: keep the bytes in a variable first.
Result<std::vector<std::string_view>> unbundle_objects(std::string&& bytes) = delete;

}  // namespace dace::jit
