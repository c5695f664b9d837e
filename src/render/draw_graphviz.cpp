// draw(): builds a Graphviz graph of the SDFG and lays it out with `dot`.
//
// Boxes are Graphviz clusters, nested as the SDFG nests: control-flow blocks (states, loops,
// conditional branches), map/consume scopes inside states, nested SDFGs inside their state.
// Interstate edges join the boxes of two blocks: each block box holds an invisible anchor
// node, and the edge runs between anchors, clipped at the boxes (`compound`, lhead/ltail).
//
// The plugins (dot layout, SVG renderer) are linked in and registered as built-ins rather
// than found through Graphviz's plugin configuration file, so rendering works wherever the
// libraries are, and text is measured with Graphviz's built-in font metrics rather than the
// machine's fonts: the SVG bytes do not depend on the machine.
#include <graphviz/gvc.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "render/labels.h"
#include "render/render.h"

extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;
}

namespace dace::render {

namespace {

// Graphviz's C API takes char* for strings it only reads.
char* cs(const std::string& s) { return const_cast<char*>(s.c_str()); }
char* cs(const char* s) { return const_cast<char*>(s); }

void set(void* object, const char* key, const std::string& value) { agsafeset(object, cs(key), cs(value), cs("")); }

// Graphviz reads labels as escString: backslashes and some letters after them are escapes.
std::string escape_label(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// Collects Graphviz's error and warning text instead of letting it go to stderr.
std::string& graphviz_messages() {
  static std::string messages;
  return messages;
}
int collect_message(char* text) {
  graphviz_messages() += text;
  return 0;
}

// Object ids in creation order. Graphviz's default ids for named objects are the addresses of
// their interned names, and it orders subgraphs by id: with it, the cluster order -- and so
// the layout -- changed from run to run. Even ids are named objects, odd ones anonymous, as in
// Graphviz's own discipline.
struct IdState {
  std::map<std::string, IDTYPE> ids;
  std::vector<std::unique_ptr<std::string>> names;  // index = id / 2 - 1; stable c_str()
  IDTYPE next_anonymous = 1;
};

void* id_open(Agraph_t*, Agdisc_t*) { return new IdState(); }
long id_map(void* state, int, char* name, IDTYPE* id, int create) {
  auto& s = *static_cast<IdState*>(state);
  if (!name) {
    *id = s.next_anonymous;
    s.next_anonymous += 2;
    return 1;
  }
  if (auto it = s.ids.find(name); it != s.ids.end()) {
    *id = it->second;
    return 1;
  }
  if (!create) {
    *id = 0;  // no object has id 0: the lookup finds nothing
    return 1;
  }
  s.names.push_back(std::make_unique<std::string>(name));
  *id = static_cast<IDTYPE>(2 * s.names.size());
  s.ids.emplace(name, *id);
  return 1;
}
long id_alloc(void*, int, IDTYPE) { return 0; }  // ids chosen by the caller: not used here
void id_free(void*, int, IDTYPE) {}
char* id_print(void* state, int, IDTYPE id) {
  auto& s = *static_cast<IdState*>(state);
  if (id == 0 || id % 2 != 0 || id / 2 > s.names.size()) return nullptr;
  return const_cast<char*>(s.names[id / 2 - 1]->c_str());
}
void id_close(void* state) { delete static_cast<IdState*>(state); }
void id_register(void*, int, void*) {}

Agiddisc_t creation_order_ids = {id_open, id_map, id_alloc, id_free, id_print, id_close, id_register};

// Invisible points at the top and the bottom of a block's box: interstate edges leave from
// the bottom one and arrive at the top one.
struct Anchors {
  std::string top, bottom;
};

struct Box {
  Agraph_t* graph;
  std::vector<std::string> path;  // ids of this box and the boxes around it, outermost first
};

class Builder {
 public:
  explicit Builder(Agraph_t* root) : root_(root) {}

  // Draws the blocks of `region` inside `parent`. `around`, when given, are the anchors of the
  // box that holds the region: invisible edges from its top anchor to each block and from each
  // block to its bottom anchor keep the blocks between them, so that control flow reads top
  // to bottom as in DaCe's viewer.
  void add_region(const Box& parent, const ir::SDFG& sdfg, const ir::ControlFlowRegion& region,
                  const std::string& prefix, const Anchors* around) {
    std::map<int, Anchors> anchors;
    std::map<int, std::string> clusters;
    if (region.block_slots().empty() && around) invisible_edge(around->top, around->bottom);
    for (int slot : region.block_slots()) {
      const ir::ControlFlowBlock& block = *region.block(slot);
      std::string id = prefix + "b" + std::to_string(block.id);
      Box box = open_box(parent, id, block_title(block), ElementKind::Block, "sdfg-block");
      Anchors a = add_anchors(box, id);
      anchors[slot] = a;
      clusters[slot] = "cluster_" + id;
      if (around) {
        invisible_edge(around->top, a.top);
        invisible_edge(a.bottom, around->bottom);
      }
      switch (block.kind) {
        case ir::BlockKind::State:
          add_state(box, sdfg, static_cast<const ir::State&>(block), id, a);
          break;
        case ir::BlockKind::Region:
        case ir::BlockKind::Loop:
          add_region(box, sdfg, static_cast<const ir::ControlFlowRegion&>(block), id + "_", &a);
          break;
        case ir::BlockKind::Conditional: {
          const auto& cond = static_cast<const ir::ConditionalBlock&>(block);
          if (cond.branches.empty()) invisible_edge(a.top, a.bottom);
          for (size_t k = 0; k < cond.branches.size(); ++k) {
            const auto& [condition, body] = cond.branches[k];
            std::string branch_id = id + "c" + std::to_string(k);
            std::string title = condition ? "if " + clip(condition->code, 60) : "else";
            Box branch = open_box(box, branch_id, title, ElementKind::Block, "sdfg-branch");
            Anchors b = add_anchors(branch, branch_id);
            invisible_edge(a.top, b.top);
            invisible_edge(b.bottom, a.bottom);
            if (body) add_region(branch, sdfg, *body, branch_id + "_", &b);
            else invisible_edge(b.top, b.bottom);
          }
          break;
        }
        default:
          invisible_edge(a.top, a.bottom);  // break / continue / return: the titled box alone
          break;
      }
    }
    for (int e : region.edge_slots()) {
      const ir::InterstateEdge& edge = *region.edge(e);
      if (!anchors.count(edge.src) || !anchors.count(edge.dst)) continue;
      std::string id = prefix + "i" + std::to_string(e);
      Agedge_t* g_edge =
          agedge(root_, node_of_[anchors[edge.src].bottom], node_of_[anchors[edge.dst].top], cs(id), 1);
      set(g_edge, "id", id);
      set(g_edge, "class", "sdfg-interstate");
      set(g_edge, "ltail", clusters[edge.src]);
      set(g_edge, "lhead", clusters[edge.dst]);
      std::string label = interstate_label(edge);
      if (!label.empty()) set(g_edge, "label", escape_label(label));
      record(id, ElementKind::Interstate, parent.path);
    }
  }

  std::vector<DrawnElement> take_elements() { return std::move(elements_); }

 private:
  Box open_box(const Box& parent, const std::string& id, const std::string& title, ElementKind kind,
               const char* css_class) {
    Agraph_t* graph = agsubg(parent.graph, cs("cluster_" + id), 1);
    set(graph, "id", id);
    set(graph, "class", css_class);
    set(graph, "label", escape_label(title));
    record(id, kind, parent.path);
    Box box{graph, parent.path};
    box.path.push_back(id);
    return box;
  }

  Anchors add_anchors(const Box& box, const std::string& id) {
    Anchors a{add_anchor(box, id + "_top"), add_anchor(box, id + "_bottom")};
    return a;
  }

  // An edge that only orders its ends top to bottom (not drawn, not listed).
  void invisible_edge(const std::string& from, const std::string& to) {
    Agedge_t* edge = agedge(root_, node_of_[from], node_of_[to], cs("order" + std::to_string(invisible_++)), 1);
    set(edge, "style", "invis");
  }

  // An invisible point inside a box (an empty Graphviz cluster is not drawn at all).
  std::string add_anchor(const Box& box, const std::string& id) {
    std::string name = "anchor_" + id;
    Agnode_t* node = agnode(box.graph, cs(name), 1);
    set(node, "id", name);
    set(node, "class", "sdfg-anchor");
    set(node, "shape", "point");
    set(node, "style", "invis");
    set(node, "width", "0.01");
    set(node, "label", "");
    node_of_[name] = node;
    return name;
  }

  void add_state(const Box& state_box, const ir::SDFG& sdfg, const ir::State& state, const std::string& id,
                 const Anchors& anchors) {
    const std::vector<int>& parents = state.scope_parents();
    std::map<int, Box> scope_boxes;  // entry id -> the box of the scope it opens
    auto parent_of = [&](int node) { return node < static_cast<int>(parents.size()) ? parents[node] : -1; };
    // The box of the scope that `entry` opens, created on first use inside its parent's.
    auto scope_box = [&](auto&& self, int entry) -> Box {
      if (auto it = scope_boxes.find(entry); it != scope_boxes.end()) return it->second;
      int parent = parent_of(entry);
      Box outer = parent < 0 ? state_box : self(self, parent);
      Box box = open_box(outer, id + "s" + std::to_string(entry), "", ElementKind::Scope, "sdfg-scope");
      set(box.graph, "style", "dashed");
      scope_boxes.emplace(entry, box);
      return box;
    };
    std::map<int, std::string> names;  // node id -> the Graphviz node edges attach to
    for (int n : state.node_ids()) {
      const ir::Node& node = *state.node(n);
      int owner = node.is_scope_entry() ? n : parent_of(n);  // the scope whose box holds n
      bool own_scope = node.is_scope_entry();                // drawn in the box it opens/closes
      if (node.is_scope_exit()) {
        int entry = node.kind == ir::NodeKind::MapExit ? static_cast<const ir::MapExit&>(node).entry
                                                        : static_cast<const ir::ConsumeExit&>(node).entry;
        if (state.node(entry) && state.node(entry)->is_scope_entry()) {
          owner = entry;
          own_scope = true;
        }
      }
      Box box = owner < 0 ? state_box : scope_box(scope_box, owner);
      // A scope's entry and exit are drawn in its box but belong to the box around it, so that
      // collapsing the scope hides its contents and keeps the entry and exit in view.
      std::vector<std::string> owner_path = box.path;
      if (own_scope) owner_path.pop_back();
      std::string node_id = id + "n" + std::to_string(n);
      if (node.kind == ir::NodeKind::NestedSDFG) {
        const auto& nested = static_cast<const ir::NestedSDFGNode&>(node);
        Box nested_box = open_box(box, node_id + "x", "", ElementKind::NestedSdfg, "sdfg-nested-box");
        names[n] = add_node(nested_box, owner_path, sdfg, state, n, node_id);
        if (nested.sdfg) {
          Anchors inner{names[n], add_anchor(nested_box, node_id + "x_bottom")};
          add_region(nested_box, *nested.sdfg, *nested.sdfg, node_id + "_", &inner);
        }
      } else {
        names[n] = add_node(box, owner_path, sdfg, state, n, node_id);
      }
    }
    for (int e : state.edge_ids()) {
      const ir::DataflowEdge& edge = *state.edge(e);
      if (!names.count(edge.src) || !names.count(edge.dst)) continue;
      std::string edge_id = id + "e" + std::to_string(e);
      Agedge_t* g_edge = agedge(root_, node_of_[names[edge.src]], node_of_[names[edge.dst]], cs(edge_id), 1);
      set(g_edge, "id", edge_id);
      set(g_edge, "class", edge.memlet.is_empty() ? "sdfg-memlet sdfg-empty" : "sdfg-memlet");
      if (edge.memlet.is_empty()) set(g_edge, "style", "dashed");
      std::string label = memlet_label(edge.memlet);
      if (!label.empty()) set(g_edge, "label", escape_label(label));
      if (!edge.memlet.wcr.empty()) set(g_edge, "color", "#b03060");
      // Collapsing a box that holds either end hides the memlet.
      record(edge_id, ElementKind::Memlet, union_path(element_path(names[edge.src]), element_path(names[edge.dst])));
    }
    // Sources hang from the state's top anchor and sinks from its bottom one.
    if (names.empty()) invisible_edge(anchors.top, anchors.bottom);
    for (const auto& [n, name] : names) {
      if (state.in_edges(n).empty()) invisible_edge(anchors.top, name);
      if (state.out_edges(n).empty()) invisible_edge(name, anchors.bottom);
    }
  }

  // Draws node `n` inside `box`; `owner_path` is the boxes it belongs to (what collapses it).
  std::string add_node(const Box& box, const std::vector<std::string>& owner_path, const ir::SDFG& sdfg,
                       const ir::State& state, int n, const std::string& id) {
    const ir::Node& node = *state.node(n);
    Agnode_t* g_node = agnode(box.graph, cs(id), 1);
    node_of_[id] = g_node;
    set(g_node, "id", id);
    set(g_node, "label", escape_label(node_label(state, n)));
    std::string css = "sdfg-node";
    switch (node.kind) {
      case ir::NodeKind::Access: {
        const auto& access = static_cast<const ir::AccessNode&>(node);
        auto it = sdfg.arrays.find(access.data);
        bool transient = it != sdfg.arrays.end() && it->second.transient;
        set(g_node, "shape", "ellipse");
        if (!transient) set(g_node, "penwidth", "2.5");  // DaCe's viewer: bold = global data
        css += " sdfg-access";
        break;
      }
      case ir::NodeKind::Tasklet:
        set(g_node, "shape", "octagon");
        set(g_node, "tooltip", escape_label(clip(static_cast<const ir::Tasklet&>(node).code.code, 400)));
        css += " sdfg-tasklet";
        break;
      case ir::NodeKind::MapEntry:
      case ir::NodeKind::ConsumeEntry:
        set(g_node, "shape", "invtrapezium");
        set(g_node, "style", node.kind == ir::NodeKind::ConsumeEntry ? "dashed" : "solid");
        css += " sdfg-scope-entry";
        break;
      case ir::NodeKind::MapExit:
      case ir::NodeKind::ConsumeExit:
        set(g_node, "shape", "trapezium");
        set(g_node, "style", node.kind == ir::NodeKind::ConsumeExit ? "dashed" : "solid");
        css += " sdfg-scope-exit";
        break;
      case ir::NodeKind::NestedSDFG:
        set(g_node, "shape", "box");
        set(g_node, "style", "bold");
        css += " sdfg-nested";
        break;
      case ir::NodeKind::Library:
        set(g_node, "shape", "box");
        set(g_node, "style", "rounded,filled");
        set(g_node, "fillcolor", "#e8e8ff");
        css += " sdfg-library";
        break;
    }
    set(g_node, "class", css);
    record(id, ElementKind::Node, owner_path);
    paths_[id] = owner_path;
    return id;
  }

  const std::vector<std::string>& element_path(const std::string& id) { return paths_[id]; }

  // The boxes around either of two elements: a's, then those of b's that a lacks.
  static std::vector<std::string> union_path(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> out = a;
    for (const auto& box : b)
      if (std::find(a.begin(), a.end(), box) == a.end()) out.push_back(box);
    return out;
  }

  void record(const std::string& id, ElementKind kind, const std::vector<std::string>& path) {
    elements_.push_back(DrawnElement{id, kind, path});
  }

  Agraph_t* root_;
  int invisible_ = 0;
  std::map<std::string, Agnode_t*> node_of_;
  std::map<std::string, std::vector<std::string>> paths_;
  std::vector<DrawnElement> elements_;
};

}  // namespace

Result<Drawing> draw(const ir::SDFG& sdfg) {
  // Graphviz keeps global state (error handler, symbol tables): one drawing at a time.
  static std::mutex graphviz_mutex;
  std::lock_guard lock(graphviz_mutex);
  graphviz_messages().clear();
  agseterrf(collect_message);
  agseterr(AGERR);

  static const lt_symlist_t builtins[] = {
      {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
      {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
      {nullptr, nullptr}};
  GVC_t* gvc = gvContextPlugins(builtins, 0);
  if (!gvc) return make_error(Code::Internal, "render: Graphviz could not start");
  Agdisc_t discipline = {&AgMemDisc, &creation_order_ids, &AgIoDisc};
  Agraph_t* root = agopen(cs(sdfg.name.empty() ? "sdfg" : sdfg.name), Agdirected, &discipline);
  set(root, "compound", "true");
  set(root, "fontname", "Helvetica");
  set(root, "label", escape_label(sdfg.name));
  set(root, "labelloc", "t");
  agattr(root, AGNODE, cs("fontname"), cs("Helvetica"));
  agattr(root, AGNODE, cs("fontsize"), cs("11"));
  agattr(root, AGEDGE, cs("fontname"), cs("Helvetica"));
  agattr(root, AGEDGE, cs("fontsize"), cs("9"));
  agattr(root, AGRAPH, cs("fontname"), cs("Helvetica"));
  agattr(root, AGRAPH, cs("fontsize"), cs("11"));

  Builder builder(root);
  builder.add_region(Box{root, {}}, sdfg, sdfg, "", nullptr);
  Drawing drawing;
  drawing.elements = builder.take_elements();

  Result<Drawing> result = make_error(Code::Internal, "");
  if (gvLayout(gvc, root, "dot") != 0) {
    result = make_error(Code::Internal, "render: Graphviz could not lay out sdfg \"" + sdfg.name + "\": " +
                                            graphviz_messages());
  } else {
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(gvc, root, "svg", &data, &length) != 0 || !data) {
      result = make_error(Code::Internal, "render: Graphviz could not write SVG: " + graphviz_messages());
    } else {
      drawing.svg.assign(data, length);
      result = std::move(drawing);
    }
    if (data) gvFreeRenderData(data);
    gvFreeLayout(gvc, root);
  }
  agclose(root);
  gvFreeContext(gvc);
  return result;
}

}  // namespace dace::render
