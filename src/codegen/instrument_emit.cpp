#include "codegen/instrument_emit.h"

#include <map>
#include <vector>

#include "codegen/instrument_record.h"
#include "ir/instrument.h"
#include "ir/path.h"

namespace dace::codegen {

// The elements timed by one module, in the order they were lowered (their index is the
// `element` of an event), and DaCe's cfg_list numbering of the regions they sit in.
struct InstrumentTable {
  std::vector<std::string> elements;  // JSON objects
  std::map<const ir::ControlFlowRegion*, int> cfg_ids;
};

namespace {

// DaCe's cfg_list: every control-flow region of the SDFG tree in pre-order (the SDFG, loop
// bodies, conditional branches, nested SDFGs), as the JSON writer numbers cfg_list_id.
void number_regions(const ir::ControlFlowRegion& region, std::map<const ir::ControlFlowRegion*, int>& ids) {
  ids.emplace(&region, static_cast<int>(ids.size()));
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock* b = region.block(slot);
    switch (b->kind) {
      case ir::BlockKind::State: {
        const auto* state = static_cast<const ir::State*>(b);
        for (int id : state->node_ids()) {
          const ir::Node* n = state->node(id);
          if (n->kind != ir::NodeKind::NestedSDFG) continue;
          const auto* nested = static_cast<const ir::NestedSDFGNode*>(n);
          if (nested->sdfg) number_regions(*nested->sdfg, ids);
        }
        break;
      }
      case ir::BlockKind::Loop:
      case ir::BlockKind::Region:
      case ir::BlockKind::SDFG: number_regions(*static_cast<const ir::ControlFlowRegion*>(b), ids); break;
      case ir::BlockKind::Conditional:
        for (const auto& [condition, branch] : static_cast<const ir::ConditionalBlock*>(b)->branches)
          if (branch) number_regions(*branch, ids);
        break;
      default: break;
    }
  }
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\u00";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

int dense_index(const std::vector<int>& live, int slot) {
  for (size_t i = 0; i < live.size(); ++i)
    if (live[i] == slot) return static_cast<int>(i);
  return -1;
}

llvm::GlobalVariable* event_buffer(ModuleContext& mc) {
  if (llvm::GlobalVariable* g = mc.module.getNamedGlobal(kInstrumentSymbol)) return g;
  llvm::Type* i64 = llvm::Type::getInt64Ty(mc.ctx);
  llvm::StructType* event = llvm::StructType::get(mc.ctx, {i64, i64, i64, i64});
  llvm::StructType* ty =
      llvm::StructType::get(mc.ctx, {i64, llvm::ArrayType::get(event, static_cast<uint64_t>(kInstrumentCapacity))});
  return new llvm::GlobalVariable(mc.module, ty, false, llvm::GlobalValue::ExternalLinkage,
                                  llvm::ConstantAggregateZero::get(ty), kInstrumentSymbol);
}

// Registers an element; the first one also schedules the table's constant for the end of
// the lowering (a finisher), when every element is known.
int register_element(Frame& f, const std::string& name, const ir::ControlFlowRegion* region, int state_id,
                     int node_id) {
  ModuleContext& mc = f.mc;
  if (!mc.instrument) {
    mc.instrument = std::make_shared<InstrumentTable>();
    const SdfgContext* root = &f.sc;
    while (root->parent) root = root->parent;
    number_regions(root->sdfg, mc.instrument->cfg_ids);
    event_buffer(mc);
    std::shared_ptr<InstrumentTable> table = mc.instrument;
    mc.finishers.push_back([&mc, table]() -> Status {
      std::string text = "[";
      for (size_t i = 0; i < table->elements.size(); ++i) text += (i ? ",\n " : "") + table->elements[i];
      text += "]";
      llvm::Constant* init = llvm::ConstantDataArray::getString(mc.ctx, text, true);
      new llvm::GlobalVariable(mc.module, init->getType(), true, llvm::GlobalValue::ExternalLinkage, init,
                               kInstrumentElementsSymbol);
      return Status::success();
    });
  }
  auto it = mc.instrument->cfg_ids.find(region);
  int cfg_id = it == mc.instrument->cfg_ids.end() ? -1 : it->second;
  mc.instrument->elements.push_back("{\"name\": " + json_string(name) + ", \"cfg_id\": " + std::to_string(cfg_id) +
                                    ", \"state_id\": " + std::to_string(state_id) +
                                    ", \"id\": " + std::to_string(node_id) + "}");
  return static_cast<int>(mc.instrument->elements.size() - 1);
}

// clock_gettime(CLOCK_MONOTONIC, &ts) from libc, as nanoseconds: the steady clock, and the
// only thing the generated code needs from outside (no libdace runtime, so AOT objects too).
llvm::Value* emit_now(Frame& f) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Type* i64 = b.getInt64Ty();
  llvm::StructType* timespec = llvm::StructType::get(f.mc.ctx, {i64, i64});
  llvm::AllocaInst* ts = f.entry_alloca(timespec, "instr.ts");
  llvm::FunctionCallee clock = f.mc.module.getOrInsertFunction(
      "clock_gettime", llvm::FunctionType::get(b.getInt32Ty(), {b.getInt32Ty(), b.getPtrTy()}, false));
  constexpr int kClockMonotonic = 1;  // Linux and the BSDs' value differ; Linux is the target
  b.CreateCall(clock, {b.getInt32(kClockMonotonic), ts});
  llvm::Value* sec = b.CreateLoad(i64, b.CreateStructGEP(timespec, ts, 0), "instr.sec");
  llvm::Value* nsec = b.CreateLoad(i64, b.CreateStructGEP(timespec, ts, 1), "instr.nsec");
  return b.CreateAdd(b.CreateMul(sec, b.getInt64(1000000000)), nsec, "instr.ns");
}

Result<std::optional<Timer>> start(Frame& f, Result<ir::Instrumentation> kind, const std::string& name,
                                   const ir::ControlFlowRegion* region, int state_id, int node_id) {
  if (!kind) return kind.take_error();
  if (*kind != ir::Instrumentation::Timer) return std::optional<Timer>{};
  Timer t;
  t.element = register_element(f, name, region, state_id, node_id);
  t.start = emit_now(f);
  return std::optional<Timer>{t};
}

std::string node_name(const ir::Node& n) {
  switch (n.kind) {
    case ir::NodeKind::MapEntry: return "Map " + n.label;
    case ir::NodeKind::ConsumeEntry: return "Consume " + n.label;
    case ir::NodeKind::Library: {
      const std::string& cp = static_cast<const ir::LibraryNode&>(n).classpath;
      size_t dot = cp.rfind('.');
      return (cp.empty() ? std::string("LibraryNode") : cp.substr(dot == std::string::npos ? 0 : dot + 1)) + " " +
             n.label;
    }
    default: return std::string(ir::to_string(n.kind)) + " " + n.label;
  }
}

}  // namespace

