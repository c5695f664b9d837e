#include "codegen/registry_query.h"

#include "codegen/lower.h"
#include "plugin/registry.h"

namespace dace::codegen {

std::shared_ptr<const plugin::ScheduleLowering> host_parallel_schedule(const LowerOptions& options) {
  if (!options.registry) return nullptr;
  for (const std::string& name : options.registry->schedule_names()) {
    std::shared_ptr<const plugin::ScheduleLowering> lowering = options.registry->find_schedule(name);
    if (lowering && lowering->hosts_default_maps()) return lowering;
  }
  return nullptr;
}

Result<std::string> parallel_for_entry(const LowerOptions& options, const std::string& where) {
  std::shared_ptr<const plugin::ScheduleLowering> host = host_parallel_schedule(options);
  if (!host)
    return make_error(Code::PluginUnavailable,
                      where + ": no loaded plugin provides the host's parallel schedule (is the CPU plugin installed?)");
  std::string entry(host->runtime_entry());
  if (entry.empty())
    return make_error(Code::PluginUnavailable, where + ": the host's parallel schedule names no runtime entry");
  return entry;
}

std::string blas_classpath(const std::string& short_class) {
  if (short_class == "MatMul") return "dace.libraries.blas.nodes.matmul.MatMul";
  if (short_class == "Gemm") return "dace.libraries.blas.nodes.gemm.Gemm";
  if (short_class == "Gemv") return "dace.libraries.blas.nodes.gemv.Gemv";
  if (short_class == "Dot") return "dace.libraries.blas.nodes.dot.Dot";
  return "";
}

bool vendor_implementation(const LowerOptions& options, const std::string& classpath,
                           const std::string& implementation) {
  if (!options.use_vendor_libraries || !options.registry || classpath.empty()) return false;
  auto impl = options.registry->find_expansion(classpath, implementation);
  if (!impl || !impl->available()) return false;
  std::string lib(impl->vendor_library());
  return lib.empty() || options.registry->vendor_library_available(lib);
}

std::string options_fingerprint_for(const LowerOptions& options, const std::set<std::string>* classes) {
  std::string s = "par=" + std::to_string(options.parallelize_default_maps) +
                  ";noalias=" + std::to_string(options.noalias_arguments) +
                  ";fast=" + std::to_string(options.fast_math) +
                  ";threads=" + std::to_string(options.default_num_threads) +
                  ";inline_small=" + std::to_string(options.inline_small_parallel_maps) +
                  ";emulate_device=" + std::to_string(options.emulate_device);
  if (options.bounds_check) s += ";bounds_check=1";  // keys without it stay as they were
  if (options.max_concurrent_streams != 0) s += ";streams=" + std::to_string(options.max_concurrent_streams);
  Result<std::string> entry = parallel_for_entry(options, "");
  s += ";parallel_for=" + (entry ? *entry : std::string("-"));
  // Which plugin implementations may lower library nodes to IR here (vendor calls: the CPU
  // plugin's CBLAS and LAPACKE), by class: the same SDFG lowers differently when one of
  // their vendor libraries did not load or vendor libraries are off.
  s += ";vendor=" + std::to_string(options.use_vendor_libraries) + ";lowerings=";
  if (options.registry)
    for (const std::string& cls : options.registry->expansion_classes()) {
      if (classes && !classes->count(cls)) continue;
      for (const std::string& name : options.registry->expansion_implementations(cls)) {
        std::shared_ptr<const plugin::LibraryExpansion> impl = options.registry->find_expansion(cls, name);
        if (!impl || !impl->lowers_to_ir() || impl->lowers_device_operands()) continue;
        s += cls + ":" + name + "=" + (vendor_implementation(options, cls, name) ? "1" : "0") + ",";
      }
    }
  return s;
}

std::string options_fingerprint(const LowerOptions& options) { return options_fingerprint_for(options, nullptr); }

PluginLowering plugin_lowering(const LowerOptions& options, const ir::LibraryNode& node, bool device_operands) {
  if (!options.registry) return nullptr;
  auto usable = [&](const PluginLowering& impl) {
    if (!impl || !impl->lowers_to_ir() || !impl->available()) return false;
    if (impl->lowers_device_operands() != device_operands) return false;
    std::string lib(impl->vendor_library());
    return lib.empty() || options.registry->vendor_library_available(lib);
  };
  if (!node.implementation.empty()) {
    PluginLowering own = options.registry->find_expansion(node.classpath, node.implementation);
    if (usable(own)) return own;
  }
  for (const std::string& name : options.registry->expansion_implementations(node.classpath)) {
    PluginLowering impl = options.registry->find_expansion(node.classpath, name);
    if (usable(impl)) return impl;
  }
  return nullptr;
}

std::string plugin_lowering_unavailable(const LowerOptions& options, const ir::LibraryNode& node) {
  if (!options.registry) return {};
  std::string out;
  for (const std::string& name : options.registry->expansion_implementations(node.classpath)) {
    PluginLowering impl = options.registry->find_expansion(node.classpath, name);
    if (!impl || !impl->lowers_to_ir() || impl->lowers_device_operands()) continue;
    std::string why;
    const std::string lib(impl->vendor_library());
    if (!impl->available()) {
      why = "is unavailable (its plugin withdrew it)";
    } else if (!lib.empty() && !options.registry->vendor_library_available(lib)) {
      why = "needs the vendor library \"" + lib + "\", which cannot be loaded";
      for (const plugin::VendorLibrary& v : options.registry->known_vendor_libraries())
        if (v.name == lib && !v.error.empty()) why += ": " + v.error;
    } else {
      continue;  // usable: plugin_lowering would have taken it
    }
    out += (out.empty() ? "" : "; ") + std::string("implementation \"") + name + "\" " + why;
  }
  return out;
}

}  // namespace dace::codegen
