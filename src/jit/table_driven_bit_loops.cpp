#include "jit/table_driven_bit_loops.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>

#include <optional>
#include <utility>
#include <vector>

#include "jit/gf2_word.h"

namespace dace::jit {
namespace {

using gf2::Bit;
using gf2::Word;

// Each input (a non-constant value entering the loop) owns 64 consecutive input bits.
constexpr unsigned kInputStride = 64;
constexpr unsigned kMaxInputs = gf2::kMaxInputBits / kInputStride;
// Bodies larger than this are not bit loops worth a table (and are not evaluated).
constexpr size_t kMaxBodyInstructions = 256;

bool is_word_type(const llvm::Type* t) { return t->isIntegerTy() && t->getIntegerBitWidth() <= 64; }

// What a loop computes: its trip count, its inputs, and each exit phi's affine value.
struct LoopFunction {
  unsigned trip_count = 0;
  std::vector<llvm::Value*> inputs;
  std::vector<std::pair<llvm::PHINode*, Word>> exits;
};

// Evaluates a single-block loop iteration by iteration on gf2 words.
class BitLoopEvaluator {
 public:
  BitLoopEvaluator(llvm::Loop& loop, llvm::BasicBlock& preheader, const llvm::DataLayout& layout)
      : body_(*loop.getHeader()), preheader_(preheader), layout_(layout) {}

  std::optional<LoopFunction> run(llvm::BranchInst& latch_branch, llvm::BasicBlock& exit) {
    for (llvm::PHINode& phi : body_.phis()) state_[&phi] = entry_value(phi.getIncomingValueForBlock(&preheader_));
    const bool stay_when_true = latch_branch.getSuccessor(0) == &body_;
    for (unsigned iteration = 1; iteration <= kMaxTableBits; ++iteration) {
      memo_.clear();
      std::optional<Word> condition = eval(latch_branch.getCondition());
      if (!condition || !condition->is_constant()) return std::nullopt;  // trip count not constant
      if ((*condition->constant_value() != 0) != stay_when_true) return finish(iteration, exit);
      llvm::DenseMap<llvm::Value*, std::optional<Word>> next;
      for (llvm::PHINode& phi : body_.phis()) next[&phi] = eval(phi.getIncomingValueForBlock(&body_));
      state_ = std::move(next);
    }
    return std::nullopt;  // more than kMaxTableBits iterations
  }

 private:
  std::optional<LoopFunction> finish(unsigned trip_count, llvm::BasicBlock& exit) {
    LoopFunction f;
    f.trip_count = trip_count;
    for (llvm::PHINode& phi : exit.phis()) {
      std::optional<Word> w = eval(phi.getIncomingValueForBlock(&body_));
      if (!w) return std::nullopt;
      f.exits.emplace_back(&phi, std::move(*w));
    }
    f.inputs = inputs_;
    return f;
  }

