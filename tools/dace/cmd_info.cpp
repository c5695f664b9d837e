// `dace info FILE [--json]`: what a script needs to call an SDFG.
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/arguments.h"
#include "commands.h"
#include "ir/path.h"
#include "load.h"

namespace dace::cli {
namespace {

using ordered_json = nlohmann::ordered_json;

std::string join_exprs(const std::vector<sym::Expr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); ++i) out += (i ? ", " : "") + sym::to_string(exprs[i]);
  return out;
}

struct Counts {
  std::map<std::string, int> blocks;  // by DaCe class name
  std::map<std::string, int> nodes;
  int dataflow_edges = 0;
  int interstate_edges = 0;
  int nested_sdfgs = 0;
};

void count_region(const ir::ControlFlowRegion& region, Counts& c);

void count_sdfg(const ir::SDFG& sdfg, Counts& c) {
  count_region(sdfg, c);
}

void count_region(const ir::ControlFlowRegion& region, Counts& c) {
  c.interstate_edges += static_cast<int>(region.edge_slots().size());
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock* b = region.block(slot);
    c.blocks[ir::to_string(b->kind)]++;
    switch (b->kind) {
      case ir::BlockKind::State: {
        const auto* st = static_cast<const ir::State*>(b);
        c.dataflow_edges += static_cast<int>(st->edge_ids().size());
        for (int id : st->node_ids()) {
          const ir::Node* n = st->node(id);
          c.nodes[ir::to_string(n->kind)]++;
          if (n->kind == ir::NodeKind::NestedSDFG) {
            const auto* nested = static_cast<const ir::NestedSDFGNode*>(n);
            c.nested_sdfgs++;
            if (nested->sdfg) count_sdfg(*nested->sdfg, c);
          }
        }
        break;
      }
      case ir::BlockKind::Conditional:
        for (const auto& br : static_cast<const ir::ConditionalBlock*>(b)->branches) count_region(*br.second, c);
        break;
      case ir::BlockKind::Region:
      case ir::BlockKind::Loop:
        count_region(*static_cast<const ir::ControlFlowRegion*>(b), c);
        break;
      default:
        break;
    }
  }
}

ordered_json info_json(const ir::SDFG& sdfg) {
  ordered_json j;
  j["name"] = sdfg.name;
  j["dace_version"] = sdfg.dace_version;
  ordered_json symbols = ordered_json::object();
  for (const auto& [name, type] : sdfg.symbols) symbols[name] = ir::to_string(type);
  j["symbols"] = symbols;
  ordered_json free = ordered_json::array();
  for (const auto& s : analysis::free_symbols(sdfg)) free.push_back(s);
  j["free_symbols"] = free;
  ordered_json arrays = ordered_json::array();
  for (const auto& [name, d] : sdfg.arrays) {
    ordered_json a;
    a["name"] = name;
    a["type"] = d.json_type.empty() ? ir::to_string(d.kind) : d.json_type;
    a["dtype"] = ir::to_string(d.dtype);
    a["shape"] = join_exprs(d.shape);
    if (d.is_array_like()) a["strides"] = join_exprs(d.strides);
    a["transient"] = d.transient;
    a["storage"] = ir::to_string(d.storage);
    a["lifetime"] = ir::to_string(d.lifetime);
    arrays.push_back(a);
  }
  j["data"] = arrays;
  Counts c;
  count_sdfg(sdfg, c);
  j["states"] = c.blocks.count("SDFGState") ? c.blocks["SDFGState"] : 0;
  j["blocks"] = c.blocks;
  j["nodes"] = c.nodes;
  j["dataflow_edges"] = c.dataflow_edges;
  j["interstate_edges"] = c.interstate_edges;
  j["nested_sdfgs"] = c.nested_sdfgs;
  ordered_json args = ordered_json::array();
  for (const auto& a : analysis::argument_list(sdfg)) {
    ordered_json x;
    x["name"] = a.name;
    x["kind"] = analysis::to_string(a.kind);
    x["dtype"] = ir::to_string(a.dtype);
    args.push_back(x);
  }
  j["arguments"] = args;
  return j;
}

void print_text(const ordered_json& j) {
  std::printf("SDFG %s (written by DaCe %s)\n", j["name"].get<std::string>().c_str(),
              j["dace_version"].get<std::string>().c_str());
  std::printf("symbols:");
  for (auto it = j["symbols"].begin(); it != j["symbols"].end(); ++it)
    std::printf(" %s:%s", it.key().c_str(), it.value().get<std::string>().c_str());
  std::printf("\nfree symbols:");
  for (const auto& s : j["free_symbols"]) std::printf(" %s", s.get<std::string>().c_str());
  std::printf("\ndata:\n");
  for (const auto& a : j["data"])
    std::printf("  %-24s %-10s %-10s [%s]%s\n", a["name"].get<std::string>().c_str(),
                a["type"].get<std::string>().c_str(), a["dtype"].get<std::string>().c_str(),
                a["shape"].get<std::string>().c_str(), a["transient"].get<bool>() ? " transient" : "");
  std::printf("states: %d, dataflow edges: %d, interstate edges: %d, nested SDFGs: %d\n",
              j["states"].get<int>(), j["dataflow_edges"].get<int>(), j["interstate_edges"].get<int>(),
              j["nested_sdfgs"].get<int>());
  std::printf("nodes:");
  for (auto it = j["nodes"].begin(); it != j["nodes"].end(); ++it)
    std::printf(" %s=%d", it.key().c_str(), it.value().get<int>());
  std::printf("\narguments:");
  for (const auto& a : j["arguments"])
    std::printf(" %s(%s %s)", a["name"].get<std::string>().c_str(), a["kind"].get<std::string>().c_str(),
                a["dtype"].get<std::string>().c_str());
  std::printf("\n");
}

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
  bool as_json = false;
  std::vector<std::string> files;
  for (const auto& a : args) {
    if (a == "--json") as_json = true;
    else if (a.starts_with("--")) {
      std::fprintf(stderr, "dace info: unknown option '%s'\n", a.c_str());
      return kExitError;
    } else files.push_back(a);
  }
  if (files.size() != 1) {
    std::fputs("usage: dace info FILE [--json]\n", stderr);
    return kExitError;
  }
  auto sdfg = load_or_report(files[0]);
  if (!sdfg) return kExitError;
  auto j = info_json(*sdfg);
  if (as_json) std::printf("%s\n", j.dump(1).c_str());
  else print_text(j);
  return kExitOk;
}

}  // namespace dace::cli
