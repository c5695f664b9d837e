// `dace render IN -o OUT.svg|OUT.html`: a picture of an SDFG (docs/render.md).
#include <cstdio>
#include <fstream>
#include <string>

#include "commands.h"
#include "load.h"
#include "progress.h"
#include "render/render.h"

namespace dace::cli {

namespace {

constexpr const char* kUsage = "usage: dace render IN -o OUT.svg|OUT.html [--format svg|html] [--quiet|--progress]\n";

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "NAME: S states, N nodes": what the layout has to place (nested SDFGs' contents not counted).
std::string size_of(const ir::SDFG& sdfg) {
  size_t states = 0, nodes = 0;
  for (const ir::State* state : sdfg.all_states()) {
    ++states;
    nodes += state->node_ids().size();
  }
  return sdfg.name + ": " + std::to_string(states) + " states, " + std::to_string(nodes) + " nodes";
}

}  // namespace

int cmd_render(const std::vector<std::string>& arguments) {
  std::vector<std::string> args = arguments;
  // Large SDFGs take seconds to lay out: the phases are shown on stderr (progress.h).
  Progress progress(take_progress_flags(args));
  std::string input, output, format;
  for (size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if ((a == "-o" || a == "--format") && k + 1 < args.size()) {
      (a == "-o" ? output : format) = args[++k];
    } else if (a.starts_with("-")) {
      std::fprintf(stderr, "dace render: unknown option '%s'\n%s", a.c_str(), kUsage);
      return kExitError;
    } else if (input.empty()) {
      input = a;
    } else {
      std::fprintf(stderr, "dace render: more than one input ('%s')\n%s", a.c_str(), kUsage);
      return kExitError;
    }
  }
  if (input.empty() || output.empty()) {
    std::fputs(kUsage, stderr);
    return kExitError;
  }
  if (format.empty()) {
    if (ends_with(output, ".svg")) format = "svg";
    else if (ends_with(output, ".html") || ends_with(output, ".htm")) format = "html";
  }
  if (format != "svg" && format != "html") {
    std::fprintf(stderr, "dace render: cannot tell the format of '%s' (use .svg, .html or --format)\n",
                 output.c_str());
    return kExitError;
  }
  progress.step(1, 3, "reading " + input);
  auto sdfg = load_or_report(input);
  if (!sdfg) return kExitError;
  progress.step(2, 3, "laying out " + size_of(*sdfg) + " (Graphviz dot) ...");
  auto drawing = render::draw(*sdfg);
  if (!drawing.ok()) {
    progress.clear();
    std::fprintf(stderr, "dace: %s: %s\n", input.c_str(), drawing.error().message.c_str());
    return kExitError;
  }
  progress.step(3, 3, "writing " + output);
  std::string text = format == "svg" ? drawing->svg : render::html_page(*sdfg, *drawing);
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  progress.clear();
  if (!out) {
    std::fprintf(stderr, "dace: %s: cannot write the picture\n", output.c_str());
    return kExitError;
  }
  return kExitOk;
}

}  // namespace dace::cli