  std::optional<Word> entry_value(llvm::Value* v) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v); c && is_word_type(c->getType()))
      return gf2::constant(c->getBitWidth(), c->getZExtValue());
    return input(v);
  }

  // A value from outside the loop: one of the loop function's inputs.
  std::optional<Word> input(llvm::Value* v) {
    if (!is_word_type(v->getType()) || llvm::isa<llvm::Constant>(v)) return std::nullopt;  // poison, exprs
    unsigned index = 0;
    while (index < inputs_.size() && inputs_[index] != v) ++index;
    if (index == inputs_.size()) {
      if (inputs_.size() == kMaxInputs) return std::nullopt;
      inputs_.push_back(v);
    }
    return gf2::input_word(v->getType()->getIntegerBitWidth(), index * kInputStride);
  }

  std::optional<Word> eval(llvm::Value* v) {
    if (auto found = memo_.find(v); found != memo_.end()) return found->second;
    std::optional<Word> w;
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v); c && is_word_type(c->getType()))
      w = gf2::constant(c->getBitWidth(), c->getZExtValue());
    else if (!i || i->getParent() != &body_)
      w = input(v);
    else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(i))
      w = state_[phi];
    else if (is_word_type(i->getType()))
      w = compute(*i);
    memo_[v] = w;
    return w;
  }

  std::optional<Word> compute(llvm::Instruction& i) {
    llvm::SmallVector<Word, 3> ops;
    llvm::SmallVector<llvm::Constant*, 3> constants;
    for (llvm::Value* op : i.operands()) {
      std::optional<Word> w = eval(op);
      if (!w) return std::nullopt;
      if (w->is_constant()) constants.push_back(llvm::ConstantInt::get(op->getType(), *w->constant_value()));
      ops.push_back(std::move(*w));
    }
    if (constants.size() == ops.size()) {  // the induction variable's arithmetic, the exit test
      llvm::Constant* folded =
          llvm::isa<llvm::ICmpInst>(i)
              ? llvm::ConstantFoldCompareInstOperands(llvm::cast<llvm::ICmpInst>(i).getPredicate(), constants[0],
                                                      constants[1], layout_)
              : llvm::ConstantFoldInstOperands(&i, constants, layout_);
      auto* c = llvm::dyn_cast_or_null<llvm::ConstantInt>(folded);
      if (!c) return std::nullopt;  // poison (an overflow the flags forbid) or not foldable
      return gf2::constant(c->getBitWidth(), c->getZExtValue());
    }
    const unsigned width = i.getType()->getIntegerBitWidth();
    switch (i.getOpcode()) {
      case llvm::Instruction::Xor: return gf2::bit_xor(ops[0], ops[1]);
      case llvm::Instruction::And: return gf2::bit_and(ops[0], ops[1]);
      case llvm::Instruction::Or: return gf2::bit_or(ops[0], ops[1]);
      case llvm::Instruction::LShr:
      case llvm::Instruction::AShr:
      case llvm::Instruction::Shl: {
        std::optional<uint64_t> amount = ops[1].constant_value();
        if (!amount || *amount >= width) return std::nullopt;  // varying shift, or poison
        unsigned a = static_cast<unsigned>(*amount);
        if (i.getOpcode() == llvm::Instruction::LShr) return gf2::shift_right_logical(ops[0], a);
        if (i.getOpcode() == llvm::Instruction::AShr) return gf2::shift_right_arithmetic(ops[0], a);
        return gf2::shift_left(ops[0], a);
      }
      case llvm::Instruction::ZExt:
      case llvm::Instruction::Trunc: return gf2::zero_extend_or_truncate(ops[0], width);
      case llvm::Instruction::SExt: return gf2::sign_extend_or_truncate(ops[0], width);
      case llvm::Instruction::Freeze: return ops[0];  // the value itself is one of freeze's choices
      case llvm::Instruction::Select: return gf2::select(ops[0], ops[1], ops[2]);
      case llvm::Instruction::ICmp: return compare(llvm::cast<llvm::ICmpInst>(i).getPredicate(), ops[0], ops[1]);
      default: return std::nullopt;
    }
  }

  static std::optional<Word> compare(llvm::CmpInst::Predicate predicate, const Word& a, const Word& b) {
    const Word one = gf2::constant(1, 1);
    switch (predicate) {
      case llvm::CmpInst::ICMP_EQ: return gf2::equal(a, b);
      case llvm::CmpInst::ICMP_NE: {
        std::optional<Word> e = gf2::equal(a, b);
        if (!e) return std::nullopt;
        return gf2::bit_xor(*e, one);
      }
      // The sign-bit tests instcombine writes for `x & signbit`.
      case llvm::CmpInst::ICMP_SLT:
        if (b.constant_value() != 0) return std::nullopt;
        return Word{{a.bits.back()}};
      case llvm::CmpInst::ICMP_SGT:
        if (b.constant_value() != (~uint64_t{0} >> (64 - b.width()))) return std::nullopt;  // > -1
        return gf2::bit_xor(Word{{a.bits.back()}}, one);
      default: return std::nullopt;
    }
  }

  llvm::BasicBlock& body_;
  llvm::BasicBlock& preheader_;
  const llvm::DataLayout& layout_;
  std::vector<llvm::Value*> inputs_;
  llvm::DenseMap<llvm::Value*, std::optional<Word>> state_;  // header phis this iteration
  llvm::DenseMap<llvm::Value*, std::optional<Word>> memo_;
};

