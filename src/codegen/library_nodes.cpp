#include "codegen/library_nodes.h"
#include "codegen/target_lowering.h"

#include <cctype>
#include <cstdlib>
#include <map>

#include "codegen/addressing.h"
#include "codegen/loops.h"
#include "codegen/node_emit.h"
#include "codegen/plugin_nodes.h"
#include "plugin/registry.h"

namespace dace::codegen {

std::string library_property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  return it == n.properties.end() ? std::string() : it->second;
}

std::optional<std::vector<int64_t>> library_int_list(const std::string& text) {
  std::vector<int64_t> out;
  size_t i = 0;
  auto skip = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  skip();
  if (i >= text.size() || text[i] != '[') return std::nullopt;
  ++i;
  for (;;) {
    skip();
    if (i < text.size() && text[i] == ']') return out;
    char* end = nullptr;
    long long v = std::strtoll(text.c_str() + i, &end, 10);
    if (end == text.c_str() + i) return std::nullopt;
    out.push_back(v);
    i = static_cast<size_t>(end - text.c_str());
    skip();
    if (i < text.size() && text[i] == ',') ++i;
    else if (i >= text.size() || text[i] != ']') return std::nullopt;
  }
}

Result<Operand> library_operand(StateEmitter& se, int node, const std::string& conn, bool input) {
  Frame& f = *se.f;
  int e = input ? se.in_edge_at(node, conn) : se.out_edge_at(node, conn);
  if (e < 0) return make_error(Code::InvalidSdfg, se.where(node) + ": connector \"" + conn + "\" has no edge");
  const ir::Memlet& m = se.state.edge(e)->memlet;
  if (m.is_empty()) return make_error(Code::InvalidSdfg, se.where(node) + ": connector \"" + conn + "\" has an empty memlet");
  Result<DataBinding> d = f.data(m.data);
  if (!d) return d.take_error();
  Operand op;
  op.data = *d;
  op.type = d->desc->dtype.scalar;
  op.wcr = m.wcr;
  op.nonatomic = m.wcr_nonatomic;
  sym::Subset subset = m.subset.rank() ? m.subset : full_subset(*d->desc);
  Result<llvm::Value*> base = subset_pointer(f, *d, subset);
  if (!base) return base.take_error();
  op.base = *base;
  Result<std::vector<llvm::Value*>> strides = container_strides(f, *d->desc);
  if (!strides) return strides.take_error();
  std::vector<sym::Expr> sizes = sym::size(subset);
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (is_one(sizes[i])) continue;
    Result<llvm::Value*> n = f.sym(sizes[i]);
    if (!n) return n.take_error();
    llvm::Value* stride = i < strides->size() ? (*strides)[i] : f.b.getInt64(0);
    if (!is_one(subset.dims[i].step)) {
      Result<llvm::Value*> step = f.sym(subset.dims[i].step);
      if (!step) return step.take_error();
      stride = f.b.CreateMul(stride, *step);
    }
    op.sizes.push_back(sizes[i]);
    op.size_values.push_back(*n);
    op.strides.push_back(stride);
  }
  return op;
}

llvm::Value* operand_element(Frame& f, const Operand& op, const std::vector<llvm::Value*>& idx) {
  llvm::Value* off = nullptr;
  for (size_t i = 0; i < idx.size() && i < op.strides.size(); ++i) {
    llvm::Value* t = mul_index(f.b, idx[i], op.strides[i]);
    off = off ? add_index(f.b, off, t) : t;
  }
  if (!off) return op.base;
  return f.b.CreateGEP(storage_type(f.mc.ctx, op.type), op.base, off);
}

