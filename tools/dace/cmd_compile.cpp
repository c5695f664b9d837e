// `dace compile FILE [--json] [--dump-ir DIR] [--dump-asm DIR] [--ptx-out DIR] [-O N] [--fast-math]
//  [--cache-dir DIR] [--threads T] [--optimize PASS] [--no-tiers]`: compile through the C API and report where
// the time went. `dace compile FILE --aot -o DIR [-O N] [--fast-math] [--threads T] [--optimize PASS]
// [--bounds-check] [--json]`: ahead-of-time, DIR/lib<name>.so, lib<name>.a, <name>.o and <name>.h (docs/aot.md). It waits for the optimized tier, to report when it came in (`optimized_ms`); `total_ms` is
// the time until the program was callable.
// The C API dumps IR and assembly side by side into one folder; the CLI dumps into a private
// temporary folder and moves each file where it was asked for.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "capi_util.h"
#include "commands.h"
#include "progress.h"

namespace dace::cli {
namespace {

namespace fs = std::filesystem;
using ordered_json = nlohmann::ordered_json;

constexpr const char* kUsage =
    "usage: dace compile FILE [--json] [--dump-ir DIR] [--dump-asm DIR] [--ptx-out DIR] [-O N] [--fast-math]\n"
    "                    [--cache-dir DIR] [--threads T] [--optimize PASS] [--no-tiers] [--quiet|--progress] [--bounds-check]\n"
    "                    [--emulate-device] [--max-streams N]\n"
    "       dace compile FILE --aot -o DIR [-O N] [--fast-math] [--threads T] [--optimize PASS] [--bounds-check]\n"
    "                    [--emulate-device] [--max-streams N] [--json]   ahead of time: DIR/lib<name>.so, DIR/lib<name>.a, DIR/<name>.o, DIR/<name>.h\n"
    "                               (no JIT at run time)\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "dace compile: %s\n%s", message.c_str(), kUsage);
  return kExitError;
}

// Removes the temporary dump folder on every path out of the command.
struct TempDir {
  fs::path path;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

bool make_temp_dir(TempDir& t) {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "dace-dump-XXXXXX").string();
  if (ec) return false;
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) return false;
  t.path = buf.data();
  return true;
}

// Moves every file ending in `ext` from `from` into `to`; returns the new paths.
bool move_dumped(const fs::path& from, const std::string& ext, const std::string& to, ordered_json& moved) {
  std::error_code ec;
  fs::create_directories(to, ec);
  if (ec) {
    std::fprintf(stderr, "dace: %s: cannot create folder: %s\n", to.c_str(), ec.message().c_str());
    return false;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(from, ec))
    if (e.path().extension() == ext) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    fs::path dest = fs::path(to) / f.filename();
    fs::copy_file(f, dest, fs::copy_options::overwrite_existing, ec);  // copy: `to` may be on another file system
    if (ec) {
      std::fprintf(stderr, "dace: %s: %s\n", dest.c_str(), ec.message().c_str());
      return false;
    }
    moved.push_back(dest.string());
  }
  if (files.empty()) {
    std::fprintf(stderr, "dace: no %s file was produced (an object loaded from --cache-dir is not recompiled)\n",
                 ext.c_str());
    return false;
  }
  return true;
}

