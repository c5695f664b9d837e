#include "lowering/streams.h"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <sstream>
#include <tuple>

namespace dace::cuda {

namespace {

bool on_device(const ir::SDFG& sdfg, const std::string& data) {
  auto it = sdfg.arrays.find(data);
  return it != sdfg.arrays.end() && it->second.storage == ir::StorageType::GPU_Global;
}

const ir::AccessNode* as_access(const ir::State& state, int node) {
  const ir::Node* n = state.node(node);
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

// The state's top level as a graph of units: every top-level node (a map's exit folded into
// its entry, so a scope is one unit) and every edge between two access nodes (a copy). Unit
// ids: node ids, and node_slots() + edge id for copies.
struct Units {
  const ir::SDFG& sdfg;
  const ir::State& state;
  std::vector<int> parents;
  std::map<int, std::set<int>> preds, succs;
  std::set<int> all;

  int copy_unit(int edge) const { return state.node_slots() + edge; }
  bool is_copy_unit(int unit) const { return unit >= state.node_slots(); }
  int edge_of(int unit) const { return unit - state.node_slots(); }

  // The unit a top-level node belongs to, or -1 for nodes inside scopes.
  int unit_of(int node) const {
    const ir::Node* n = state.node(node);
    if (!n || parents[static_cast<size_t>(node)] != -1) return -1;
    if (n->kind == ir::NodeKind::MapExit) return static_cast<const ir::MapExit*>(n)->entry;
    if (n->kind == ir::NodeKind::ConsumeExit) return static_cast<const ir::ConsumeExit*>(n)->entry;
    return node;
  }

  Units(const ir::SDFG& g, const ir::State& s) : sdfg(g), state(s), parents(s.scope_parents()) {
    for (int id : state.node_ids())
      if (int u = unit_of(id); u != -1) all.insert(u);
    for (int e : state.edge_ids()) {
      const ir::DataflowEdge* edge = state.edge(e);
      const int src = unit_of(edge->src), dst = unit_of(edge->dst);
      if (src == -1 || dst == -1 || src == dst) continue;
      // An empty memlet between access nodes only orders them (the core emits no copy for it).
      if (as_access(state, edge->src) && as_access(state, edge->dst) && !edge->memlet.is_empty() &&
          !aliases(edge->src) && !aliases(edge->dst)) {
        const int c = copy_unit(e);
        all.insert(c);
        link(src, c);
        link(c, dst);
      } else {
        link(src, dst);
      }
    }
  }

  // A view or reference: an edge between it and other data binds it (no data moves), so
  // it passes dependencies on like an access node instead of being a copy.
  bool aliases(int node) const {
    auto it = sdfg.arrays.find(as_access(state, node)->data);
    return it != sdfg.arrays.end() &&
           (it->second.kind == ir::DataKind::View || it->second.kind == ir::DataKind::Reference);
  }

  void link(int a, int b) {
    succs[a].insert(b);
    preds[b].insert(a);
  }

  // Kahn's order; among ready units the one whose (node or copy source, edge) is smallest.
  std::vector<int> topological_order() const {
    auto key = [&](int u) {
      if (!is_copy_unit(u)) return std::make_pair(u, -1);
      return std::make_pair(state.edge(edge_of(u))->src, edge_of(u));
    };
    auto later = [&](int a, int b) { return key(a) > key(b); };
    std::priority_queue<int, std::vector<int>, decltype(later)> ready(later);
    std::map<int, size_t> missing;
    for (int u : all) {
      auto p = preds.find(u);
      missing[u] = p == preds.end() ? 0 : p->second.size();
      if (missing[u] == 0) ready.push(u);
    }
    std::vector<int> order;
    while (!ready.empty()) {
      const int u = ready.top();
      ready.pop();
      order.push_back(u);
      auto s = succs.find(u);
      if (s == succs.end()) continue;
      for (int v : s->second)
        if (--missing[v] == 0) ready.push(v);
    }
    return order;  // a cycle (invalid state) leaves its units out: they get no stream
  }

  bool touches_device(int node) const {
    for (int e : state.in_edges(node))
      if (on_device(sdfg, state.edge(e)->memlet.data)) return true;
    for (int e : state.out_edges(node))
      if (on_device(sdfg, state.edge(e)->memlet.data)) return true;
    return false;
  }

  // The item kind of a unit, or nothing for host work and access nodes.
  std::optional<WorkItem::Kind> item_kind(int unit, const DeviceTaskletTest& device_tasklet) const {
    if (is_copy_unit(unit)) {
      const ir::DataflowEdge* e = state.edge(edge_of(unit));
      const bool device = on_device(sdfg, as_access(state, e->src)->data) || on_device(sdfg, as_access(state, e->dst)->data);
      return device ? std::optional(WorkItem::Kind::Copy) : std::nullopt;
    }
    const ir::Node* n = state.node(unit);
    switch (n->kind) {
      case ir::NodeKind::MapEntry: {
        const ir::ScheduleType s = static_cast<const ir::MapEntry*>(n)->map.schedule;
        if (s == ir::ScheduleType::GPU_Device || s == ir::ScheduleType::GPU_Persistent) return WorkItem::Kind::Kernel;
        return std::nullopt;
      }
      case ir::NodeKind::Library:
        return touches_device(unit) ? std::optional(WorkItem::Kind::Library) : std::nullopt;
      case ir::NodeKind::Tasklet: {
        const auto* t = static_cast<const ir::Tasklet*>(n);
        if (t->code.language == ir::Language::CPP && device_tasklet && device_tasklet(*t)) return WorkItem::Kind::Tasklet;
        return std::nullopt;
      }
      default: return std::nullopt;
    }
  }
};

// Ascending: every producer on a stream other than `stream`. Not only the last of the plan's
// order per stream: the core issues the items in its own topological order (a copy where its
// destination node is emitted), so two producers sharing a stream may be queued the other way
// round, and the event of the one planned last would not cover the other.
std::vector<int> events_to_wait(const StreamPlan& plan, const std::vector<int>& producers, int stream) {
  std::vector<int> waits;
  for (int p : producers)
    if (plan.items[static_cast<size_t>(p)].stream != stream) waits.push_back(p);
  return waits;  // `producers` is ascending
}

}  // namespace

int StreamPlan::item_of_node(int node) const {
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].node == node && items[i].node != -1) return static_cast<int>(i);
  return -1;
}

