#include "jit/program_key.h"

#include <algorithm>

#include "jit/binary_id.h"
#include "jit/object_cache.h"
#include "jit/pipeline.h"
#include "plugin/registry.h"

namespace dace::jit {

std::string plugins_fingerprint(const plugin::Registry& registry) {
  std::string s;
  for (const auto& p : registry.plugins())
    s += "plugin " + p.name + " " + p.version + " " + p.build_id + " abi " + std::to_string(p.abi_version) + " binary " +
         loaded_binary_id(p.path) + "\n";
  for (const auto& r : registry.runtime_symbols()) s += "symbol " + r.name + " " + r.owner + "\n";
  // Whether each library is there decides the code (a BLAS call or a plain loop), so the
  // optional ones not tried yet are loaded first (Registry::vendor_libraries).
  for (const auto& l : registry.vendor_libraries())
    s += "library " + l.name + (l.available ? " available\n" : " missing\n");
  return s;
}

std::string program_cache_key(const ProgramKeyInputs& in) {
  const std::string level = std::to_string(std::clamp(in.opt_level, 0, 3));
  // A version tag first: changing what goes into the key must never reuse old entries.
  return cache_key({"libdace program key 4", in.sdfg_hash, in.sdfg_optimizer, in.sdfg_name, in.target_id, in.libdace_version,
                    in.libdace_build_id, in.libdace_binary_id, in.plugins, in.lowering, level, in.fast_math ? "fast" : "exact",
                    in.vector_math_library ? "mvec" : "no-mvec",
                    masked_interleave_requested() ? "masked-interleave" : "no-masked-interleave"});
}

}  // namespace dace::jit