// --aot: the four files through dace_program_compile_aot; a line per file (or JSON).
int compile_aot(const std::string& file, const CompileFlags& flags, const std::string& out_dir, bool as_json,
                Progress& progress) {
  SdfgPtr sdfg = load_sdfg(file);
  if (!sdfg) return kExitError;
  const char* name_ptr = nullptr;
  std::string name = dace_sdfg_get_name(&name_ptr, sdfg.get()) == DACE_OK ? name_ptr : "";
  dace_context_t* ctx_raw = nullptr;
  if (dace_status_t st = dace_context_create(&ctx_raw); st != DACE_OK) {
    report_capi_error("context", st);
    return kExitError;
  }
  ContextPtr ctx(ctx_raw);
  const dace_compile_options_t options = compile_options(flags, "");
  progress.note("compiling " + name + " ahead of time ...");
  dace_status_t st = dace_program_compile_aot(ctx.get(), sdfg.get(), &options, out_dir.c_str());
  progress.clear();
  if (st != DACE_OK) {
    report_capi_error(file, st);
    return kExitError;
  }
  const fs::path dir(out_dir);
  const std::string files[] = {(dir / ("lib" + name + ".so")).string(), (dir / (name + ".o")).string(),
                               (dir / (name + ".h")).string(), (dir / ("lib" + name + ".a")).string()};
  if (as_json) {
    ordered_json j;
    j["name"] = name;
    j["library"] = files[0];
    j["object"] = files[1];
    j["header"] = files[2];
    j["archive"] = files[3];
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    for (const std::string& f : files) std::printf("wrote %s\n", f.c_str());
  }
  return kExitOk;
}

}  // namespace