int StreamPlan::item_of_edge(int edge) const {
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].edge == edge && items[i].edge != -1) return static_cast<int>(i);
  return -1;
}

StreamPlan plan_streams(const ir::SDFG& sdfg, const ir::State& state, int max_streams,
                        const DeviceTaskletTest& device_tasklet) {
  max_streams = std::max(max_streams, 1);
  const Units units(sdfg, state);
  StreamPlan plan;
  // For each unit, the items whose results reach it through access nodes only.
  std::map<int, std::set<int>> reaching;
  std::map<int, int> item_of_unit;
  std::vector<int> tail;  // per stream: the last item put on it
  int reuse = 0;
  // The host synchronizes the streams of `producers` before unit `u` runs (none: nothing).
  auto host_wait = [&](int u, const std::set<int>& producers) {
    if (producers.empty()) return;
    HostWait w;
    if (units.is_copy_unit(u)) w.edge = units.edge_of(u); else w.node = u;
    std::set<int> streams;
    for (int p : producers) streams.insert(plan.items[static_cast<size_t>(p)].stream);
    w.streams.assign(streams.begin(), streams.end());
    plan.host_waits.push_back(std::move(w));
  };
  for (int u : units.topological_order()) {
    std::set<int> producers;
    if (auto p = units.preds.find(u); p != units.preds.end())
      for (int v : p->second) {
        if (auto it = item_of_unit.find(v); it != item_of_unit.end()) {
          producers.insert(it->second);
        } else if (!units.is_copy_unit(v) && as_access(state, v)) {
          const std::set<int>& through = reaching[v];
          producers.insert(through.begin(), through.end());
        }  // host work in between: the host synchronized before it ran
      }
    const std::optional<WorkItem::Kind> kind = units.item_kind(u, device_tasklet);
    if (!kind) {
      if (!units.is_copy_unit(u) && as_access(state, u)) {
        reaching[u] = std::move(producers);
      } else {
        host_wait(u, producers);
      }
      continue;
    }
    // Host memory that items wrote and this item reads on the host (a host scalar passed to a
    // kernel by value, the source of a copy): the host synchronizes their streams first, as
    // a copy to host memory is complete only then.
    std::set<int> host_producers;
    if (auto p = units.preds.find(u); p != units.preds.end())
      for (int v : p->second)
        if (!units.is_copy_unit(v) && as_access(state, v) && !on_device(sdfg, as_access(state, v)->data))
          host_producers.insert(reaching[v].begin(), reaching[v].end());
    host_wait(u, host_producers);
    WorkItem item;
    item.kind = *kind;
    if (units.is_copy_unit(u)) item.edge = units.edge_of(u); else item.node = u;
    item.producers.assign(producers.begin(), producers.end());
    // Continue the chain of the first producer whose stream nothing else has continued yet.
    item.stream = -1;
    for (int p : item.producers) {
      const int s = plan.items[static_cast<size_t>(p)].stream;
      if (tail[static_cast<size_t>(s)] == p) {
        item.stream = s;
        break;
      }
    }
    if (item.stream == -1) {
      if (static_cast<int>(tail.size()) < max_streams) {
        item.stream = static_cast<int>(tail.size());
        tail.push_back(-1);
      } else {
        item.stream = reuse++ % max_streams;
      }
    }
    item.waits = events_to_wait(plan, item.producers, item.stream);
    const int index = static_cast<int>(plan.items.size());
    tail[static_cast<size_t>(item.stream)] = index;
    item_of_unit[u] = index;
    plan.items.push_back(std::move(item));
  }
  plan.streams = static_cast<int>(tail.size());
  if (!plan.concurrent()) {
    // One stream is the default stream: it runs the items in issue order, and its copies to
    // the host return when the data is there.
    for (WorkItem& item : plan.items) item.waits.clear();
    plan.host_waits.clear();
  }
  for (const WorkItem& item : plan.items)
    for (int p : item.waits) plan.items[static_cast<size_t>(p)].records_event = true;
  return plan;
}

