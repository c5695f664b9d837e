// Dataflow nodes inside a state (DaCe's `dace.sdfg.nodes`).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/common.h"
#include "ir/dtype.h"
#include "ir/symbolic/expr.h"

namespace dace::ir {

class SDFG;

enum class NodeKind { Access, Tasklet, MapEntry, MapExit, ConsumeEntry, ConsumeExit, NestedSDFG, Library };
const char* to_string(NodeKind k);  // DaCe class name: "AccessNode", "Tasklet", ...

// Connector name -> type (unknown type = inferred), in name order (deterministic). Sparse:
// access nodes, most of the nodes, have none, and two empty std::maps took 96 bytes of each.
using Connectors = SparseMap<std::string, DType>;

class Node {
 public:
  explicit Node(NodeKind kind) : kind(kind) {}
  virtual ~Node() = default;
  virtual std::unique_ptr<Node> clone() const = 0;

  const NodeKind kind;
  std::string label;
  Connectors in_connectors, out_connectors;
  // Out of line: most nodes have none of these (a DaCe file sets debuginfo and guid).
  OutOfLine<DebugInfo> debuginfo;
  OutOfLine<std::string> guid;
  ExtraProperties extra;

  bool is_scope_entry() const { return kind == NodeKind::MapEntry || kind == NodeKind::ConsumeEntry; }
  bool is_scope_exit() const { return kind == NodeKind::MapExit || kind == NodeKind::ConsumeExit; }
};

template <class Derived>
class NodeBase : public Node {
 public:
  using Node::Node;
  std::unique_ptr<Node> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

class AccessNode : public NodeBase<AccessNode> {
 public:
  AccessNode() : NodeBase(NodeKind::Access) {}
  std::string data;
  bool setzero = false;
};

// The default of a tasklet's global, init and exit code: none, in C++ (DaCe's default).
struct EmptyCppCode {
  static const CodeBlock& value() {
    static const CodeBlock empty{"", Language::CPP};
    return empty;
  }
};

class Tasklet : public NodeBase<Tasklet> {
 public:
  Tasklet() : NodeBase(NodeKind::Tasklet) {}
  CodeBlock code;
  // Rarely set: out of line, so that a tasklet without them does not carry three strings.
  OutOfLine<CodeBlock, EmptyCppCode> code_global, code_init, code_exit;
  bool side_effects = false;
};

// Properties of a map scope, held by the MapEntry (the MapExit refers to its entry).
struct MapScope {
  std::vector<std::string> params;
  sym::Subset range;  // one Range per parameter, inclusive ends
  ScheduleType schedule = ScheduleType::Default;
  bool unroll = false;
  int64_t collapse = 1;
  int64_t omp_num_threads = 0;
  OmpSchedule omp_schedule = OmpSchedule::Default;
  int64_t omp_chunk_size = 0;
  std::vector<sym::Expr> gpu_block_size;  // empty = default
};

class MapEntry : public NodeBase<MapEntry> {
 public:
  MapEntry() : NodeBase(NodeKind::MapEntry) {}
  MapScope map;
};

// Properties of a consume scope (processing elements popping from a stream).
struct ConsumeScope {
  std::string pe_index;
  sym::Expr num_pes = nullptr;
  CodeBlock condition;  // empty code = until the stream is empty
  ScheduleType schedule = ScheduleType::Default;
  sym::Expr chunksize = nullptr;
};

class ConsumeEntry : public NodeBase<ConsumeEntry> {
 public:
  ConsumeEntry() : NodeBase(NodeKind::ConsumeEntry) {}
  ConsumeScope consume;
};

// Exits refer to their entry by node id within the same state.
class MapExit : public NodeBase<MapExit> {
 public:
  MapExit() : NodeBase(NodeKind::MapExit) {}
  int entry = -1;
};

class ConsumeExit : public NodeBase<ConsumeExit> {
 public:
  ConsumeExit() : NodeBase(NodeKind::ConsumeExit) {}
  int entry = -1;
};

class NestedSDFGNode : public Node {
 public:
  NestedSDFGNode();
  NestedSDFGNode(const NestedSDFGNode& other);
  ~NestedSDFGNode() override;
  std::unique_ptr<Node> clone() const override;

  std::unique_ptr<SDFG> sdfg;
  std::map<std::string, sym::Expr> symbol_mapping;  // inner symbol -> outer expression
  ScheduleType schedule = ScheduleType::Default;
};

// A library node of any class; the class-specific properties (e.g. MatMul's alpha, Reduce's
// axes) stay as JSON text in `properties` so unknown classes round-trip unchanged.
class LibraryNode : public NodeBase<LibraryNode> {
 public:
  LibraryNode() : NodeBase(NodeKind::Library) {}
  std::string name;          // DaCe's `name` attribute
  std::string classpath;     // e.g. "dace.libraries.blas.nodes.matmul.MatMul"
  std::string implementation;
  ScheduleType schedule = ScheduleType::Default;
  ExtraProperties properties;  // class-specific, key -> JSON text
};

}  // namespace dace::ir
