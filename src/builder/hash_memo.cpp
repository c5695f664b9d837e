// Content hashes remembered per SDFG handle until the SDFG's tree changes (ir::SDFG::last_change).
#include "builder/api_internal.h"
#include "ir/equality.h"

namespace dace::capi {

std::string content_hash_of(const dace_sdfg_t* h) {
  // Mutating calls need a non-const handle of the same tree, and the C API forbids them
  // concurrently with any other call on it, so the stamp read here stays valid. Stamps
  // start above 0 once anything was edited; an SDFG never edited hashes once (hash empty).
  const uint64_t stamp = h->sdfg->last_change();
  auto* self = const_cast<dace_sdfg_t*>(h);
  std::lock_guard<std::mutex> lock(self->hash_mutex);
  if (self->hash_stamp != stamp || self->hash.empty()) {
    self->hash = ir::content_hash(*h->sdfg);
    self->hash_stamp = stamp;
  }
  return self->hash;
}

}  // namespace dace::capi