std::string describe(const StreamPlan& plan, const ir::State& state) {
  static const char* const kinds[] = {"kernel", "copy", "library", "tasklet"};
  auto name_node = [&](int node) { return std::to_string(node) + " \"" + state.node(node)->label + "\""; };
  auto name_edge = [&](int edge) {
    const ir::DataflowEdge* e = state.edge(edge);
    return "edge " + std::to_string(edge) + " " + as_access(state, e->src)->data + " -> " + as_access(state, e->dst)->data;
  };
  std::ostringstream out;
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const WorkItem& item = plan.items[i];
    out << "item " << i << ": " << kinds[static_cast<int>(item.kind)] << " "
        << (item.edge != -1 ? name_edge(item.edge) : name_node(item.node)) << " stream " << item.stream;
    if (!item.waits.empty()) {
      out << " waits";
      for (int p : item.waits) out << " " << p;
    }
    if (item.records_event) out << " records";
    out << "\n";
  }
  for (const HostWait& w : plan.host_waits) {
    out << "host waits before " << (w.edge != -1 ? name_edge(w.edge) : name_node(w.node)) << ": streams";
    for (int s : w.streams) out << " " << s;
    out << "\n";
  }
  out << "streams " << plan.streams << "\n";
  return out.str();
}

}  // namespace dace::cuda
