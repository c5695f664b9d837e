#include "render/labels.h"

#include "ir/memlet.h"
#include "render/drawing.h"
#include "ir/symbolic/expr.h"

namespace dace::render {

const char* to_string(ElementKind kind) {
  switch (kind) {
    case ElementKind::Block: return "block";
    case ElementKind::Scope: return "scope";
    case ElementKind::NestedSdfg: return "nested";
    case ElementKind::Node: return "node";
    case ElementKind::Memlet: return "memlet";
    case ElementKind::Interstate: return "interstate";
  }
  return "?";
}

std::string clip(const std::string& text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  // Cut at a UTF-8 character boundary so the label stays valid text.
  size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

namespace {

// "i=0:N-1" in DaCe's viewer style: inclusive end as written in memlet syntax (exclusive).
std::string map_ranges(const ir::MapScope& map) {
  std::string out;
  for (size_t k = 0; k < map.params.size(); ++k) {
    if (k) out += ", ";
    out += map.params[k] + "=";
    if (k < map.range.dims.size()) {
      sym::Subset one;
      one.dims.push_back(map.range.dims[k]);
      // A one-point range prints as an index; show it as such ("i=3").
      out += sym::to_string(one);
    }
  }
  return out;
}

}  // namespace

std::string node_label(const ir::State& state, int node_id) {
  const ir::Node* node = state.node(node_id);
  if (!node) return {};
  switch (node->kind) {
    case ir::NodeKind::Access:
      return static_cast<const ir::AccessNode&>(*node).data;
    case ir::NodeKind::Tasklet:
      return node->label;
    case ir::NodeKind::MapEntry: {
      const auto& entry = static_cast<const ir::MapEntry&>(*node);
      return clip(node->label + "[" + map_ranges(entry.map) + "]");
    }
    case ir::NodeKind::MapExit:
    case ir::NodeKind::ConsumeExit:
      return node->label;
    case ir::NodeKind::ConsumeEntry: {
      const auto& entry = static_cast<const ir::ConsumeEntry&>(*node);
      std::string pes = entry.consume.num_pes ? sym::to_string(entry.consume.num_pes) : "?";
      return clip(node->label + "[" + entry.consume.pe_index + "=0:" + pes + "]");
    }
    case ir::NodeKind::NestedSDFG: {
      const auto& nested = static_cast<const ir::NestedSDFGNode&>(*node);
      return nested.sdfg ? nested.sdfg->name : node->label;
    }
    case ir::NodeKind::Library: {
      const auto& lib = static_cast<const ir::LibraryNode&>(*node);
      std::string cls = lib.classpath;
      if (auto dot = cls.rfind('.'); dot != std::string::npos) cls = cls.substr(dot + 1);
      std::string name = lib.name.empty() ? node->label : lib.name;
      return cls.empty() || cls == name ? name : name + " (" + cls + ")";
    }
  }
  return node->label;
}

std::string memlet_label(const ir::Memlet& memlet) {
  if (memlet.is_empty()) return {};
  std::string out = clip(ir::to_string(memlet));
  if (!memlet.wcr.empty()) out += " (CR: " + clip(memlet.wcr, 40) + ")";
  if (memlet.dynamic) out += " (dyn)";
  return out;
}

std::string interstate_label(const ir::InterstateEdge& edge) {
  std::string out;
  if (!edge.is_unconditional()) out = clip(edge.condition.code, 60);
  for (const auto& [symbol, value] : edge.assignments) {
    if (!out.empty()) out += "; ";
    out += symbol + " = " + clip(value, 40);
  }
  return out;
}

std::string block_title(const ir::ControlFlowBlock& block) {
  switch (block.kind) {
    case ir::BlockKind::Loop: {
      const auto& loop = static_cast<const ir::LoopRegion&>(block);
      std::string head = loop.inverted ? "do ... while " : "for ";
      std::string parts = loop.init_statement.code + "; " + loop.loop_condition.code + "; " +
                          loop.update_statement.code;
      return clip(block.label + ": " + head + "(" + parts + ")", 100);
    }
    case ir::BlockKind::Conditional:
      return block.label + ": if";
    case ir::BlockKind::Break:
      return "break";
    case ir::BlockKind::Continue:
      return "continue";
    case ir::BlockKind::Return:
      return "return";
    default:
      return block.label;
  }
}

}  // namespace dace::render
