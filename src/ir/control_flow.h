// Control flow: blocks (states, loops, conditionals, break/continue/return) inside regions,
// joined by interstate edges with conditions and ordered assignments (DaCe >= 1.0).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/common.h"

namespace dace::ir {

enum class BlockKind { State, Region, Loop, Conditional, Break, Continue, Return, SDFG };
const char* to_string(BlockKind k);  // DaCe class name: "SDFGState", "LoopRegion", ...

class ControlFlowRegion;

// When an element of the IR last changed: a value of one process-wide counter, so every
// change is stamped larger than all before it, in any SDFG. An SDFG tree's newest stamp
// (SDFG::last_change) therefore grows with every edit anywhere in it, removals included (the
// container of what went is stamped); a sum of per-element counters would drop when an edited
// element is removed and could return to an earlier value. Atomic so that touching an SDFG
// from two reading threads (the C API touches on every mutable handle access) is no race;
// copies keep the value.
class ChangeStamp {
 public:
  ChangeStamp() = default;
  ChangeStamp(const ChangeStamp& other) : value_(other.get()) {}
  ChangeStamp& operator=(const ChangeStamp& other) {
    value_.store(other.get(), std::memory_order_relaxed);
    return *this;
  }
  uint64_t get() const { return value_.load(std::memory_order_relaxed); }
  void renew();  // takes the next value of the process-wide counter

 private:
  std::atomic<uint64_t> value_{0};
};

class ControlFlowBlock {
 public:
  explicit ControlFlowBlock(BlockKind kind) : kind(kind) {}
  virtual ~ControlFlowBlock() = default;
  virtual std::unique_ptr<ControlFlowBlock> clone() const = 0;

  const BlockKind kind;
  std::string label;
  // SDFG-wide id, unique among all blocks of one SDFG (nested regions included), assigned by
  // SDFG::register_block; the C API addresses blocks by it.
  int id = -1;
  ControlFlowRegion* parent = nullptr;  // null for the SDFG itself
  std::string guid;
  ExtraProperties extra;

  // When this block's own content last changed (see ChangeStamp). The edit functions of
  // regions and states stamp it; code that writes members directly (a label, an interstate
  // edge through edge(), a branch, an SDFG's arrays or symbols) must call touch() afterwards.
  uint64_t change_stamp() const { return stamp_.get(); }
  virtual void touch() { stamp_.renew(); }

 private:
  ChangeStamp stamp_;
};

struct InterstateEdge {
  int src = -1, dst = -1;  // block slots in the same region
  CodeBlock condition{"1", Language::Python};
  // Kept in file order. As in DaCe, all right-hand sides are evaluated before any symbol is
  // assigned; validation rejects an edge whose assignment reads a symbol assigned on it.
  std::vector<std::pair<std::string, std::string>> assignments;
  std::string label;
  std::string guid;
  ExtraProperties extra;

  bool is_unconditional() const { return condition.code == "1" || condition.code == "True"; }
};

// Blocks are slot-indexed like nodes in a state.
class ControlFlowRegion : public ControlFlowBlock {
 public:
  explicit ControlFlowRegion(BlockKind kind = BlockKind::Region) : ControlFlowBlock(kind) {}
  ControlFlowRegion(const ControlFlowRegion& other);
  std::unique_ptr<ControlFlowBlock> clone() const override;

  // The edits below stamp the region (ControlFlowBlock::touch).
  int add_block(std::unique_ptr<ControlFlowBlock> block);  // returns the slot
  int add_edge(InterstateEdge edge);
  ControlFlowBlock* block(int slot);
  const ControlFlowBlock* block(int slot) const;
  // Writes through this pointer need touch() (see ControlFlowBlock::change_stamp).
  InterstateEdge* edge(int slot);
  const InterstateEdge* edge(int slot) const;
  void remove_block(int slot);  // and its edges
  // Takes the block out (its edges are removed, the slot stays empty) without destroying it,
  // so that pointers into it (borrowed nested-SDFG handles) stay valid when it moves to
  // another region. Null for an empty slot.
  std::unique_ptr<ControlFlowBlock> release_block(int slot);
  void remove_edge(int slot);
  std::vector<int> block_slots() const;  // live, ascending
  std::vector<int> edge_slots() const;
  std::vector<int> in_edges(int block_slot) const;
  std::vector<int> out_edges(int block_slot) const;
  int slot_of(const ControlFlowBlock* b) const;  // -1 if not a direct child

  int start_block = -1;  // slot; -1 = the unique block without in-edges

 private:
  std::vector<std::unique_ptr<ControlFlowBlock>> blocks_;
  std::vector<std::optional<InterstateEdge>> edges_;
};

// for (init; condition; update) { body }, DaCe's LoopRegion. The region's own blocks are
// the body.
class LoopRegion : public ControlFlowRegion {
 public:
  LoopRegion() : ControlFlowRegion(BlockKind::Loop) {}
  std::unique_ptr<ControlFlowBlock> clone() const override;
  std::string loop_variable;
  CodeBlock init_statement;    // "i = 0"; empty code = none
  CodeBlock loop_condition;    // "i < N"
  CodeBlock update_statement;  // "i = i + 1"; empty code = none
  bool inverted = false;       // do-while: condition checked after the body
  bool update_before_condition = true;
};

// if / elif / else: the first branch whose condition holds runs. A branch without condition
// is the else branch (last).
class ConditionalBlock : public ControlFlowBlock {
 public:
  ConditionalBlock() : ControlFlowBlock(BlockKind::Conditional) {}
  ConditionalBlock(const ConditionalBlock& other);
  std::unique_ptr<ControlFlowBlock> clone() const override;
  std::vector<std::pair<std::optional<CodeBlock>, std::unique_ptr<ControlFlowRegion>>> branches;
};

class BreakBlock : public ControlFlowBlock {
 public:
  BreakBlock() : ControlFlowBlock(BlockKind::Break) {}
  std::unique_ptr<ControlFlowBlock> clone() const override { return std::make_unique<BreakBlock>(*this); }
};
class ContinueBlock : public ControlFlowBlock {
 public:
  ContinueBlock() : ControlFlowBlock(BlockKind::Continue) {}
  std::unique_ptr<ControlFlowBlock> clone() const override { return std::make_unique<ContinueBlock>(*this); }
};
class ReturnBlock : public ControlFlowBlock {
 public:
  ReturnBlock() : ControlFlowBlock(BlockKind::Return) {}
  std::unique_ptr<ControlFlowBlock> clone() const override { return std::make_unique<ReturnBlock>(*this); }
};

}  // namespace dace::ir
