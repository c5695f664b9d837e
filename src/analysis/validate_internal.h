// Shared state of the validation passes (validate*.cpp). Rules are listed in
// docs/validation.md; each pass appends violations to a Sink and keeps going where the IR is
// still safe to inspect, so validate_all() can report many at once.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/validate_code.h"
#include "ir/path.h"
#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::analysis::detail {

// Nested SDFGs and control-flow regions deeper than this are reported, not recursed into.
inline constexpr int kMaxDepth = 256;

struct Sink {
  std::vector<Error> errors;
  size_t limit = 1;
  bool full() const { return errors.size() >= limit; }
};

// Validation state of one SDFG (top level or nested).
struct SdfgContext {
  Sink& sink;
  const ir::SDFG& sdfg;
  // Path of the NestedSDFG node holding this SDFG, with a trailing " / "; empty at top level.
  std::string prefix;
  const ir::NestedSDFGNode* holder = nullptr;  // the node holding this SDFG, if nested
  bool in_gpu = false;      // inside a GPU kernel (a GPU-scheduled scope or nested in one)
  bool in_default = false;  // inside a Default-scheduled scope: accessibility decided later
  int depth = 0;            // nesting depth of SDFGs

  std::set<std::string> declared;   // declared symbols and constants
  std::set<std::string> assigned;   // interstate assignment targets anywhere in this SDFG
  std::set<std::string> loop_vars;  // loop variables of every LoopRegion in this SDFG

  // Verdicts of the memlet bounds checks already decided in this SDFG (validate_memlet.cpp):
  // first index, last index, size (interned expressions) and the assumptions about their
  // symbols decide a verdict, and NumPy programs repeat the same few (`i + 1` in `N`) in every
  // map; the proofs behind a verdict (ISL) cost tens of microseconds each.
  std::map<std::tuple<sym::Expr, sym::Expr, sym::Expr, std::string>, int> bounds_verdicts;
  // Shape, stride and offset expressions already proven negative or not (validate_data.cpp).
  std::map<sym::Expr, bool> negative_verdicts;
  // Python tasklet code already analyzed in this SDFG, by its text: the names it reads and
  // assigns, or the parser's message (validate_state.cpp). Parsing is a pure function of the
  // text, and generated SDFGs repeat a few bodies in thousands of tasklets. Bounded by
  // kMaxCachedCodes so that an SDFG of distinct bodies does not keep a copy of them all.
  struct AnalyzedCode {
    std::optional<std::string> parse_error;
    ProgramNames names;
  };
  static constexpr size_t kMaxCachedCodes = 4096;
  std::map<std::string, AnalyzedCode, std::less<>> analyzed_code;

  SdfgContext(Sink& s, const ir::SDFG& g) : sink(s), sdfg(g) {}

  // Full element path: the nested-SDFG prefix joined with a path from ir/path.h.
  std::string where(const std::string& path) const;
  void error(const std::string& path, const std::string& what) const;
  bool full() const { return sink.full(); }
  std::string node_path(const ir::State& s, int id) const { return where(ir::path_of_node(sdfg, s, id)); }
  std::string edge_path(const ir::State& s, int id) const { return where(ir::path_of_edge(sdfg, s, id)); }
  std::string sdfg_path() const { return where(ir::path_of(sdfg)); }
  std::string block_path(const ir::ControlFlowBlock& b) const { return where(ir::path_of(sdfg, b)); }
  bool is_data(const std::string& name) const { return sdfg.arrays.count(name) > 0; }
};

// The path of a node or edge, built on first use. Nearly every element is valid and never
// needs its path; building one per element (block names quoted, numbers printed, a handful of
// allocations) was a noticeable part of validating a million-node SDFG. Converts to the
// string wherever a path is expected (SdfgContext::error).
class ElementPath {
 public:
  enum class Kind { Node, Edge };
  ElementPath(const SdfgContext& ctx, const ir::State& state, Kind kind, int id)
      : ctx_(ctx), state_(state), kind_(kind), id_(id) {}
  const std::string& str() const {
    if (!text_.has_value())
      text_ = kind_ == Kind::Node ? ctx_.node_path(state_, id_) : ctx_.edge_path(state_, id_);
    return *text_;
  }
  operator const std::string&() const { return str(); }  // NOLINT(google-explicit-constructor)

 private:
  const SdfgContext& ctx_;
  const ir::State& state_;
  Kind kind_;
  int id_;
  mutable std::optional<std::string> text_;
};

// Symbols visible in a control-flow region besides the SDFG-wide ones.
struct RegionScope {
  std::set<std::string> loop_vars;  // of the enclosing loops
  int loop_depth = 0;
  int region_depth = 0;
};

// Entry point for one SDFG (recursive through nested SDFG nodes).
void validate_sdfg(SdfgContext& ctx);
// SDFG-level rules: names, data descriptors.
void validate_descriptors(SdfgContext& ctx);
// Control-flow rules of a region and its blocks (recursing into states).
void validate_region(SdfgContext& ctx, const ir::ControlFlowRegion& region, const RegionScope& scope);
// Dataflow rules of one state (nodes, connectors, scopes, memlets, nested SDFGs).
void validate_state(SdfgContext& ctx, const ir::State& state, const RegionScope& scope);

// "undefined symbol(s) "a", "b"" helper text.
std::string names_list(const std::set<std::string>& names);

}  // namespace dace::analysis::detail