// The loop's shape: one block, a preheader, one exit reached only from the latch's branch,
// no side effects, every use outside through an exit phi.
bool has_bit_loop_shape(llvm::Loop& loop) {
  llvm::BasicBlock* body = loop.getHeader();
  llvm::BasicBlock* exit = loop.getExitBlock();
  if (loop.getNumBlocks() != 1 || !loop.getLoopPreheader() || !exit || exit->phis().empty()) return false;
  if (body->size() > kMaxBodyInstructions || exit->getSinglePredecessor() != body) return false;
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(body->getTerminator());
  if (!branch || !branch->isConditional()) return false;
  for (llvm::Instruction& i : *body) {
    if (i.mayHaveSideEffects()) return false;
    for (llvm::User* u : i.users()) {
      auto* user = llvm::cast<llvm::Instruction>(u);
      if (user->getParent() != body && !(llvm::isa<llvm::PHINode>(user) && user->getParent() == exit)) return false;
    }
  }
  return true;
}

// How an exit value is computed from the inputs: [(inputs[shift_input] >> N)] ^
// table[(XOR of inputs[index_inputs]) & (2^N - 1)].
struct TablePlan {
  std::optional<unsigned> shift_input;
  std::vector<unsigned> index_inputs;
  std::vector<uint64_t> table;  // 2^N entries; all equal when index_inputs is empty
};

bool has_input(const Bit& b, unsigned input, unsigned bit) { return b.inputs.test(input * kInputStride + bit); }

// The plan whose affine function is exactly `value`'s, trying "no shift" and then a shift of
// each input in turn.
std::optional<TablePlan> plan_table(const Word& value, unsigned n, const std::vector<unsigned>& input_widths) {
  const unsigned inputs = static_cast<unsigned>(input_widths.size());
  for (int shifted = -1; shifted < static_cast<int>(inputs); ++shifted) {
    if (shifted >= 0 && n >= input_widths[shifted]) continue;  // that shift is zero: tried already
    Word rest = value;
    if (shifted >= 0)
      for (unsigned j = 0; j < rest.width() && j + n < input_widths[shifted]; ++j)
        rest.bits[j] = rest.bits[j] ^ Bit::input(shifted * kInputStride + j + n);
    // What is left may use only the low n bits of the inputs ...
    std::vector<bool> indexes(inputs, false);
    bool fits = true;
    for (const Bit& b : rest.bits)
      for (unsigned e = 0; e < inputs; ++e)
        for (unsigned k = 0; k < input_widths[e]; ++k)
          if (has_input(b, e, k)) {
            if (k >= n) fits = false;
            indexes[e] = true;
          }
    // ... and only through their XOR: bit k of each indexing input with the same coefficient.
    std::vector<std::vector<bool>> coefficient(rest.width(), std::vector<bool>(n, false));
    for (unsigned j = 0; fits && j < rest.width(); ++j)
      for (unsigned k = 0; fits && k < n; ++k) {
        std::optional<bool> c;
        for (unsigned e = 0; e < inputs; ++e) {
          if (!indexes[e] || k >= input_widths[e]) continue;
          bool here = has_input(rest.bits[j], e, k);
          if (c && *c != here) fits = false;
          c = here;
        }
        coefficient[j][k] = c.value_or(false);
      }
    if (!fits) continue;
    TablePlan plan;
    if (shifted >= 0) plan.shift_input = static_cast<unsigned>(shifted);
    for (unsigned e = 0; e < inputs; ++e)
      if (indexes[e]) plan.index_inputs.push_back(e);
    for (uint64_t x = 0; x < (uint64_t{1} << n); ++x) {
      uint64_t entry = 0;
      for (unsigned j = 0; j < rest.width(); ++j) {
        bool bit = rest.bits[j].one;
        for (unsigned k = 0; k < n; ++k) bit = bit != (coefficient[j][k] && ((x >> k) & 1) != 0);
        if (bit) entry |= uint64_t{1} << j;
      }
      plan.table.push_back(entry);
    }
    return plan;
  }
  return std::nullopt;
}

