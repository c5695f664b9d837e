// Pattern transformations (DaCe's PatternTransformation): a pattern of nodes in one state
// or of blocks in one control-flow region, a legality check that only reads, and an apply
// that edits the IR. Matches are enumerated in a canonical order (cfg_id, state id, then
// pattern element ids), never by address or hash order, so every machine applies the same
// transformations at the same places.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ir/result.h"
#include "ir/sdfg.h"
#include "transform/analysis_manager.h"
#include "transform/cfg_list.h"
#include "transform/modifies.h"
#include "transform/properties.h"

namespace dace::transform {

// Where a pattern matched, in DaCe's serialized terms: the region by cfg_list index, the
// state by its id in that region (-1 for patterns of blocks), and the id of each pattern
// element (DaCe's `_subgraph`, pattern index -> node or block id). Ids are DaCe's node_id:
// the position among the live elements, as the JSON writer numbers them, so a location read
// from a saved file or from DaCe's own history names the same element. (Slots, which keep
// holes after removals, are used only inside apply; the subclasses below see slots.)
struct Match {
  int cfg_id = 0;
  int state_id = -1;
  std::vector<int> subgraph;
  int expr_index = 0;
  bool operator==(const Match&) const = default;
};
// "cfg 0 / state 1 / {0: 4, 1: 6}", for messages.
std::string to_string(const Match& m);
// The DaCe id (position among the live ids, ascending) of node or block `slot`; -1 when
// `slot` is not live. For passes that build a Match for a node they hold by slot.
int dense_id(const std::vector<int>& live, int slot);

class Transformation {
 public:
  Transformation() = default;
  Transformation(const Transformation&) = delete;
  Transformation& operator=(const Transformation&) = delete;
  virtual ~Transformation() = default;

  virtual std::string_view name() const = 0;
  virtual Modifies modifies() const = 0;
  // Every place the pattern's shape occurs, in canonical order (legality not checked).
  virtual std::vector<Match> enumerate(ir::SDFG& root, AnalysisManager& am) = 0;
  // Whether applying at `m` is legal. Reads only. On refusal, `why_not()` says why.
  virtual bool can_be_applied(ir::SDFG& root, const Match& m, AnalysisManager& am) = 0;
  // Applies at a match that can_be_applied accepted (apply.h checks that first) and
  // invalidates the analyses it affected.
  virtual Status apply(ir::SDFG& root, const Match& m, AnalysisManager& am) = 0;

  Properties& properties() { return props_; }
  const Properties& properties() const { return props_; }
  const std::string& why_not() const { return why_not_; }

 protected:
  // Records the reason of a refusal and returns false, for `return refuse("...")`.
  bool refuse(std::string why) {
    why_not_ = std::move(why);
    return false;
  }
  Properties props_;
  std::string why_not_;
};

// Patterns of nodes inside one state (DaCe's SingleStateTransformation).
class SingleStateTransformation : public Transformation {
 public:
  std::vector<Match> enumerate(ir::SDFG& root, AnalysisManager& am) final;
  bool can_be_applied(ir::SDFG& root, const Match& m, AnalysisManager& am) final;
  Status apply(ir::SDFG& root, const Match& m, AnalysisManager& am) final;

 protected:
  struct Site {
    ir::SDFG& sdfg;  // the SDFG owning the state (nested SDFGs have their own)
    ir::State& state;
    const ScopeTree& scopes;
    AnalysisManager& am;  // cached analyses of the state (access sets, scope access sets)
  };
  // Appends the node ids of each occurrence of the pattern, ascending by first element.
  virtual void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) = 0;
  virtual bool can_apply(const Site& site, const std::vector<int>& nodes) = 0;
  virtual Status apply_at(const Site& site, const std::vector<int>& nodes) = 0;
  // How many elements the pattern has (the size of Match::subgraph).
  virtual size_t pattern_size() const = 0;
  // DaCe's expressions(): the number of elements of each. A match's expr_index is the
  // position of its size in this list, so patterns with several expressions give them
  // distinct sizes and tell them apart by nodes.size(). Default: one, of pattern_size().
  virtual std::vector<size_t> expression_sizes() const { return {pattern_size()}; }

 private:
  // The state and the node slots a match names; errors name the missing element.
  Result<ir::State*> resolve(ir::SDFG& root, const Match& m, ir::SDFG** owner, std::vector<int>* nodes);
};

// Patterns of blocks inside one control-flow region (DaCe's MultiStateTransformation).
class ControlFlowTransformation : public Transformation {
 public:
  std::vector<Match> enumerate(ir::SDFG& root, AnalysisManager& am) final;
  bool can_be_applied(ir::SDFG& root, const Match& m, AnalysisManager& am) final;
  Status apply(ir::SDFG& root, const Match& m, AnalysisManager& am) final;

 protected:
  struct Site {
    ir::SDFG& sdfg;
    ir::ControlFlowRegion& region;
    AnalysisManager& am;
    int expr_index = 0;  // which of DaCe's expressions the location names
  };
  virtual void region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) = 0;
  // DaCe's expr_index of an occurrence (block slots), for patterns with several expressions.
  virtual int expr_index_of(const ir::ControlFlowRegion&, const std::vector<int>&) const { return 0; }
  virtual bool can_apply(const Site& site, const std::vector<int>& blocks) = 0;
  virtual Status apply_at(const Site& site, const std::vector<int>& blocks) = 0;
  virtual size_t pattern_size() const = 0;

 private:
  // The region and the block slots a match names.
  Result<ir::ControlFlowRegion*> resolve(ir::SDFG& root, const Match& m, std::vector<int>* blocks);
};

}  // namespace dace::transform
