#include "common.h"

#include <nlohmann/json.hpp>

#include "codegen/addressing.h"
#include "codegen/run_status.h"

namespace dace::mpi {

using json = nlohmann::json;

namespace {

int edge_at(codegen::LibraryNodeContext& c, const std::string& conn, bool input) {
  return input ? c.se.in_edge_at(c.node_id, conn) : c.se.out_edge_at(c.node_id, conn);
}

bool provably_equal(sym::Expr a, sym::Expr b) {
  if (a == b) return true;
  std::optional<bool> p = sym::prove(sym::eq(a, b));
  return p && *p;
}

std::vector<std::string> string_list(const json& j) {
  std::vector<std::string> out;
  if (!j.is_array()) return out;
  for (const json& e : j) out.push_back(e.is_string() ? e.get<std::string>() : e.dump());
  return out;
}

std::vector<int32_t> int_list(const json& j) {
  std::vector<int32_t> out;
  if (!j.is_array()) return out;
  for (const json& e : j) out.push_back(e.is_boolean() ? (e.get<bool>() ? 1 : 0) : e.is_number() ? e.get<int32_t>() : 0);
  return out;
}

const json* attrs_of(const json& entry) {
  auto a = entry.find("attributes");
  return a != entry.end() && a->is_object() ? &*a : nullptr;
}

}  // namespace

bool has_edge(codegen::LibraryNodeContext& c, const std::string& conn, bool input) { return edge_at(c, conn, input) >= 0; }

Result<Buffer> buffer(codegen::LibraryNodeContext& c, const std::string& conn, bool input, bool allow_strided) {
  int e = edge_at(c, conn, input);
  if (e < 0) return make_error(Code::InvalidSdfg, c.where() + ": connector \"" + conn + "\" has no edge");
  Result<codegen::Operand> op = codegen::library_operand(c.se, c.node_id, conn, input);
  if (!op) return op.take_error();
  const ir::Memlet& m = c.se.state.edge(e)->memlet;
  const ir::DataDescriptor& d = *op->data.desc;
  Buffer b;
  b.data = m.data;
  b.ptr = op->base;
  b.dtype = dtype_code(d.dtype.scalar);
  if (b.dtype < 0 || !d.dtype.opaque.empty() || d.dtype.pointer_depth > 0)
    return make_error(Code::Unsupported, c.where() + ": connector \"" + conn + "\": element type " +
                                             ir::to_string(d.dtype) + " has no MPI datatype here");
  sym::Subset subset = m.subset.rank() ? m.subset : codegen::full_subset(d);
  std::vector<sym::Expr> sizes = sym::size(subset);
  sym::Expr count = sym::integer(1);
  // Contiguous: the dimensions that are not 1 wide have unit steps, the last of them stride
  // 1 and each earlier one the stride of the next times its size. Strided (where allowed):
  // the longest such contiguous block of the innermost dimensions, then every further
  // dimension that is not 1 wide as an outer level of its size and its stride times its step
  // (DaCe builds MPI vector types for 2-D arrays only).
  sym::Expr expected = nullptr;
  sym::Expr block = sym::integer(1);
  std::vector<std::pair<sym::Expr, sym::Expr>> outer;  // innermost first while collecting
  const std::string not_contiguous = c.where() + ": connector \"" + conn + "\": the subset of \"" + m.data + "\" is ";
  for (size_t i = sizes.size(); i-- > 0;) {
    count = sym::mul(count, sizes[i]);
    if (codegen::is_one(sizes[i])) continue;
    if (d.kind == ir::DataKind::Scalar || i >= d.strides.size())
      return make_error(Code::Unsupported, not_contiguous + "not contiguous");
    bool ok = outer.empty() && codegen::is_one(subset.dims[i].step) &&
              provably_equal(d.strides[i], expected ? expected : sym::integer(1));
    if (ok) {
      expected = sym::mul(d.strides[i], sizes[i]);
      block = sym::mul(block, sizes[i]);
      continue;
    }
    if (!allow_strided)
      return make_error(Code::Unsupported, not_contiguous + "not contiguous (this node takes contiguous buffers only)");
    outer.emplace_back(sizes[i], sym::mul(d.strides[i], subset.dims[i].step));
  }
  b.count_expr = count;
  Result<llvm::Value*> n = c.frame().sym(count);
  if (!n) return n.take_error();
  b.count = *n;
  b.block = b.count;
  if (!outer.empty()) {
    Result<llvm::Value*> bl = c.frame().sym(block);
    if (!bl) return bl.take_error();
    b.block = *bl;
    for (size_t k = outer.size(); k-- > 0;) {  // outermost first
      Result<llvm::Value*> size = c.frame().sym(outer[k].first);
      if (!size) return size.take_error();
      Result<llvm::Value*> stride = c.frame().sym(outer[k].second);
      if (!stride) return stride.take_error();
      b.outer.push_back(*size);
      b.outer.push_back(*stride);
    }
  }
  return b;
}

std::vector<llvm::Value*> layout_args(codegen::Frame& f, const Buffer& b) {
  llvm::Value* levels = f.b.getInt32(static_cast<int32_t>(b.outer.size() / 2));
  llvm::Value* pairs = b.outer.empty() ? static_cast<llvm::Value*>(llvm::ConstantPointerNull::get(f.b.getPtrTy()))
                                       : i64_array(f, b.outer);
  return {b.block, levels, pairs};
}

Buffer staged(codegen::LibraryNodeContext& c, const Buffer& b, int32_t slot) {
  if (!b.strided()) return b;
  codegen::Frame& f = c.frame();
  llvm::AllocaInst* out = f.entry_alloca(f.b.getPtrTy(), "mpi.staged");
  std::vector<llvm::Value*> args{c.program_state(kStateKey), f.b.getInt32(slot), b.ptr, b.count};
  for (llvm::Value* v : layout_args(f, b)) args.push_back(v);
  args.push_back(f.b.getInt32(b.dtype));
  args.push_back(out);
  call_checked(c, "dace_mpi_stage", args);
  Buffer copy = b;
  copy.ptr = f.b.CreateLoad(f.b.getPtrTy(), out, "mpi.staged." + b.data);
  copy.block = copy.count;
  copy.outer.clear();
  return copy;
}

void unstage(codegen::LibraryNodeContext& c, const Buffer& original, int32_t slot) {
  if (!original.strided()) return;
  codegen::Frame& f = c.frame();
  std::vector<llvm::Value*> args{c.program_state(kStateKey), f.b.getInt32(slot), original.ptr, original.count};
  for (llvm::Value* v : layout_args(f, original)) args.push_back(v);
  args.push_back(f.b.getInt32(original.dtype));
  call_checked(c, "dace_mpi_unstage", args);
}

Result<llvm::Value*> scalar_input(codegen::LibraryNodeContext& c, const std::string& conn) {
  Result<codegen::Operand> op = codegen::library_operand(c.se, c.node_id, conn, true);
  if (!op) return op.take_error();
  ScalarType t = op->type == ScalarType::Unknown ? ScalarType::Int64 : op->type;
  codegen::TypedValue v = codegen::load_scalar(c.builder(), op->base, t, conn.c_str());
  return codegen::as_i64(c.builder(), v);
}

std::optional<std::string> string_property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  if (it == n.properties.end()) return std::nullopt;
  json j = json::parse(it->second, nullptr, false);
  if (j.is_string()) return j.get<std::string>();
  return std::nullopt;
}

