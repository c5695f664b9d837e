// The process-wide intern table and the structural order of expressions.
#include <array>
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_set>

#include "ir/symbolic/internal.h"

namespace dace::sym {
namespace {

// Hash of a node from its fields; the operands' hashes are structural too, so the value is
// the same in every run (libstdc++'s string hash has a fixed seed).
size_t node_hash(Op op, int64_t value, std::string_view name, const std::vector<Expr>& args) {
  size_t h = 0x9e3779b97f4a7c15ull * (static_cast<size_t>(op) + 1);
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  mix(std::hash<int64_t>{}(value));
  if (!name.empty()) mix(std::hash<std::string_view>{}(name));
  for (Expr a : args) mix(a->hash);
  return h;
}

struct NodeHash {
  size_t operator()(const Node* n) const { return n->hash; }
};
// Operands are already interned, so shallow (pointer) comparison of operands is exact.
struct NodeEq {
  bool operator()(const Node* a, const Node* b) const {
    return a->hash == b->hash && a->op == b->op && a->value == b->value && a->name == b->name &&
           a->args == b->args;
  }
};

// Sharded so that threads interning unrelated expressions rarely contend.
constexpr size_t kShards = 64;
struct Shard {
  std::mutex mutex;
  std::unordered_set<const Node*, NodeHash, NodeEq> nodes;
  std::deque<Node> storage;  // stable addresses; nodes are never freed
};

std::array<Shard, kShards>& shards() {
  static auto* table = new std::array<Shard, kShards>();  // outlives static destructors
  return *table;
}

int op_rank(Op op) {
  // Order of kinds in sorted operand lists: constants first, then symbols, then compounds.
  return static_cast<int>(op);
}

}  // namespace

namespace detail {

Expr make(Op op, std::vector<Expr> args, int64_t value, std::string_view name) {
  Node probe;
  probe.op = op;
  probe.value = value;
  probe.name = std::string(name);
  probe.args = std::move(args);
  probe.hash = node_hash(op, value, name, probe.args);
  Shard& shard = shards()[probe.hash % kShards];
  std::lock_guard<std::mutex> lock(shard.mutex);
  auto it = shard.nodes.find(&probe);
  if (it != shard.nodes.end()) return *it;
  shard.storage.push_back(std::move(probe));
  const Node* node = &shard.storage.back();
  shard.nodes.insert(node);
  return node;
}

}  // namespace detail

int compare(Expr a, Expr b) {
  if (a == b) return 0;
  if (a->op != b->op) return op_rank(a->op) < op_rank(b->op) ? -1 : 1;
  switch (a->op) {
    case Op::Integer:
    case Op::Boolean:
      return a->value < b->value ? -1 : 1;  // equal values would be the same node
    case Op::Symbol:
      return a->name < b->name ? -1 : 1;
    default:
      break;
  }
  if (a->name != b->name) return a->name < b->name ? -1 : 1;
  size_t n = std::min(a->args.size(), b->args.size());
  for (size_t i = 0; i < n; ++i) {
    int c = compare(a->args[i], b->args[i]);
    if (c != 0) return c;
  }
  if (a->args.size() != b->args.size()) return a->args.size() < b->args.size() ? -1 : 1;
  return 0;
}

}  // namespace dace::sym
