#include "pipeline/aot.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "analysis/validate.h"
#include "codegen/lower.h"
#include "codegen/ptx_symbol.h"
#include "codegen/run_status.h"
#include "ir/log.h"
#include "jit/program_abi.h"
#include "pipeline/aot_archive.h"
#include "pipeline/aot_header.h"
#include "pipeline/aot_link.h"
#include "pipeline/library_expansion_step.h"
#include "pipeline/optimize_step.h"
#include "pipeline/plugin_needs.h"

namespace dace::pipeline {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Plugin runtimes an AOT library can link, each built as a library of its own next to
// libdace.so: the CPU runtime (libdace_rt.so, always linked) and the CUDA runtime
// (libdace_cuda_rt.so, built with the CUDA plugin; linked when the program calls it). The MPI
// runtime lives only inside its plugin.
constexpr const char* kRuntimeOwner = "cpu";
struct RuntimeLibrary {
  const char* owner;
  const char* link_name;  // -l<link_name>
};
constexpr RuntimeLibrary kRuntimeLibraries[] = {{"cpu", "dace_rt"}, {"cuda", "dace_cuda_rt"}};

const RuntimeLibrary* runtime_library_of(const std::string& owner) {
  for (const RuntimeLibrary& r : kRuntimeLibraries)
    if (owner == r.owner) return &r;
  return nullptr;
}

// Every function the module calls but does not define must come from a runtime library or a
// shared library; a runtime symbol of a plugin without a runtime library (MPI), or whose
// library is not next to libdace.so, refuses the program. The plugin runtimes called, besides
// the CPU one (sorted, each once).
Result<std::vector<std::string>> runtimes_called(const llvm::Module& m, const plugin::Registry& registry,
                                                 const std::string& sdfg, const std::string& runtime_dir) {
  std::map<std::string, std::string> owner;
  for (const auto& s : registry.runtime_symbols()) owner[s.name] = s.owner;
  std::vector<std::string> extra;
  for (const llvm::Function& f : m) {
    if (!f.isDeclaration() || f.isIntrinsic()) continue;
    auto it = owner.find(f.getName().str());
    if (it == owner.end() || it->second == kRuntimeOwner) continue;
    const RuntimeLibrary* lib = runtime_library_of(it->second);
    if (!lib)
      return make_error(Code::Unsupported, "sdfg \"" + sdfg + "\": calls " + it->first + " of plugin \"" + it->second +
                                               "\"'s runtime, which lives inside the plugin; ahead-of-time "
                                               "compilation links only the CPU and CUDA runtimes (libdace_rt.so, "
                                               "libdace_cuda_rt.so)");
    const std::string file = std::string("lib") + lib->link_name + ".so";
    std::error_code ec;
    if (!fs::exists(fs::path(runtime_dir) / file, ec))
      return make_error(Code::NotFound, "sdfg \"" + sdfg + "\": calls " + it->first + " of plugin \"" + it->second +
                                            "\"'s runtime, whose library " + file + " is not in " + runtime_dir +
                                            " (next to libdace.so; it is built with the plugin)");
    if (std::find(extra.begin(), extra.end(), lib->link_name) == extra.end()) extra.push_back(lib->link_name);
  }
  std::sort(extra.begin(), extra.end());
  return extra;
}

// One status record per program: renamed (or created, so the header's declaration always
// holds) as `symbol`, so that several AOT programs can share a process.
void name_status_record(llvm::Module& m, const std::string& symbol) {
  if (llvm::GlobalVariable* gv = m.getGlobalVariable(codegen::kStatusSymbol, true)) {
    gv->setName(symbol);
    gv->setLinkage(llvm::GlobalValue::ExternalLinkage);
    gv->setVisibility(llvm::GlobalValue::DefaultVisibility);
    return;
  }
  llvm::LLVMContext& c = m.getContext();
  auto* type = llvm::StructType::get(c, {llvm::Type::getInt32Ty(c), llvm::Type::getInt64Ty(c),
                                         llvm::PointerType::getUnqual(c), llvm::Type::getInt64Ty(c)});
  new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::ExternalLinkage, llvm::Constant::getNullValue(type),
                           symbol);
}

// A name in out_dir that no other writer uses; renamed over the final name at the end.
std::string temp_name(const fs::path& dir, const std::string& file) {
  static std::atomic<uint64_t> counter{0};
  return (dir / ("." + file + "." + std::to_string(getpid()) + "." + std::to_string(counter++) + ".tmp")).string();
}

Status write_file(const std::string& path, const std::string& bytes, const std::string& final_path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (out) out.close();
  if (!out) return make_error(Code::IoError, "cannot write \"" + final_path + "\" (output folder not writable?)");
  return Status::success();
}

// Removes the temporary files on every way out.
struct Temporaries {
  std::vector<std::string> paths;
  ~Temporaries() {
    std::error_code ec;
    for (const std::string& p : paths) fs::remove(p, ec);
  }
};

}  // namespace

