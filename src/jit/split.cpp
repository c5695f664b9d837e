#include "jit/split.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <set>
#include <system_error>
#include <thread>

#include "jit/bitcode.h"

namespace dace::jit {
namespace {

// A function that has to exist once, as a symbol: it is called from outside (entry point),
// its address is taken (handed to the parallel runtime) or it must not be inlined.
bool is_unit(const llvm::Function& f) {
  return !f.hasLocalLinkage() || f.hasFnAttribute(llvm::Attribute::NoInline) || f.hasAddressTaken();
}

// Defined local functions `f` calls directly that are not units themselves.
std::vector<const llvm::Function*> inlinable_callees(const llvm::Function& f) {
  std::vector<const llvm::Function*> out;
  for (const llvm::BasicBlock& bb : f)
    for (const llvm::Instruction& inst : bb)
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (const llvm::Function* callee = call->getCalledFunction())
          if (!callee->isDeclaration() && !is_unit(*callee) &&
              std::find(out.begin(), out.end(), callee) == out.end())
            out.push_back(callee);
  return out;
}

// `root` and every non-unit function reachable from it through direct calls.
void close_over_calls(const llvm::Function* root, std::set<const llvm::Function*>& members) {
  std::vector<const llvm::Function*> work{root};
  while (!work.empty()) {
    const llvm::Function* f = work.back();
    work.pop_back();
    if (!members.insert(f).second) continue;
    for (const llvm::Function* callee : inlinable_callees(*f)) work.push_back(callee);
  }
}

bool references_globals(const llvm::Constant* c) {
  if (llvm::isa<llvm::GlobalValue>(c)) return true;
  for (const llvm::Use& op : c->operands())
    if (const auto* inner = llvm::dyn_cast<llvm::Constant>(op.get()); inner && references_globals(inner))
      return true;
  return false;
}

// A local constant of plain data: each piece that reads it gets its own copy.
bool is_copied_constant(const llvm::GlobalVariable& g) {
  return g.hasLocalLinkage() && g.isConstant() && g.hasInitializer() && !references_globals(g.getInitializer());
}

void make_hidden_symbol(llvm::GlobalValue& g, int& unnamed) {
  if (!g.hasName()) g.setName("__dace_piece_symbol." + std::to_string(unnamed++));
  g.setLinkage(llvm::GlobalValue::ExternalLinkage);
  g.setVisibility(llvm::GlobalValue::HiddenVisibility);
}

// Declarations and local copies a piece does not use, and references made position
// independent: a symbol of another piece may lie anywhere, so it is not `dso_local`.
void tidy_piece(llvm::Module& piece) {
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function& f : llvm::make_early_inc_range(piece.functions()))
      if ((f.isDeclaration() || f.hasLocalLinkage()) && f.use_empty() && !f.isIntrinsic()) {
        f.eraseFromParent();
        changed = true;
      }
    for (llvm::GlobalVariable& g : llvm::make_early_inc_range(piece.globals()))
      if ((g.isDeclaration() || g.hasLocalLinkage()) && g.use_empty()) {
        g.eraseFromParent();
        changed = true;
      }
  }
  for (llvm::GlobalObject& g : piece.global_objects())
    if (g.isDeclaration() && g.hasHiddenVisibility()) {
      g.setVisibility(llvm::GlobalValue::DefaultVisibility);
      g.setDSOLocal(false);
    }
}

}  // namespace

int planned_pieces(uint64_t instructions, uint64_t piece_instructions) {
  if (piece_instructions == 0) {
    // DACE_JIT_PIECE_INSTRUCTIONS: for measuring the threshold (a huge value: no split).
    const char* env = std::getenv("DACE_JIT_PIECE_INSTRUCTIONS");
    long long n = env ? std::atoll(env) : 0;
    piece_instructions = n > 0 ? static_cast<uint64_t>(n) : kDefaultPieceInstructions;
  }
  uint64_t n = instructions / piece_instructions;
  if (n < 2) return 1;
  return static_cast<int>(std::min<uint64_t>(n, kMaxPieces));
}

std::vector<std::string> split_module(llvm::Module& module, int pieces) {
  if (pieces < 2 || !module.alias_empty() || !module.ifunc_empty() || !module.getComdatSymbolTable().empty())
    return {};
  for (const llvm::GlobalVariable& g : module.globals())
    if (g.hasAppendingLinkage()) return {};

  // Units in module order with their sizes (the unit and what it inlines).
  struct Unit {
    llvm::Function* root;
    size_t order;
    uint64_t size = 0;
  };
  std::vector<Unit> units;
  for (llvm::Function& f : module) {
    if (f.isDeclaration() || !is_unit(f)) continue;
    Unit u{&f, units.size()};
    std::set<const llvm::Function*> members;
    close_over_calls(&f, members);
    for (const llvm::Function* m : members) u.size += m->getInstructionCount();
    units.push_back(u);
  }
  if (units.size() < 2) return {};
  const size_t n = std::min<size_t>(static_cast<size_t>(pieces), units.size());

  // Largest unit first onto the least loaded piece; ties by module order and piece index.
  std::vector<Unit> by_size = units;
  std::stable_sort(by_size.begin(), by_size.end(), [](const Unit& a, const Unit& b) { return a.size > b.size; });
  std::vector<uint64_t> load(n, 0);
  std::vector<std::set<const llvm::Function*>> members(n);
  for (const Unit& u : by_size) {
    size_t best = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    load[best] += u.size;
    close_over_calls(u.root, members[best]);
  }

  int unnamed = 0;
  for (const Unit& u : units)
    if (u.root->hasLocalLinkage()) make_hidden_symbol(*u.root, unnamed);
  for (llvm::GlobalVariable& g : module.globals())
    if (g.hasLocalLinkage() && !is_copied_constant(g)) make_hidden_symbol(g, unnamed);

  std::vector<std::string> out;
  const std::string id = module.getModuleIdentifier();
  for (size_t p = 0; p < n; ++p) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> piece = llvm::CloneModule(module, map, [&](const llvm::GlobalValue* g) {
      if (const auto* f = llvm::dyn_cast<llvm::Function>(g)) return members[p].count(f) > 0;
      if (const auto* v = llvm::dyn_cast<llvm::GlobalVariable>(g)) return is_copied_constant(*v) || p == 0;
      return true;
    });
    piece->setModuleIdentifier(id + ".part" + std::to_string(p));
    tidy_piece(*piece);
    out.push_back(write_bitcode(*piece));
  }
  return out;
}

int usable_threads() {
  if (const char* env = std::getenv("DACE_JIT_THREADS")) {
    int n = std::atoi(env);
    if (n >= 1) return n;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n >= 1) return n;
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void run_on_threads(size_t n, int threads, const std::function<void(size_t)>& task) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) task(i);
  };
  size_t extra = std::min<size_t>(n, static_cast<size_t>(std::max(threads, 1))) - (n > 0 ? 1 : 0);
  std::vector<std::thread> pool;
  pool.reserve(extra);
  for (size_t t = 0; t < extra; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // no thread to be had (e.g. no memory for its stack): fewer workers do it all
    }
  }
  worker();
  for (std::thread& t : pool) t.join();
}

}  // namespace dace::jit
