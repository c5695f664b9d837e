// The SDFG: symbols, data descriptors and a top-level control-flow region.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/control_flow.h"
#include "ir/data.h"
#include "ir/state.h"

namespace dace::ir {

struct Constant {
  DType dtype;
  std::string value_json;  // the value as JSON text (DaCe's constants_prop)
};

// Members are written directly (arrays, symbols, ...): code that does so calls touch()
// afterwards, so that last_change() sees it (the C API does for every mutable handle access,
// the pass runner after every pass that reports a change).
class SDFG : public ControlFlowRegion {
 public:
  SDFG() : ControlFlowRegion(BlockKind::SDFG) {}
  SDFG(const SDFG& other);
  std::unique_ptr<ControlFlowBlock> clone() const override;
  std::unique_ptr<SDFG> clone_sdfg() const;

  std::string name;
  std::map<std::string, DType> symbols;          // declared symbols and their types
  std::map<std::string, DataDescriptor> arrays;  // data containers by name (DaCe's _arrays)
  std::vector<std::string> arg_names;            // positional argument order of the frontend
  std::map<std::string, Constant> constants;
  std::map<std::string, CodeBlock> global_code, init_code, exit_code;  // location -> code
  DebugInfo debuginfo;
  std::string dace_version;  // the version that wrote the file, when loaded
  bool using_explicit_control_flow = false;
  NestedSDFGNode* parent_node = nullptr;  // set when nested

  // Block ids: assigned once, never reused within this SDFG.
  int register_block(ControlFlowBlock& block) { block.id = next_block_id_++; return block.id; }
  int next_block_id() const { return next_block_id_; }
  void set_next_block_id(int next) { next_block_id_ = next; }
  ControlFlowBlock* find_block(int id);
  const ControlFlowBlock* find_block(int id) const;
  // Visits every block of every region of this SDFG (not of nested SDFGs), pre-order.
  void for_each_block(const std::function<void(ControlFlowBlock&)>& fn);
  void for_each_block(const std::function<void(const ControlFlowBlock&)>& fn) const;
  std::vector<State*> all_states();
  std::vector<const State*> all_states() const;

  // The newest change stamp in this SDFG's tree (ControlFlowBlock::change_stamp): its own,
  // every block's and, recursively, every nested SDFG's. Every edit below this SDFG makes it
  // larger than any value it had before, so a cache remembers it to know when it is stale.
  // Walks the blocks and the nodes of every state (to find nested SDFGs): O(size).
  uint64_t last_change() const;

 private:
  int next_block_id_ = 0;
};

// Re-links parent pointers below `region` (after copies and moves).
void relink_parents(ControlFlowRegion& region);

}  // namespace dace::ir
