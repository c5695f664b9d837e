// ScalarToSymbolPromotion (DaCe's pass of that name, dace/transformation/passes/
// scalar_to_symbol.py): a transient scalar that every state writes at most once, at the top
// level, from a one-statement tasklet over single elements of unwritten containers (or by a
// copy of one element), becomes a symbol. Each write moves to an interstate assignment on the
// edge from a new empty state placed before the writing state (DaCe's state fission, so that
// a replay of the history entry in DaCe builds the same states); each read becomes the symbol
// in tasklet code, or a `symassign` tasklet when the scalar was copied into a container.
// Interstate code that read `s` or `s[0]` reads the symbol `s`. Non-integer scalars are
// promoted only when interstate code reads them (property integers_only).
//
// States inside loop regions and conditional branches count as DaCe 1.0.2 counts them (its
// pass is marked compatible with those blocks): a write there moves to an assignment on a new
// edge inside the same region. Loop headers and branch conditions reading `s[0]` read `s`.
//
// A nested SDFG reading the scalar is descended into (DaCe's remove_scalar_reads): its
// connector's container becomes a symbol inside, set through the symbol mapping.
//
// The pass runs on every SDFG of the hierarchy, the root first, then nested SDFGs in pre-order,
// each on the scalars it declares — as DaCe's simplify applies it (SimplifyPass runs its
// non-recursive passes on all_sdfgs_recursive()).
//
// Where we refuse what DaCe promotes (all named by why_not): C++ tasklets writing or reading
// the scalar and reads as dynamic map-range inputs. DaCe's last step, turning tasklet
// indirection `A[s]` into memlets, is done for reads (symbol_indirection.h).
#pragma once
#include <map>
#include <set>
#include <string>

#include "transform/pass.h"

namespace dace::transform {

class ScalarToSymbolPromotion : public Pass {
 public:
  ScalarToSymbolPromotion() {
    props_.bind_bool("transients_only", &transients_only_);
    props_.bind_bool("integers_only", &integers_only_);
  }
  std::string_view name() const override { return "ScalarToSymbolPromotion"; }
  Modifies modifies() const override {
    return Modifies::Descriptors | Modifies::Symbols | Modifies::Nodes | Modifies::Edges | Modifies::States;
  }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;

 private:
  // One SDFG's own scalars (the root's reach into nested SDFGs that read them).
  Result<bool> promote_in(ir::SDFG& sdfg) const;
  bool transients_only_ = true;
  bool integers_only_ = true;
};

// The scalars the pass would promote in `sdfg`; `why_not` (optional) receives, for every
// refused scalar candidate, the reason naming the container and the state.
std::set<std::string> find_promotable_scalars(const ir::SDFG& sdfg, bool transients_only, bool integers_only,
                                              std::map<std::string, std::string>* why_not = nullptr);

}  // namespace dace::transform
