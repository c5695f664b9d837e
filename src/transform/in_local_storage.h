// InLocalStorage and OutLocalStorage (DaCe's names and properties `array`, `prefix`,
// `create_array`; dace/transformation/dataflow/local_storage.py), both on local_storage.h.
// InLocalStorage: the block X[S] an outer scope entry passes to an inner scope entry is first
// copied into a new transient `prefix + X` inside the outer scope; the inner scope reads it.
// OutLocalStorage: the block an inner scope exit writes to an outer exit is written into the
// transient and copied to X[S] after the inner scope. DaCe only asks for two entries (exits)
// joined by a data edge (OutLocalStorage: one without WCR); we also require what keeps results
// unchanged (local_storage.h's edge_problem), and for OutLocalStorage that the inner writes
// provably fill S (else the copy-out would write elements nobody wrote).
#pragma once
#include "transform/local_storage.h"

namespace dace::transform {

class InLocalStorage final : public LocalStorage {
 public:
  InLocalStorage() : LocalStorage(local_storage::Direction::In) {}
  std::string_view name() const override { return "InLocalStorage"; }
};

class OutLocalStorage final : public LocalStorage {
 public:
  OutLocalStorage() : LocalStorage(local_storage::Direction::Out) {}
  std::string_view name() const override { return "OutLocalStorage"; }
};

}  // namespace dace::transform
