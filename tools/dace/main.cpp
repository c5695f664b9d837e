// `dace`: command-line front end of libdace. Exit codes are a contract (README):
//   0 success, 1 the SDFG is invalid (validate) or a comparison failed (run --case), 2 usage
//   error, unreadable input, or a failure to compile or run.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "commands.h"

namespace {

void print_usage(FILE* out) {
  std::fputs(
      "usage: dace <command> [options]\n"
      "commands:\n"
      "  validate FILE            check an SDFG; exit 0 if valid, 1 if invalid, 2 if unreadable\n"
      "  info FILE [--json]       symbols, data, states, node counts, argument list\n"
      "  convert IN OUT [--compact]  rewrite in libdace's canonical dialect; .sdfgz = gzip\n"
      "  hash FILE                content hash (SHA-256 of the canonical SDFG)\n"
      "  run FILE [-s N=V] [-i A=a.npy] [--case CASE.json] [-o DIR] [--repeat K] [--threads T]\n"
      "           [-O N] [--fast-math] [--cache-dir DIR] [--optimize PASS] [--no-tiers]\n"
      "           [--wait-optimized] [--emulate-device] [--bounds-check] [--max-streams N] [--json]\n"
      "           [--quiet|--progress]\n"
      "           [--instrument all|program|states|maps|nodes[,...]] [--instrument-dir DIR]\n"
      "                           compile and call; with --case exit 1 when an output mismatches;\n"
      "                           --instrument times elements and writes a report per call\n"
      "  compile FILE [--json] [--dump-ir DIR] [--dump-asm DIR] [--ptx-out DIR] [-O N] [--fast-math] [--cache-dir DIR]\n"
      "          [--optimize PASS] [--no-tiers] [--quiet|--progress] [--bounds-check] [--emulate-device]\n"
      "          [--max-streams N]\n"
      "                           compile and report the time of each phase\n"
      "  compile FILE --aot -o DIR [-O N] [--fast-math] [--threads T] [--optimize PASS] [--bounds-check]\n"
      "          [--emulate-device] [--max-streams N] [--json]\n"
      "                           ahead of time: DIR/lib<name>.so, <name>.o, <name>.h (no JIT at run time)\n"
      "  optimize IN -o OUT [--simplify] [--auto cpu|gpu] [--apply NAME[:PROPS_JSON]]...\n"
      "           [--apply-repeated NAME[:PROPS_JSON]]...\n"
      "           [--replay HIST.json] [--revert K]... [--record HIST.json] [--json] [--quiet|--progress]\n"
      "                           apply passes and transformations in order, validate, write OUT\n"
      "  render IN -o OUT.svg|OUT.html [--format svg|html] [--quiet|--progress]\n"
      "                           draw the SDFG (Graphviz layout; HTML: pan, zoom, collapsible scopes)\n"
      "  report FILE... [--json]  summarize instrumentation reports (DaCe's format): count, min,\n"
      "                           median, mean, max ms and % of program per element\n"
      "  version                  print the libdace version\n"
      "long commands (compile, optimize, run --repeat, render) show progress on stderr when it is a\n"
      "terminal (--progress: always, as plain lines; --quiet: never); DACE_LOG=info|debug logs each\n"
      "compile, cache lookup, plugin and optimizer pass to stderr\n",
      out);
}

}  // namespace

namespace {

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    print_usage(stdout);
    return 0;
  }
  if (cmd == "validate") return dace::cli::cmd_validate(args);
  if (cmd == "info") return dace::cli::cmd_info(args);
  if (cmd == "convert") return dace::cli::cmd_convert(args);
  if (cmd == "hash") return dace::cli::cmd_hash(args);
  if (cmd == "run") return dace::cli::cmd_run(args);
  if (cmd == "compile") return dace::cli::cmd_compile(args);
  if (cmd == "optimize") return dace::cli::cmd_optimize(args);
  if (cmd == "render") return dace::cli::cmd_render(args);
  if (cmd == "report") return dace::cli::cmd_report(args);
  if (cmd == "version" || cmd == "--version") return dace::cli::cmd_version(args);
  std::fprintf(stderr, "dace: unknown command '%s'\n", cmd.c_str());
  print_usage(stderr);
  return 2;
}

}  // namespace

// The commands report their own errors; this is the last line for anything they did not
// foresee (an allocation too large for the machine, above all): a message and exit 2,
// never an uncaught exception and abort.
int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dace: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dace: internal error: %s\n", e.what());
  }
  return 2;
}
