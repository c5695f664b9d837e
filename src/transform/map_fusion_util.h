// Helpers of MapFusion (map_fusion.cpp, map_fusion_apply.cpp): parameter remapping, the
// subset of a memlet that refers to a given container, reachability and whole-SDFG use of
// a container, fresh names.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/sdfg.h"
#include "transform/scope_tree.h"

namespace dace::transform::map_fusion {

// How to rename the second map's parameters into the first's so that each renamed
// parameter has the same range (DaCe's find_parameter_remapping): parameters with equal
// name and range stay; the others are paired in order with the first unused first-map
// parameter of equal range. Empty map = no renaming needed; nullopt = the ranges differ.
std::optional<std::map<std::string, std::string>> parameter_remapping(const ir::MapScope& first,
                                                                      const ir::MapScope& second);

// The subset of `m` that addresses container `data`: `subset` when the memlet names it,
// else `other_subset` (a copy between two containers); null when neither says.
const sym::Subset* subset_of(const ir::Memlet& m, const std::string& data);
sym::Subset* subset_of(ir::Memlet& m, const std::string& data);

sym::Subset substitute(const sym::Subset& s, const std::map<std::string, sym::Expr>& values);
std::map<std::string, sym::Expr> as_symbols(const std::map<std::string, std::string>& rename);

// Whether `to` can be reached from `from` along dataflow edges (`from` itself counts).
bool reachable(const ir::State& state, int from, int to);
// Whether an access node to `data` other than node `except` of `state` is reachable from it.
bool accessed_downstream(const ir::State& state, int except, const std::string& data);
// Whether `data` is used anywhere in `sdfg` besides node `except` of `state`: another access
// node in any state, an interstate condition or assignment, a loop or branch condition.
bool used_elsewhere(const ir::SDFG& sdfg, const ir::State& state, int except, const std::string& data);

// `base` if `node` has neither IN_base nor OUT_base, else base_1, base_2, ...
std::string fresh_connector(const ir::Node& node, const std::string& base);
// `base` if no container has that name, else base_0, base_1, ...
std::string fresh_data_name(const ir::SDFG& sdfg, const std::string& base);

// Assumptions under which a subset relation must hold at every iteration: map parameters
// may take any value, other symbols are positive as in DaCe.
sym::Assumptions any_iteration(const std::vector<std::string>& params);

// "access node 3 (A)", "MapEntry 5 (label)": a node as refusals name it.
std::string node_name(const ir::State& state, int id);
// Why the second map's body cannot be placed in the first map's scope after renaming its
// parameters by `rename` (empty when it can): a first-map parameter it uses for something
// else would be captured, renamed parameters occurring in code (not rewritten), inner maps
// redefining a parameter, renaming inside nodes other than tasklets, access nodes, maps and
// nested SDFGs (whose symbol mapping is rewritten).
std::string renaming_problem(const ir::State& state, const ScopeTree& scopes, const ir::MapScope& first,
                             int second_entry, int second_exit, const std::map<std::string, std::string>& rename);

// Renames map parameters (`values`) in everything of the scope `entry`..`exit` that can
// name them: memlets of the scope's edges, ranges of the maps inside and the symbol mappings
// of nested SDFGs inside (not code).
void rename_scope(ir::State& state, const ScopeTree& scopes, int entry, int exit,
                  const std::map<std::string, sym::Expr>& values);
// Moves every IN_x/OUT_x pair of scope node `from` to `to` under a fresh connector name,
// and its empty edges with it (an empty edge already present on `to` is not duplicated).
void move_connections(ir::State& state, int from, int to);

// Views and references alias other containers; their accesses are not tracked here.
bool is_view(const ir::DataDescriptor& d);

}  // namespace dace::transform::map_fusion