int cmd_compile(const std::vector<std::string>& raw_args) {
  std::vector<std::string> args = raw_args;
  Progress progress(take_progress_flags(args));
  std::string file, dump_ir, dump_asm, ptx_out;
  bool as_json = false, aot = false;
  std::string out_dir;
  CompileFlags flags;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    int c = parse_compile_flag(args, i, flags);
    if (c < 0) return usage_error("bad option value");
    if (c > 0) continue;
    if (a == "--json") {
      as_json = true;
    } else if (a == "--aot") {
      aot = true;
    } else if (a == "-o") {
      if (i + 1 >= args.size() || args[i + 1].empty()) return usage_error("option -o needs a folder");
      out_dir = args[++i];
    } else if (a == "--dump-ir" || a == "--dump-asm" || a == "--ptx-out") {
      if (i + 1 >= args.size() || args[i + 1].empty()) return usage_error("option " + a + " needs a folder");
      (a == "--dump-ir" ? dump_ir : a == "--dump-asm" ? dump_asm : ptx_out) = args[++i];
    } else if (a.starts_with("-") && a != "-") {
      return usage_error("unknown option '" + a + "'");
    } else if (file.empty()) {
      file = a;
    } else {
      return usage_error("more than one SDFG file");
    }
  }
  if (file.empty()) return usage_error("no SDFG file");
  if (aot != !out_dir.empty()) return usage_error(aot ? "--aot needs -o DIR" : "-o DIR is for --aot");
  if (aot) {
    if (!dump_ir.empty() || !dump_asm.empty() || !ptx_out.empty() || !flags.cache_dir.empty() || !flags.tiered)
      return usage_error(
          "--aot takes -O, --fast-math, --threads, --optimize, --bounds-check, --emulate-device, --max-streams and "
          "--json only");
    return compile_aot(file, flags, out_dir, as_json, progress);
  }
  flags.wait_optimized = true;  // a report of the optimized tier needs it in

  SdfgPtr sdfg = load_sdfg(file);
  if (!sdfg) return kExitError;
  const char* name_ptr = nullptr;
  std::string name = dace_sdfg_get_name(&name_ptr, sdfg.get()) == DACE_OK ? name_ptr : "";

  TempDir dump;
  if ((!dump_ir.empty() || !dump_asm.empty() || !ptx_out.empty()) && !make_temp_dir(dump)) {
    std::fputs("dace: cannot create a temporary folder for --dump-ir/--dump-asm/--ptx-out\n", stderr);
    return kExitError;
  }
  dace_context_t* ctx_raw = nullptr;
  if (dace_status_t st = dace_context_create(&ctx_raw); st != DACE_OK) {
    report_capi_error("context", st);
    return kExitError;
  }
  ContextPtr ctx(ctx_raw);
  progress.note("compiling " + name + " (until the optimized tier is in) ...");
  ProgramPtr program = compile_program(ctx.get(), sdfg.get(), file, flags, dump.path.string());
  progress.clear();
  if (!program) return kExitError;
  dace_compile_stats_t s{};
  s.version = DACE_COMPILE_STATS_VERSION;
  if (dace_status_t st = dace_program_compile_stats(&s, program.get()); st != DACE_OK) {
    report_capi_error(file, st);
    return kExitError;
  }

  ordered_json j;
  j["name"] = name;
  j["transform_ms"] = s.transform_ms;
  j["validate_ms"] = s.validate_ms;
  j["lower_ms"] = s.lower_ms;
  j["optimize_ms"] = s.optimize_ms;
  j["jit_ms"] = s.jit_ms;
  j["codegen_ms"] = s.codegen_ms;
  j["link_ms"] = s.link_ms;
  j["total_ms"] = s.total_ms;
  j["optimized_ms"] = s.optimized_ms;
  j["tiered"] = s.tiered != 0;
  j["optimized_optimize_ms"] = s.optimized_optimize_ms;
  j["optimized_codegen_ms"] = s.optimized_codegen_ms;
  j["optimized_link_ms"] = s.optimized_link_ms;
  j["swap_ms"] = s.swap_ms;
  j["cache_hit"] = s.cache_hit != 0;
  j["lowered_instructions"] = s.lowered_instructions;
  j["ir_instructions"] = s.ir_instructions;
  j["optimized_ir_instructions"] = s.optimized_ir_instructions;
  j["object_bytes"] = s.object_bytes;
  j["pieces"] = s.pieces;
  j["threads"] = s.threads;
  j["optimized_pieces"] = s.optimized_pieces;
  j["optimized_threads"] = s.optimized_threads;
  if (!dump_ir.empty()) {
    ordered_json moved = ordered_json::array();
    if (!move_dumped(dump.path, ".ll", dump_ir, moved)) return kExitError;
    j["ir_files"] = moved;
  }
  if (!dump_asm.empty()) {
    ordered_json moved = ordered_json::array();
    if (!move_dumped(dump.path, ".s", dump_asm, moved)) return kExitError;
    j["asm_files"] = moved;
  }
  if (!ptx_out.empty()) {
    // The CUDA plugin writes one PTX module per GPU program beside the dumps.
    ordered_json moved = ordered_json::array();
    if (!move_dumped(dump.path, ".ptx", ptx_out, moved)) return kExitError;
    j["ptx_files"] = moved;
  }

  if (as_json) {
    std::printf("%s\n", j.dump(1).c_str());
    return kExitOk;
  }
  std::printf("name: %s\n", name.c_str());
  std::printf("transform: %.3f ms\n", s.transform_ms);
  std::printf("validate: %.3f ms\nlower: %.3f ms\noptimize: %.3f ms\njit: %.3f ms\ntotal: %.3f ms\n", s.validate_ms,
              s.lower_ms, s.optimize_ms, s.jit_ms, s.total_ms);
  if (s.tiered)
    std::printf("optimized tier: optimize %.3f ms, codegen %.3f ms, link %.3f ms, swap %.3f ms; in at %.3f ms\n",
                s.optimized_optimize_ms, s.optimized_codegen_ms, s.optimized_link_ms, s.swap_ms, s.optimized_ms);
  std::printf("cache hit: %s\n", s.cache_hit ? "yes" : "no");
  std::printf("ir instructions: %llu\nobject bytes: %llu\n", static_cast<unsigned long long>(s.ir_instructions),
              static_cast<unsigned long long>(s.object_bytes));
  std::printf("pieces: %d on %d threads (optimized tier: %d on %d)\n", s.pieces, s.threads, s.optimized_pieces,
              s.optimized_threads);
  for (const char* key : {"ir_files", "asm_files"})
    if (j.contains(key))
      for (const auto& f : j[key]) std::printf("wrote %s\n", f.get<std::string>().c_str());
  return kExitOk;
}

}  // namespace dace::cli