Result<std::optional<Timer>> start_sdfg_timer(Frame& f) {
  const ir::SDFG& sdfg = f.sc.sdfg;
  return start(f, ir::instrumentation_of(sdfg.extra, ir::path_of(sdfg)), "SDFG " + sdfg.name, &sdfg, -1, -1);
}

Result<std::optional<Timer>> start_state_timer(Frame& f, const ir::State& state) {
  const ir::SDFG& sdfg = f.sc.sdfg;
  const ir::ControlFlowRegion* region = state.parent;
  int state_id = region ? dense_index(region->block_slots(), region->slot_of(&state)) : -1;
  return start(f, ir::instrumentation_of(state.extra, ir::path_of(sdfg, state)), "State " + state.label, region,
               state_id, -1);
}

Result<std::optional<Timer>> start_node_timer(Frame& f, const ir::State& state, int node) {
  const ir::SDFG& sdfg = f.sc.sdfg;
  const ir::Node* n = state.node(node);
  if (!n) return std::optional<Timer>{};
  const ir::ControlFlowRegion* region = state.parent;
  int state_id = region ? dense_index(region->block_slots(), region->slot_of(&state)) : -1;
  return start(f, ir::instrumentation_of(sdfg, state, node), node_name(*n), region, state_id,
               dense_index(state.node_ids(), node));
}

void stop_timer(Frame& f, const Timer& timer) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* end = emit_now(f);
  llvm::GlobalVariable* buffer = event_buffer(f.mc);
  llvm::Type* ty = buffer->getValueType();
  llvm::Value* count = b.CreateStructGEP(ty, buffer, 0);
  llvm::Value* index = b.CreateAtomicRMW(llvm::AtomicRMWInst::Add, count, b.getInt64(1), llvm::MaybeAlign(8),
                                         llvm::AtomicOrdering::Monotonic);
  llvm::BasicBlock* store = llvm::BasicBlock::Create(f.mc.ctx, "instr.store", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "instr.done", f.fn);
  b.CreateCondBr(b.CreateICmpULT(index, b.getInt64(static_cast<uint64_t>(kInstrumentCapacity))), store, done);
  b.SetInsertPoint(store);
  llvm::Value* event = b.CreateInBoundsGEP(ty, buffer, {b.getInt32(0), b.getInt32(1), index});
  llvm::Type* i64 = b.getInt64Ty();
  llvm::StructType* event_ty = llvm::StructType::get(f.mc.ctx, {i64, i64, i64, i64});
  // pthread_self() from libc (glibc >= 2.34 has it there): the recording thread, one load
  // of the thread pointer, so a timer inside a parallel map names the helper that ran it.
  llvm::FunctionCallee self = f.mc.module.getOrInsertFunction("pthread_self", llvm::FunctionType::get(i64, false));
  llvm::Value* thread = b.CreateCall(self, {}, "instr.thread");
  b.CreateStore(b.getInt64(static_cast<uint64_t>(timer.element)), b.CreateStructGEP(event_ty, event, 0));
  b.CreateStore(timer.start, b.CreateStructGEP(event_ty, event, 1));
  b.CreateStore(end, b.CreateStructGEP(event_ty, event, 2));
  b.CreateStore(thread, b.CreateStructGEP(event_ty, event, 3));
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

}  // namespace dace::codegen