int32_t Distribution::grid_index(const std::string& name) const {
  for (size_t i = 0; i < grids.size(); ++i)
    if (grids[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

int32_t Distribution::subarray_index(const std::string& name) const {
  for (size_t i = 0; i < subarrays.size(); ++i)
    if (subarrays[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

const RedistrSpec* Distribution::redistribution(const std::string& name) const {
  for (const RedistrSpec& r : redistributions)
    if (r.name == name) return &r;
  return nullptr;
}

Result<Distribution> distribution(const ir::SDFG& sdfg) {
  Distribution out;
  auto parse = [&](const char* key, json& j) -> Status {
    auto it = sdfg.extra.find(key);
    if (it == sdfg.extra.end()) {
      j = json::object();
      return Status::success();
    }
    j = json::parse(it->second, nullptr, false);
    if (!j.is_object())
      return make_error(Code::InvalidSdfg, "sdfg " + ir::quoted(sdfg.name) + ": " + key + " is not a JSON object");
    return Status::success();
  };
  json grids, subarrays, redistributions;
  DACE_TRY(parse("_pgrids", grids));
  DACE_TRY(parse("_subarrays", subarrays));
  DACE_TRY(parse("_rdistrarrays", redistributions));
  for (auto it = grids.begin(); it != grids.end(); ++it) {  // nlohmann's object: sorted by name
    const json* a = attrs_of(it.value());
    if (!a) return make_error(Code::InvalidSdfg, "sdfg " + ir::quoted(sdfg.name) + ": process grid " + ir::quoted(it.key()) + " has no attributes");
    GridSpec g;
    g.name = it.key();
    g.is_subgrid = a->value("is_subgrid", false);
    g.shape = string_list(a->value("shape", json::array()));
    if (auto p = a->find("parent_grid"); p != a->end() && p->is_string()) g.parent = p->get<std::string>();
    g.color = int_list(a->value("color", json::array()));
    if (auto x = a->find("exact_grid"); x != a->end() && !x->is_null())
      g.exact_grid = x->is_string() ? x->get<std::string>() : x->dump();
    out.grids.push_back(std::move(g));
  }
  for (auto it = subarrays.begin(); it != subarrays.end(); ++it) {
    const json* a = attrs_of(it.value());
    if (!a) return make_error(Code::InvalidSdfg, "sdfg " + ir::quoted(sdfg.name) + ": subarray " + ir::quoted(it.key()) + " has no attributes");
    SubArraySpec s;
    s.name = it.key();
    s.dtype = a->value("dtype", std::string("float64"));
    s.pgrid = a->value("pgrid", std::string());
    s.shape = string_list(a->value("shape", json::array()));
    s.subshape = string_list(a->value("subshape", json::array()));
    s.correspondence = int_list(a->value("correspondence", json::array()));
    if (s.correspondence.empty())
      for (size_t i = 0; i < s.shape.size(); ++i) s.correspondence.push_back(static_cast<int32_t>(i));
    out.subarrays.push_back(std::move(s));
  }
  for (auto it = redistributions.begin(); it != redistributions.end(); ++it) {
    const json* a = attrs_of(it.value());
    auto name_at = [&](const char* key) -> const json* {
      if (!a) return nullptr;
      auto f = a->find(key);
      return f != a->end() && f->is_string() ? &*f : nullptr;
    };
    const json* from = name_at("array_a");
    const json* to = name_at("array_b");
    if (!from || !to)
      return make_error(Code::InvalidSdfg, "sdfg " + ir::quoted(sdfg.name) + ": redistribution " + ir::quoted(it.key()) +
                                               " has no array_a and array_b subarray names");
    out.redistributions.push_back({it.key(), from->get<std::string>(), to->get<std::string>()});
  }
  return out;
}

const ir::SDFG& root_sdfg(const codegen::Frame& f) {
  const codegen::SdfgContext* sc = &f.sc;
  while (sc->parent) sc = sc->parent;
  return sc->sdfg;
}

Result<int32_t> grid_property(codegen::LibraryNodeContext& c, const std::string& key) {
  std::optional<std::string> name = string_property(c.node(), key);
  if (!name || name->empty()) return -1;
  Result<Distribution> d = distribution(root_sdfg(c.frame()));
  if (!d) return d.take_error();
  int32_t i = d->grid_index(*name);
  if (i < 0) return make_error(Code::InvalidSdfg, c.where() + ": " + key + " names process grid " + ir::quoted(*name) + ", which the SDFG does not define (_pgrids)");
  return i;
}

int32_t dtype_code(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return 0;
    case ScalarType::Int8: return 1;
    case ScalarType::Int16: return 2;
    case ScalarType::Int32: return 3;
    case ScalarType::Int64: return 4;
    case ScalarType::UInt8: return 5;
    case ScalarType::UInt16: return 6;
    case ScalarType::UInt32: return 7;
    case ScalarType::UInt64: return 8;
    case ScalarType::Float32: return 9;
    case ScalarType::Float64: return 10;
    case ScalarType::Complex64: return 11;
    case ScalarType::Complex128: return 12;
    default: return -1;
  }
}

Result<int32_t> op_code(const std::string& op, const std::string& where) {
  static const char* names[] = {"MPI_SUM", "MPI_PROD", "MPI_MIN", "MPI_MAX", "MPI_LAND",
                                "MPI_LOR", "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR"};
  for (int32_t i = 0; i < 10; ++i)
    if (op == names[i]) return i;
  return make_error(Code::Unsupported, where + ": reduction operation " + ir::quoted(op) + " is not one of MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR");
}

llvm::Value* call_runtime(codegen::Frame& f, const std::string& name, const std::vector<llvm::Value*>& args) {
  std::vector<llvm::Type*> types;
  for (llvm::Value* a : args) types.push_back(a->getType());
  llvm::FunctionType* ft = llvm::FunctionType::get(f.b.getInt32Ty(), types, false);
  llvm::FunctionCallee fn = f.mc.module.getOrInsertFunction(name, ft);
  return f.b.CreateCall(fn, args);
}

llvm::BasicBlock* record_if_failed(codegen::Frame& f, llvm::Value* status, llvm::Value* state, const std::string& where,
                      llvm::BasicBlock* after_failure) {
  llvm::BasicBlock* failed = llvm::BasicBlock::Create(f.mc.ctx, "mpi.failed", f.fn);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(f.mc.ctx, "mpi.ok", f.fn);
  f.b.CreateCondBr(f.b.CreateICmpNE(status, f.b.getInt32(0)), failed, ok);
  f.b.SetInsertPoint(failed);
  llvm::FunctionType* ft = llvm::FunctionType::get(f.b.getPtrTy(), {f.b.getPtrTy(), f.b.getPtrTy()}, false);
  llvm::FunctionCallee message = f.mc.module.getOrInsertFunction("dace_mpi_error_message", ft);
  llvm::Value* what = f.b.CreateCall(message, {state, f.b.CreateGlobalString(where, "mpi.where")});
  f.record_failure(f.b.getInt32(static_cast<int32_t>(codegen::RunStatus::LibraryFailure)), what,
                   f.b.CreateSExt(status, f.b.getInt64Ty()));
  llvm::BasicBlock* from = f.b.GetInsertBlock();
  if (after_failure) {
    f.b.CreateBr(after_failure);
  } else {
    f.leave_if(f.b.getTrue());
    f.b.CreateBr(ok);
  }
  f.b.SetInsertPoint(ok);
  return from;
}

void call_checked(codegen::LibraryNodeContext& c, const std::string& name, const std::vector<llvm::Value*>& args) {
  llvm::Value* status = call_runtime(c.frame(), name, args);
  record_if_failed(c.frame(), status, args.front(), c.where(), nullptr);
}

llvm::Value* i64_array(codegen::Frame& f, const std::vector<llvm::Value*>& values) {
  llvm::Type* t = llvm::ArrayType::get(f.b.getInt64Ty(), std::max<size_t>(1, values.size()));
  llvm::AllocaInst* a = f.entry_alloca(t, "mpi.i64s");
  for (size_t i = 0; i < values.size(); ++i)
    f.b.CreateStore(values[i], f.b.CreateConstInBoundsGEP2_64(t, a, 0, i));
  return a;
}

llvm::Value* i32_array(codegen::Frame& f, const std::vector<int32_t>& values) {
  llvm::Type* t = llvm::ArrayType::get(f.b.getInt32Ty(), std::max<size_t>(1, values.size()));
  llvm::AllocaInst* a = f.entry_alloca(t, "mpi.i32s");
  for (size_t i = 0; i < values.size(); ++i)
    f.b.CreateStore(f.b.getInt32(values[i]), f.b.CreateConstInBoundsGEP2_64(t, a, 0, i));
  return a;
}

}  // namespace dace::mpi