llvm::Value* emit_plan(llvm::IRBuilder<>& b, const TablePlan& plan, unsigned n, const LoopFunction& f,
                       llvm::IntegerType* type) {
  llvm::Module& module = *b.GetInsertBlock()->getModule();
  llvm::Value* out = nullptr;
  if (plan.index_inputs.empty()) {
    if (plan.table[0] != 0 || !plan.shift_input) out = llvm::ConstantInt::get(type, plan.table[0]);
  } else {
    llvm::Value* index = nullptr;
    for (unsigned e : plan.index_inputs) {
      llvm::Value* v = b.CreateZExtOrTrunc(f.inputs[e], b.getInt64Ty());
      index = index ? b.CreateXor(index, v) : v;
    }
    index = b.CreateAnd(index, (uint64_t{1} << n) - 1, "bit_loop.index");
    std::vector<llvm::Constant*> entries;
    for (uint64_t e : plan.table) entries.push_back(llvm::ConstantInt::get(type, e));
    auto* array_type = llvm::ArrayType::get(type, entries.size());
    auto* table = new llvm::GlobalVariable(module, array_type, /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
                                           llvm::ConstantArray::get(array_type, entries), "dace.bit_loop_table");
    table->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    llvm::Value* slot = b.CreateInBoundsGEP(array_type, table, {b.getInt64(0), index});
    out = b.CreateLoad(type, slot, "bit_loop.entry");
  }
  if (plan.shift_input) {
    llvm::Value* input = f.inputs[*plan.shift_input];
    llvm::Value* shifted = b.CreateZExtOrTrunc(b.CreateLShr(input, n), type);
    out = out ? b.CreateXor(shifted, out) : shifted;
  }
  return out;
}

// Replaces the loop's exit values; false (nothing changed) when the loop is not a bit loop.
bool replace_bit_loop(llvm::Loop& loop, llvm::ScalarEvolution* evolution) {
  if (!has_bit_loop_shape(loop)) return false;
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  llvm::BasicBlock* exit = loop.getExitBlock();
  auto* branch = llvm::cast<llvm::BranchInst>(loop.getHeader()->getTerminator());
  BitLoopEvaluator evaluator(loop, *preheader, preheader->getModule()->getDataLayout());
  std::optional<LoopFunction> f = evaluator.run(*branch, *exit);
  if (!f || f->trip_count < kMinTableBits) return false;
  std::vector<unsigned> widths;
  for (llvm::Value* v : f->inputs) widths.push_back(v->getType()->getIntegerBitWidth());
  std::vector<TablePlan> plans;
  for (auto& [phi, value] : f->exits) {
    std::optional<TablePlan> plan = plan_table(value, f->trip_count, widths);
    if (!plan) return false;
    plans.push_back(std::move(*plan));
  }
  if (evolution) evolution->forgetLoop(&loop);
  llvm::IRBuilder<> b(preheader->getTerminator());
  for (size_t k = 0; k < plans.size(); ++k) {
    llvm::PHINode* phi = f->exits[k].first;
    llvm::Value* v = emit_plan(b, plans[k], f->trip_count, *f, llvm::cast<llvm::IntegerType>(phi->getType()));
    if (evolution) evolution->forgetValue(phi);
    phi->replaceAllUsesWith(v);
    phi->eraseFromParent();
  }
  return true;
}

}  // namespace

llvm::PreservedAnalyses TableDrivenBitLoopsPass::run(llvm::Loop& loop, llvm::LoopAnalysisManager&,
                                                     llvm::LoopStandardAnalysisResults& results, llvm::LPMUpdater&) {
  // The new load is not entered into MemorySSA: in a loop pipeline that keeps MemorySSA (not
  // the one at LateLoopOptimizations) the pass stays out of the way.
  if (results.MSSA || !replace_bit_loop(loop, &results.SE)) return llvm::PreservedAnalyses::all();
  if (replaced) ++*replaced;
  return llvm::getLoopPassPreservedAnalyses();
}

int table_driven_bit_loops(llvm::Function& f) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  int replaced = 0;
  TableDrivenBitLoopsPass pass;
  pass.replaced = &replaced;
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(pass)));
  fpm.run(f, fam);
  return replaced;
}

}  // namespace dace::jit
