#include "transform/stage_host_library_nodes.h"

#include <map>

#include "ir/edit.h"
#include "transform/device_storage.h"

namespace dace::transform {
namespace {

int add_access(ir::State& s, const std::string& data) {
  auto a = std::make_unique<ir::AccessNode>();
  a->data = data;
  a->label = data;
  return s.add_node(std::move(a));
}

// Stages node `n` of `s`; whether anything changed.
bool stage(ir::SDFG& sdfg, ir::State& s, int n) {
  auto& node = static_cast<ir::LibraryNode&>(*s.node(n));
  if (!host_only_library(node.classpath)) return false;
  // Every edge with data must connect to an access node; collect the device containers.
  std::vector<int> ins = s.in_edges(n), outs = s.out_edges(n);
  bool any = false;
  for (int e : ins) {
    const ir::DataflowEdge* edge = s.edge(e);
    if (edge->memlet.is_empty()) continue;
    if (s.node(edge->src)->kind != ir::NodeKind::Access) return false;
    any = any || in_device_memory(sdfg.arrays.at(edge->memlet.data).storage);
  }
  for (int e : outs) {
    const ir::DataflowEdge* edge = s.edge(e);
    if (edge->memlet.is_empty()) continue;
    if (s.node(edge->dst)->kind != ir::NodeKind::Access || !edge->memlet.wcr.empty()) return false;
    any = any || in_device_memory(sdfg.arrays.at(edge->memlet.data).storage);
  }
  if (!any) {
    if (node.schedule == ir::ScheduleType::GPU_Default) node.schedule = ir::ScheduleType::Default;
    return false;
  }
  node.schedule = ir::ScheduleType::Default;
  std::map<std::string, std::string> host_of;  // device container -> its host transient
  auto host_copy = [&](const std::string& data) {
    auto it = host_of.find(data);
    if (it != host_of.end()) return it->second;
    const std::string name = add_host_mirror(sdfg, data, "_host");
    host_of.emplace(data, name);
    return name;
  };
  auto with_data = [](ir::Memlet m, const std::string& data) {
    m.data = data;
    m.guid.clear();
    return m;
  };
  for (int e : ins) {
    const ir::DataflowEdge edge = *s.edge(e);
    if (edge.memlet.is_empty() || !in_device_memory(sdfg.arrays.at(edge.memlet.data).storage)) continue;
    const std::string host = host_copy(edge.memlet.data);
    const int h = add_access(s, host);
    // device -> host: the subset the node reads, copied to the same place of the host copy.
    ir::Memlet copy = edge.memlet;
    copy.guid.clear();
    copy.other_subset.reset();
    s.add_edge(ir::DataflowEdge{edge.src, h, edge.src_conn, "", copy});
    ir::redirect_edge(s, e, h, "", n, edge.dst_conn);
    s.edge(e)->memlet = with_data(edge.memlet, host);
  }
  for (int e : outs) {
    const ir::DataflowEdge edge = *s.edge(e);
    if (edge.memlet.is_empty() || !in_device_memory(sdfg.arrays.at(edge.memlet.data).storage)) continue;
    const std::string host = host_copy(edge.memlet.data);
    const int h = add_access(s, host);
    ir::redirect_edge(s, e, n, edge.src_conn, h, "");
    s.edge(e)->memlet = with_data(edge.memlet, host);
    // host -> device after the node: the subset it wrote.
    ir::Memlet copy = with_data(edge.memlet, host);
    copy.other_subset.reset();
    s.add_edge(ir::DataflowEdge{h, edge.dst, "", edge.dst_conn, copy});
  }
  s.touch();
  return true;
}

}  // namespace

bool host_only_library(const std::string& classpath) {
  for (const char* package : {"dace.libraries.lapack.", "dace.libraries.linalg."})
    if (classpath.rfind(package, 0) == 0) return true;
  return false;
}

Result<bool> StageHostLibraryNodes::apply(ir::SDFG& sdfg, AnalysisManager&) {
  bool changed = false;
  for (ir::State* s : sdfg.all_states()) {
    const std::vector<int> parents = s->scope_parents();
    for (int n : s->node_ids())
      if (parents[n] < 0 && s->node(n)->kind == ir::NodeKind::Library && stage(sdfg, *s, n)) changed = true;
  }
  return changed;
}

}  // namespace dace::transform