bool is_c_identifier(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

Result<AotOutput> compile_aot(const CompileRequest& request, const Backend& backend, const std::string& out_dir) {
  const auto t_start = Clock::now();
  if (!request.sdfg) return make_error(Code::InvalidArgument, "compile_aot: no SDFG");
  const std::string& name = request.sdfg->name;
  if (!is_c_identifier(name))
    return make_error(Code::InvalidArgument, "sdfg \"" + name + "\": the name is not a C identifier, so it cannot "
                                                 "name the entry points __program_<name> and lib<name>.so");
  if (out_dir.empty()) return make_error(Code::InvalidArgument, "compile_aot: empty output folder");
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir, ec))
    return make_error(Code::IoError, "output folder \"" + out_dir + "\": cannot create it" +
                                         (ec ? ": " + ec.message() : std::string(" (not a folder)")));
  auto rt_dir = runtime_library_dir();
  if (!rt_dir) return rt_dir.take_error();

  AotOutput out;
  std::unique_ptr<ir::SDFG> optimized;
  if (!request.optimize.empty()) {
    auto o = run_optimizer(*request.sdfg, request.optimize);
    if (!o) return o.take_error();
    optimized = std::move(*o);
  }
  std::vector<std::string> products;
  DACE_TRY(expand_for_compile(*request.sdfg, optimized, &products));  // Gemm's PBLAS, as compile() does
  if (optimized) out.times.transform_ms = ms_since(t_start);
  const ir::SDFG& g = optimized ? *optimized : *request.sdfg;
  if (g.name != name) return make_error(Code::Internal, "sdfg \"" + name + "\": the optimizer renamed it");
  Status loaded = load_needed_plugins(g, backend);  // its schedules, storages and runtime symbols
  DACE_TRY(check_distributed_products_runnable(products, loaded, lower_options(request, backend)));

  auto t = Clock::now();
  DACE_TRY(analysis::validate(g));
  out.times.validate_ms = ms_since(t);
  const jit::ProgramAbi abi = jit::program_abi(g);
  const std::string status_symbol = "__dace_status_" + name;
  auto header = aot_header(g, abi, status_symbol);  // refuses types C cannot pass before any work
  if (!header) return header.take_error();

  t = Clock::now();
  codegen::LowerOptions lo = lower_options(request, backend);
  lo.validate = false;
  auto context = std::make_unique<llvm::LLVMContext>();
  auto lowered = codegen::lower(g, *context, lo);
  if (!lowered) return lowered.take_error();
  out.times.lower_ms = ms_since(t);
  auto runtimes = runtimes_called(*lowered->module, *backend.registry, name, *rt_dir);
  if (!runtimes) return runtimes.take_error();
  name_status_record(*lowered->module, status_symbol);
  // The PTX's address is for the JIT's hosts (dace_program_ptx); an AOT host has no reader of
  // it, and several GPU programs linked into one binary must not define it twice.
  if (llvm::GlobalVariable* ptx = lowered->module->getGlobalVariable(codegen::kPtxSymbol, true))
    ptx->setLinkage(llvm::GlobalValue::InternalLinkage);

  t = Clock::now();
  jit::OptimizationOptions opt;
  opt.level = request.opt_level;
  opt.fast_math = request.fast_math;
  auto object = backend.session->compile_object(std::move(lowered->module), std::move(context), opt);
  if (!object) return object.take_error();
  out.times.jit_ms = ms_since(t);
  out.object_bytes = object->size();

  const fs::path dir(out_dir);
  out.object = (dir / (name + ".o")).string();
  out.header = (dir / (name + ".h")).string();
  out.library = (dir / ("lib" + name + ".so")).string();
  out.archive = (dir / ("lib" + name + ".a")).string();
  auto archive = static_archive(*object, name + ".o");
  if (!archive) return archive.take_error();
  Temporaries temps;
  const std::string tmp_object = temp_name(dir, name + ".o");
  const std::string tmp_header = temp_name(dir, name + ".h");
  const std::string tmp_library = temp_name(dir, "lib" + name + ".so");
  const std::string tmp_archive = temp_name(dir, "lib" + name + ".a");
  temps.paths = {tmp_object, tmp_header, tmp_library, tmp_archive};
  DACE_TRY(write_file(tmp_object, *object, out.object));
  DACE_TRY(write_file(tmp_header, *header, out.header));
  DACE_TRY(write_file(tmp_archive, *archive, out.archive));

  t = Clock::now();
  LinkRequest link;
  link.object = tmp_object;
  link.output = tmp_library;
  link.soname = "lib" + name + ".so";
  link.runtime_dir = *rt_dir;
  link.runtimes = *runtimes;
  for (const auto& lib : backend.registry->vendor_libraries())
    if (lib.available && lib.owner == kRuntimeOwner) link.libraries.push_back(lib.name);
  std::sort(link.libraries.begin(), link.libraries.end());
  DACE_TRY(link_shared_library(link));
  out.times.link_ms = ms_since(t);

  // All four are complete: move them into place.
  for (const auto& [from, to] : {std::pair{tmp_object, out.object}, std::pair{tmp_header, out.header},
                                 std::pair{tmp_archive, out.archive}, std::pair{tmp_library, out.library}}) {
    fs::rename(from, to, ec);
    if (ec) return make_error(Code::IoError, "cannot rename \"" + from + "\" to \"" + to + "\": " + ec.message());
  }
  out.times.total_ms = ms_since(t_start);
  log::info("compile", "sdfg \"" + name + "\": ahead-of-time compiled into " + out_dir + " in " +
                           log::ms(out.times.total_ms));
  return out;
}

}  // namespace dace::pipeline
