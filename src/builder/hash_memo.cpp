// Content hashes remembered per SDFG handle until the SDFG's tree changes (ir::SDFG::last_change).
#include <algorithm>

#include "builder/api_internal.h"
#include "ir/equality.h"

namespace dace::capi {

std::string content_hash_of(const dace_sdfg_t* h) {
  // Mutating calls need a non-const handle of the same tree, and the C API forbids them
  // concurrently with any other call on it, so the stamp read here stays valid. Stamps
  // start above 0 once anything was edited; an SDFG never edited hashes once (hash empty).
  // A nested SDFG's handle also keys by its root's tree: a pass or transformation run through
  // the root handle may write into the nested SDFG through element pointers, which stamps
  // only the root (transform::run_pass, transform::apply_at).
  uint64_t stamp = h->sdfg->last_change();
  if (const dace_sdfg* root = h->root; root && root != h && root->sdfg)
    stamp = std::max(stamp, root->sdfg->last_change());
  auto* self = const_cast<dace_sdfg_t*>(h);
  std::lock_guard<std::mutex> lock(self->hash_mutex);
  if (self->hash_stamp != stamp || self->hash.empty()) {
    self->hash = ir::content_hash(*h->sdfg);
    self->hash_stamp = stamp;
  }
  return self->hash;
}

}  // namespace dace::capi
