// Ends of memlet paths through scope connectors (DaCe's memlet_path), for the writer's derived
// fields. Memoized per edge: one walk per edge is quadratic in the scope depth, which made
// hostile files with tens of thousands of nested maps take minutes to write.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/state.h"

namespace dace::ir::json::detail {

class MemletPaths {
 public:
  explicit MemletPaths(const State& st);

  struct Ends {
    int src = -1, dst = -1;
  };
  // First source and last destination node of the path through `edge_id`, or nullopt where
  // DaCe's memlet_path would fail (a scope connector without its partner, or a cycle).
  std::optional<Ends> ends(int edge_id);

 private:
  static constexpr int kUnknown = -2, kFail = -3, kVisiting = -4;
  int walk(int edge_id, bool backwards);
  bool is_scope(int node) const;

  const State& st_;
  std::vector<int> src_end_, dst_end_;  // per edge slot: a node, kFail or kUnknown
  // (node, connector) -> its first edge in adjacency order, as DaCe's search finds it.
  std::map<std::pair<int, std::string>, int> in_by_conn_, out_by_conn_;
};

}  // namespace dace::ir::json::detail
