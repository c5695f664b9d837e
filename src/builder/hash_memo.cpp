// Content hashes remembered per SDFG handle until the SDFG tree changes.
#include "builder/api_internal.h"
#include "ir/equality.h"

namespace dace::capi {

std::string content_hash_of(const dace_sdfg_t* h) {
  // Mutating calls need a non-const handle of the same tree, and the C API forbids them
  // concurrently with any other call on it, so the generation read here stays valid.
  const dace_sdfg* root = h->root ? h->root : h;
  const uint64_t generation = root->generation.load(std::memory_order_acquire);
  auto* self = const_cast<dace_sdfg_t*>(h);
  std::lock_guard<std::mutex> lock(self->hash_mutex);
  if (self->hash_generation != generation || self->hash.empty()) {
    self->hash = ir::content_hash(*h->sdfg);
    self->hash_generation = generation;
  }
  return self->hash;
}

}  // namespace dace::capi