namespace {

using LibraryLowering = Status (*)(StateEmitter&, int);

// Lowerings by DaCe's full class path: a class of another library with the same short name
// (dace.libraries.mpi.nodes.reduce.Reduce next to the standard Reduce) must never be taken
// for it. Copy/Memset are DaCe main's nodes (DaCe 1.0.2 has none).
const std::map<std::string, LibraryLowering>& library_lowerings() {
  static const std::map<std::string, LibraryLowering> table = {
      {"dace.libraries.blas.nodes.matmul.MatMul", emit_matmul},
      {"dace.libraries.blas.nodes.gemm.Gemm", emit_matmul},
      {"dace.libraries.blas.nodes.gemv.Gemv", emit_matmul},
      {"dace.libraries.blas.nodes.dot.Dot", emit_matmul},
      {"dace.libraries.blas.nodes.batched_matmul.BatchedMatMul", emit_matmul},
      {"dace.libraries.standard.nodes.reduce.Reduce", emit_reduce},
      {"dace.libraries.standard.nodes.transpose.Transpose", emit_transpose},
      {"dace.libraries.standard.nodes.ttranspose.TensorTranspose", emit_tensor_transpose},
      {"dace.libraries.standard.nodes.copy_node.CopyLibraryNode", emit_copy_node},
      {"dace.libraries.standard.nodes.memset_node.MemsetLibraryNode", emit_memset_node},
  };
  return table;
}

// DaCe's library package of a class path: "dace.libraries.X.nodes.y.Y" -> "dace.libraries.X";
// empty for a class outside DaCe's libraries.
std::string library_package(const std::string& classpath) {
  const std::string root = "dace.libraries.";
  if (classpath.rfind(root, 0) != 0) return "";
  const size_t end = classpath.find('.', root.size());
  return end == std::string::npos ? "" : classpath.substr(0, end);
}

// True when a plugin here declares classes of DaCe library `package`: a loaded one registered
// an implementation of one, or a discovered one's manifest names one or a prefix inside it.
bool package_declared(const LowerOptions& options, const std::string& package) {
  const std::string inside = package + ".";
  auto in_package = [&](const std::string& classpath) { return classpath.rfind(inside, 0) == 0; };
  if (options.registry)
    for (const std::string& cls : options.registry->expansion_classes())
      if (in_package(cls)) return true;
  for (const std::string& declared : options.declared_library_classes)
    if (declared == package || in_package(declared)) return true;
  return false;
}

// What a class outside the table needs. The core knows no target: the plugins that lower a
// library's classes say so by registering them (or by their manifests, which load them on
// demand), so a class that reaches this point is one no plugin found here lowers. A class of
// a library some plugin here declares needs a backend plugin (named by its library package);
// any other (DaCe's stencil or FFT libraries, say) is one libdace has no lowering for.
std::string missing_backend(const LowerOptions& options, const std::string& classpath) {
  const std::string package = library_package(classpath);
  if (package == "dace.libraries.lapack" || package == "dace.libraries.linalg")
    return "libdace lowers Solve, Inv, Cholesky, Getrf, Getri, Getrs, Potrf and Potrs of DaCe's LAPACK / "
           "linear-algebra libraries through a plugin's vendor implementation, and none lowers this class here";
  if (package.empty() || package == "dace.libraries.blas" || package == "dace.libraries.standard" ||
      !package_declared(options, package))
    return "libdace has no lowering for this class";
  return "it needs a backend plugin for DaCe's library \"" + package +
         "\", and no plugin that is loaded or found here lowers its nodes";
}

}  // namespace

Status emit_library_node(StateEmitter& se, int node) {
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  // The host lowerings below dereference their operands: a node in host code with operands
  // in a plugin's device storage runs on that device, through an implementation the plugin
  // registered for such operands (LibraryExpansion::lowers_device_operands), or not at all.
  bool device_operands = false;
  for (const std::vector<int>& edges : {se.state.in_edges(node), se.state.out_edges(node)})
    for (int e : edges) {
      const std::string& data = se.state.edge(e)->memlet.data;
      if (data.empty()) continue;
      if (Result<DataBinding> b = se.f->data(data); b && b->desc)
        device_operands = device_operands || !check_host_access(*se.f, *b->desc, data, "").ok();
    }
  if (device_operands) {
    if (PluginLowering impl = plugin_lowering(se.f->mc.options, n, true)) return emit_plugin_library_node(se, node, *impl);
    for (const std::vector<int>& edges : {se.state.in_edges(node), se.state.out_edges(node)})
      for (int e : edges) {
        const std::string& data = se.state.edge(e)->memlet.data;
        if (data.empty()) continue;
        if (Result<DataBinding> b = se.f->data(data); b && b->desc)
          DACE_TRY(check_host_access(*se.f, *b->desc, data, se.where(node) + " (library node " + n.classpath + ")"));
      }
  }
  // A plugin's implementation (a vendor library's call) before the core's own lowering, which
  // is the pure one: a node that asks for "pure" gets the core's where it has one.
  auto it = library_lowerings().find(n.classpath);
  const bool core_lowers = it != library_lowerings().end();
  if (!core_lowers || n.implementation != "pure")
    if (PluginLowering impl = plugin_lowering(se.f->mc.options, n)) return emit_plugin_library_node(se, node, *impl);
  if (core_lowers) return it->second(se, node);
  // A plugin that registered the class but cannot run it here (its vendor library missing)
  // is named as such: "the plugin is not available" would send the user after the wrong thing.
  std::string why = plugin_lowering_unavailable(se.f->mc.options, n);
  if (why.empty()) why = missing_backend(se.f->mc.options, n.classpath);
  return make_error(Code::Unsupported, se.where(node) + ": library node " + n.classpath + " cannot be compiled: " + why);
}

}  // namespace dace::codegen
