#include "jit/widen_narrow_phis.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace dace::jit {
namespace {

bool is_narrow(const llvm::Type* t) { return t->isIntegerTy(8) || t->isIntegerTy(16); }

// zext(op(a, b)) == op(zext a, zext b) for these (lshr: for amounts below the narrow
// width; a larger amount makes the narrow result poison, which any value refines).
bool commutes_with_zext(const llvm::Instruction& i) {
  switch (i.getOpcode()) {
    case llvm::Instruction::PHI:
    case llvm::Instruction::Select:
    case llvm::Instruction::And:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor:
    case llvm::Instruction::LShr: return true;
    default: return false;
  }
}

// The operands that carry the value (a select's condition does not).
llvm::SmallVector<llvm::Value*, 4> value_operands(llvm::Instruction& i) {
  if (auto* s = llvm::dyn_cast<llvm::SelectInst>(&i)) return {s->getTrueValue(), s->getFalseValue()};
  return llvm::SmallVector<llvm::Value*, 4>(i.operands());
}

bool is_member(const llvm::Value* v, const llvm::Type* narrow) {
  const auto* i = llvm::dyn_cast<llvm::Instruction>(v);
  return i && i->getType() == narrow && commutes_with_zext(*i);
}

// The narrow values `phi` is computed from through zext-commuting operations.
llvm::SmallSetVector<llvm::Instruction*, 16> collect_web(llvm::PHINode& phi) {
  llvm::SmallSetVector<llvm::Instruction*, 16> web;
  llvm::SmallVector<llvm::Instruction*, 16> work{&phi};
  web.insert(&phi);
  while (!work.empty()) {
    llvm::Instruction* i = work.pop_back_val();
    for (llvm::Value* v : value_operands(*i))
      if (is_member(v, phi.getType()) && web.insert(llvm::cast<llvm::Instruction>(v)))
        work.push_back(llvm::cast<llvm::Instruction>(v));
  }
  return web;
}

// A phi of the web takes a value of the web: the web is carried around a loop.
bool carried(const llvm::SmallSetVector<llvm::Instruction*, 16>& web) {
  for (llvm::Instruction* i : web)
    if (auto* p = llvm::dyn_cast<llvm::PHINode>(i))
      for (llvm::Value* v : p->incoming_values())
        if (auto* d = llvm::dyn_cast<llvm::Instruction>(v); d && web.contains(d)) return true;
  return false;
}

class Widener {
 public:
  Widener(const llvm::SmallSetVector<llvm::Instruction*, 16>& web, llvm::Type* narrow, llvm::IntegerType* wide)
      : web_(web), narrow_(narrow), wide_(wide) {}

  void run() {
    for (llvm::Instruction* i : web_)
      if (auto* p = llvm::dyn_cast<llvm::PHINode>(i))
        wide_of_[p] = llvm::PHINode::Create(wide_, p->getNumIncomingValues(), p->getName() + ".wide", p->getIterator());
    for (llvm::Instruction* i : web_) {
      auto* p = llvm::dyn_cast<llvm::PHINode>(i);
      if (!p) continue;
      auto* w = llvm::cast<llvm::PHINode>(wide_of_[p]);
      for (unsigned k = 0; k < p->getNumIncomingValues(); ++k)
        w->addIncoming(get(p->getIncomingValue(k), p->getIncomingBlock(k)->getTerminator()), p->getIncomingBlock(k));
    }
    for (llvm::Instruction* i : web_) get(i, i);
    redirect_outside_uses();
    for (llvm::Instruction* i : web_) i->replaceAllUsesWith(llvm::PoisonValue::get(narrow_));
    for (llvm::Instruction* i : web_) i->eraseFromParent();
  }

