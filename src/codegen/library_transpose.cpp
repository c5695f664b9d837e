// Transpose (2-D, DaCe's standard library) and TensorTranspose (N-D with a permutation `axes`
// and scaling: out = alpha * permute(in) + beta * out). DaCe's pure expansion iterates over the
// input and writes output element [p[axes[0]], p[axes[1]], ...] for input element [p...].
#include <cstdlib>

#include "codegen/library_nodes.h"
#include "codegen/loops.h"

namespace dace::codegen {

namespace {

// A JSON number (or absent: `fallback`); nullopt when the property is not a plain number.
std::optional<double> number_property(const ir::LibraryNode& n, const std::string& key, double fallback) {
  std::string text = library_property(n, key);
  if (text.empty() || text == "null") return fallback;
  if (text.size() >= 2 && text.front() == '"') text = text.substr(1, text.size() - 2);
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return std::nullopt;
  return v;
}

}  // namespace

Status emit_transpose(StateEmitter& se, int node) {
  Frame& f = *se.f;
  Result<Operand> in = library_operand(se, node, "_inp", true);
  if (!in) return in.take_error();
  Result<Operand> out = library_operand(se, node, "_out", false);
  if (!out) return out.take_error();
  if (in->sizes.size() != 2 || out->sizes.size() != 2)
    return make_error(Code::Unsupported, se.where(node) + ": Transpose supports 2-D operands");
  llvm::IRBuilder<>& b = f.b;
  CountedLoop li = begin_loop(b, b.getInt64(0), in->size_values[0], "tr.i");
  CountedLoop lj = begin_loop(b, b.getInt64(0), in->size_values[1], "tr.j");
  TypedValue v = load_scalar(b, operand_element(f, *in, {li.iv, lj.iv}), in->type);
  store_scalar(b, convert_typed(b, v, out->type), operand_element(f, *out, {lj.iv, li.iv}));
  end_loop(b, lj);
  end_loop(b, li);
  return Status::success();
}

Status emit_tensor_transpose(StateEmitter& se, int node) {
  Frame& f = *se.f;
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  auto refuse = [&](const std::string& why) {
    return make_error(Code::Unsupported, se.where(node) + ": TensorTranspose " + why);
  };
  int in_edge = se.in_edge_at(node, "_inp_tensor");
  if (in_edge < 0) return make_error(Code::InvalidSdfg, se.where(node) + ": connector \"_inp_tensor\" has no edge");
  Result<Operand> in = library_operand(se, node, "_inp_tensor", true);
  if (!in) return in.take_error();
  Result<Operand> out = library_operand(se, node, "_out_tensor", false);
  if (!out) return out.take_error();
  std::optional<std::vector<int64_t>> axes = library_int_list(library_property(n, "axes"));
  if (!axes) return refuse("property \"axes\" is not a list of integers");
  std::optional<double> alpha = number_property(n, "alpha", 1.0), beta = number_property(n, "beta", 0.0);
  if (!alpha || !beta) return refuse("scaling factors alpha/beta must be numbers");

  // Operands come with unit dimensions squeezed out; map each input dimension to its
  // squeezed position, then the permutation onto the squeezed output.
  std::vector<sym::Expr> full = sym::size(se.state.edge(in_edge)->memlet.subset);
  if (full.empty()) full.assign(axes->size(), sym::integer(1));
  if (axes->size() != full.size())
    return refuse("has " + std::to_string(axes->size()) + " axes for a " + std::to_string(full.size()) + "-D input");
  std::vector<int64_t> squeezed_of(full.size(), -1);
  std::vector<bool> seen(full.size(), false);
  int64_t k = 0;
  for (size_t d = 0; d < full.size(); ++d)
    if (!(sym::as_integer(sym::simplify(full[d])) == std::optional<int64_t>(1))) squeezed_of[d] = k++;
  std::vector<int64_t> out_source;  // squeezed output dimension -> squeezed input dimension
  for (int64_t a : *axes) {
    if (a < 0 || a >= static_cast<int64_t>(full.size()) || seen[a]) return refuse("axes are not a permutation");
    seen[a] = true;
    if (squeezed_of[a] >= 0) out_source.push_back(squeezed_of[a]);
  }
  if (out_source.size() != out->sizes.size() || static_cast<size_t>(k) != in->sizes.size())
    return refuse("output shape does not match the permuted input");

  llvm::IRBuilder<>& b = f.b;
  std::vector<CountedLoop> loops;
  std::vector<llvm::Value*> iidx;
  for (llvm::Value* sz : in->size_values) {
    loops.push_back(begin_loop(b, b.getInt64(0), sz, "ttr"));
    iidx.push_back(loops.back().iv);
  }
  std::vector<llvm::Value*> oidx;
  for (int64_t s : out_source) oidx.push_back(iidx[s]);
  TypedValue v = convert_typed(b, load_scalar(b, operand_element(f, *in, iidx), in->type), out->type);
  llvm::Value* dst = operand_element(f, *out, oidx);
  bool is_float = tasklet::is_float(out->type);
  auto constant = [&](double x) {
    return is_float ? constant_float(b, out->type, x) : constant_int(b, out->type, static_cast<int64_t>(x));
  };
  auto mul = [&](llvm::Value* x, llvm::Value* y) { return is_float ? b.CreateFMul(x, y) : b.CreateMul(x, y); };
  llvm::Value* r = *alpha == 1.0 ? v.value : mul(constant(*alpha), v.value);
  if (*beta != 0.0) {
    llvm::Value* old = mul(constant(*beta), load_scalar(b, dst, out->type).value);
    r = is_float ? b.CreateFAdd(r, old) : b.CreateAdd(r, old);
  }
  store_scalar(b, {r, out->type}, dst);
  for (size_t i = loops.size(); i-- > 0;) end_loop(b, loops[i]);
  return Status::success();
}

}  // namespace dace::codegen