 private:
  // The wide value of v, for a use placed before `before`.
  llvm::Value* get(llvm::Value* v, llvm::Instruction* before) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i || !web_.contains(i)) {
      llvm::IRBuilder<> b(before);
      return b.CreateZExt(v, wide_);  // folds for constants
    }
    if (auto it = wide_of_.find(i); it != wide_of_.end()) return it->second;
    llvm::IRBuilder<> b(i);
    llvm::Value* w = nullptr;
    if (auto* s = llvm::dyn_cast<llvm::SelectInst>(i)) {
      w = b.CreateSelect(s->getCondition(), get(s->getTrueValue(), i), get(s->getFalseValue(), i),
                         i->getName() + ".wide");
    } else {
      auto* bo = llvm::cast<llvm::BinaryOperator>(i);
      w = b.CreateBinOp(bo->getOpcode(), get(bo->getOperand(0), i), get(bo->getOperand(1), i),
                        i->getName() + ".wide");
    }
    wide_of_[i] = w;
    return w;
  }

  // The narrow value again, right after its wide definition.
  llvm::Value* narrow_of(llvm::Instruction* member) {
    if (auto it = narrow_again_.find(member); it != narrow_again_.end()) return it->second;
    llvm::Value* wide = wide_of_[member];
    auto* w = llvm::dyn_cast<llvm::Instruction>(wide);
    if (!w) {  // folded to a constant by the builder: the trunc folds too
      llvm::IRBuilder<> b(member);
      return narrow_again_[member] = b.CreateTrunc(wide, narrow_);
    }
    llvm::IRBuilder<> b(w->getParent(), llvm::isa<llvm::PHINode>(w) ? w->getParent()->getFirstInsertionPt()
                                                                     : std::next(w->getIterator()));
    llvm::Value* t = b.CreateTrunc(w, narrow_, member->getName() + ".narrow");
    narrow_again_[member] = t;
    return t;
  }

  void redirect_outside_uses() {
    llvm::SmallVector<llvm::Instruction*, 8> dead_zexts;
    for (llvm::Instruction* m : web_) {
      llvm::SmallVector<llvm::Use*, 8> outside;
      for (llvm::Use& u : m->uses())
        if (!web_.contains(llvm::cast<llvm::Instruction>(u.getUser()))) outside.push_back(&u);
      for (llvm::Use* u : outside) {
        auto* user = llvm::cast<llvm::Instruction>(u->getUser());
        if (auto* z = llvm::dyn_cast<llvm::ZExtInst>(user)) {
          llvm::IRBuilder<> b(z);
          llvm::Type* to = z->getType();
          llvm::Value* w = wide_of_[m];
          llvm::Value* r = to == wide_ ? w
                           : to->getIntegerBitWidth() > wide_->getBitWidth() ? b.CreateZExt(w, to)
                                                                             : b.CreateTrunc(w, to);
          z->replaceAllUsesWith(r);
          dead_zexts.push_back(z);
          continue;
        }
        u->set(narrow_of(m));
      }
    }
    for (llvm::Instruction* z : dead_zexts) z->eraseFromParent();
  }

  const llvm::SmallSetVector<llvm::Instruction*, 16>& web_;
  llvm::Type* narrow_;
  llvm::IntegerType* wide_;
  llvm::DenseMap<llvm::Instruction*, llvm::Value*> wide_of_;
  llvm::DenseMap<llvm::Instruction*, llvm::Value*> narrow_again_;
};

// i64 when a user already zero-extends to 64 bits (the extension disappears), else i32.
llvm::IntegerType* wide_type(const llvm::SmallSetVector<llvm::Instruction*, 16>& web, llvm::LLVMContext& ctx) {
  for (llvm::Instruction* m : web)
    for (const llvm::User* u : m->users())
      if (const auto* z = llvm::dyn_cast<llvm::ZExtInst>(u); z && z->getType()->isIntegerTy(64))
        return llvm::Type::getInt64Ty(ctx);
  return llvm::Type::getInt32Ty(ctx);
}

}  // namespace

int widen_narrow_phis(llvm::Function& f) {
  int widened = 0;
  // Each widening erases its web, phis included: rescan from the top until nothing is left.
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock& bb : f) {
      for (llvm::PHINode& phi : bb.phis()) {
        if (!is_narrow(phi.getType())) continue;
        llvm::SmallSetVector<llvm::Instruction*, 16> web = collect_web(phi);
        if (!carried(web)) continue;
        Widener(web, phi.getType(), wide_type(web, f.getContext())).run();
        ++widened;
        changed = true;
        break;
      }
      if (changed) break;
    }
  }
  return widened;
}

llvm::PreservedAnalyses WidenNarrowPhisPass::run(llvm::Function& f, llvm::FunctionAnalysisManager&) {
  if (widen_narrow_phis(f) == 0) return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses pa;
  pa.preserveSet<llvm::CFGAnalyses>();
  return pa;
}

}  // namespace dace::jit
