// Internals shared by the `.sdfg` reader and writer (not part of any public API). This is the
// only header that may include nlohmann/json; it is included by src/ir/json/*.cpp only.
#pragma once
#include <nlohmann/json.hpp>

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ir/json/sdfg_json.h"
#include "ir/json/text_release.h"
#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::ir::json::detail {

// Ordered: DaCe's dict order carries meaning (interstate assignments) and output must be
// deterministic.
using Json = nlohmann::ordered_json;

// An empty object with room for `keys` keys before it grows. ordered_json keeps an object's
// members in a vector of pair<const string, Json>; a const key cannot be moved, so growing the
// vector deep-copies every value already in it. An object that receives a nested SDFG (or a
// list holding one) and then more keys therefore copied the whole nested SDFG, once per
// enclosing level: writing 128 nested SDFGs took seconds. The writer creates such objects with
// room for all their keys.
inline Json object_with_room(size_t keys) {
  Json j = Json::object();
  j.get_ref<Json::object_t&>().reserve(keys);
  return j;
}

// Canonical dialect written by libdace: the DaCe release whose loader it targets.
inline constexpr const char* kWrittenDaceVersion = "1.0.2";

// The DaCe version that wrote a file. A missing `dace_version` reads as the oldest (0.0.0).
struct Dialect {
  int major = 0, minor = 0, patch = 0;
  static Dialect parse(std::string_view version);
  bool at_least(int ma, int mi) const { return major > ma || (major == ma && minor >= mi); }
};

// The member stack parse_simple_value reuses from call to call.
struct SimpleParseScratch {
  std::vector<std::pair<std::string, Json>> members;
};
// The JSON value at text[pos] (no leading whitespace) when it is in the subset .sdfg files
// mostly use (printable-ASCII strings without escapes, integers of up to 18 digits, literals,
// objects and arrays of those): true, `out` is the DOM nlohmann would build and `pos` is past
// the value. False (pos, out unchanged) for anything else, valid or not: parse it with
// nlohmann then (src/ir/json/simple_value_parse.cpp). A value that nests more than
// `max_depth` levels of objects and arrays (the value itself being level 1) declines too.
bool parse_simple_value(std::string_view text, size_t& pos, Json& out, SimpleParseScratch& scratch, int max_depth);
// Internal switch for differential testing, not an option: on (the default), read_sdfg parses
// values in that subset itself; off, parse_simple_value declines everything and every value
// goes to nlohmann. Both must give the same SDFG, status and message: the differential test
// (tests/fuzz/json_fast_path_diff.cpp) reads each text both ways. Process-wide; do not flip
// it while another thread reads.
void set_json_fast_path(bool enabled);

struct ReadContext {
  Dialect dialect;
  std::vector<std::string> source_files;  // DaCe >= 2.0: DebugInfo refers to these by index
  int depth = 0;                          // nesting of SDFGs and regions, bounded
  // The fast reader (parse_skeleton): the whole text, and how many state lists it left
  // unparsed and how many the readers then parsed. Unequal counts mean some deferred list
  // was not read (so its syntax was never checked): read_sdfg then reads the old way.
  std::string_view text;
  size_t deferred_lists = 0, deferred_read = 0;
  // Set when `text` is a mapped file: the reader hands back the pages it has passed
  // (text_release.h). Null for text in ordinary memory.
  const TextReleaseFn* release_text = nullptr;
};

// Nesting bound of SDFGs and regions against stack exhaustion on hostile input (DaCe's own
// files nest < 20): the root SDFG is level 1, each nested SDFG or control-flow region inside
// it one more.
inline constexpr int kMaxDepth = 128;

// ParseError `PATH: property "KEY": WHAT`. A path longer than kMaxPathChars keeps its first
// and last elements around `... (N more) ...`; a WHAT longer than kMaxWhatChars (e.g. a deep
// expression quoted by the expression parser) keeps its head and tail.
Error parse_error(const std::string& path, std::string_view property, const std::string& what);
// ParseError for SDFGs/regions nested deeper than kMaxDepth: names the root and the element
// that exceeded the bound, once.
Error nesting_error(const std::string& path);
inline constexpr size_t kMaxPathChars = 240;
inline constexpr size_t kMaxWhatChars = 400;
// `a / b / c / d / e` -> `a / ... (2 more) ... / d / e` for keep_head 1, keep_tail 2, when it
// has more elements than that; unchanged otherwise.
std::string shorten_path(std::string_view path, size_t keep_head, size_t keep_tail);

// Typed access to the `attributes` object of one element. Every key read is remembered, so
// that the keys libdace does not model can be kept verbatim afterwards (collect_extras).
class Attrs {
 public:
  // `obj` may be null or not an object (then every property reads as missing).
  Attrs(const Json* obj, std::string path);

  const std::string& path() const { return path_; }
  bool has(std::string_view key) const;
  // Marks a key consumed and returns it (null if missing).
  const Json* raw(std::string_view key);
  void skip(std::string_view key) { raw(key); }

  // Each reader leaves `out` unchanged when the key is missing (DaCe's default applies) and
  // fails with ParseError naming the element and property when the value has a wrong type.
  Status str(std::string_view key, std::string& out);            // null -> ""
  Status boolean(std::string_view key, bool& out);                // null -> unchanged
  Status integer(std::string_view key, int64_t& out);
  Status expr(std::string_view key, sym::Expr& out);              // string or integer
  Status expr_list(std::string_view key, std::vector<sym::Expr>& out);
  Status code(std::string_view key, CodeBlock& out, bool* present = nullptr);
  Status debuginfo(std::string_view key, DebugInfo& out, const ReadContext& ctx);
  Status dtype(std::string_view key, DType& out);
  Status connectors(std::string_view key, Connectors& out);
  Status subset(std::string_view key, sym::Subset& out, bool* present = nullptr);
  Status string_list(std::string_view key, std::vector<std::string>& out);
  Status storage(std::string_view key, StorageType& out);
  Status schedule(std::string_view key, ScheduleType& out);
  Status lifetime(std::string_view key, Lifetime& out);
  Status omp_schedule(std::string_view key, OmpSchedule& out);
  // A boolean that may be null (unchanged) but no other type: "expected boolean" otherwise.
  Status strict_boolean(std::string_view key, std::optional<bool>& out);

  // Unconsumed keys -> compact JSON text, minus values equal to DaCe 1.0.2's defaults of
  // properties libdace does not model (see defaults.cpp).
  void collect_extras(ExtraProperties& out) const;
  Error error(std::string_view key, const std::string& what) const { return parse_error(path_, key, what); }

 private:
  const Json* obj_;
  std::string path_;
  // Indexed by member position in obj_ (an ordered_json object is a vector of members): a
  // set of key strings cost two allocations per property read, for every node and memlet.
  std::vector<bool> consumed_;
};

// ---- value conversions shared by reader and writer ----
Result<sym::Expr> parse_expr_value(const Json& v, const std::string& path, std::string_view key);
// The text of a string value parsed as parse_expr_value parses it.
Result<sym::Expr> parse_expr_text(const std::string& text, const std::string& path, std::string_view key);
Result<sym::Subset> parse_range_json(const Json& v, const std::string& path, std::string_view key);
Result<DType> parse_dtype_json(const Json& v, const std::string& path, std::string_view key);
Result<CodeBlock> parse_code_json(const Json& v, const std::string& path, std::string_view key);
Result<DebugInfo> parse_debuginfo_json(const Json& v, const ReadContext& ctx, const std::string& path,
                                       std::string_view key);

Json expr_json(sym::Expr e);            // "N - 1" ("0" for null)
Json expr_int_json(sym::Expr e);        // integer when constant, else string (int properties)
Json range_json(const sym::Subset& s);  // {"type": "Range", "ranges": [...]}
Json dtype_json(const DType& t);
Json code_json(const CodeBlock& c);
Json debuginfo_json(const DebugInfo& d);
// Omits the key when `d` is DaCe's default DebugInfo(0, 0, 0, 0), as DaCe does.
void put_debuginfo(Json& attrs, const DebugInfo& d);
Json connectors_json(const Connectors& c);
// Extra property text back to JSON; text that is not JSON is written as a JSON string.
Json extra_value(const std::string& text);
std::string compact(const Json& j);

// Whether an unmodeled property holds DaCe 1.0.2's default (then it is not kept).
bool is_unmodeled_default(std::string_view key, const Json& value);

// ---- the fast reader's skeleton (deferred_parse.cpp) ----
// Parses `text` into `out` with the `nodes` and `edges` lists of states left as deferred byte
// ranges (nlohmann binary values, which no JSON text produces); everything else is parsed by
// nlohmann. False on anything unexpected (malformed text, a byte-order mark): the caller then
// parses the old way, whose error messages are the documented ones.
bool parse_skeleton(std::string_view text, ReadContext& ctx, Json& out);
// Reads the element at text[pos] straight into the IR when it can (true: `pos` past it), or
// declines without any effect (false).
using FastElementFn = std::function<bool(std::string_view text, size_t& pos)>;
// Calls `fn` on each element of a list: a JSON array, or a list parse_skeleton deferred, whose
// elements are then parsed one at a time. ParseError on malformed deferred text. With `fast`,
// each element of a deferred list is first offered to it, and only the ones it declines are
// parsed and given to `fn` (both must have the same effect on an element).
Status for_each_element(const Json& list, ReadContext& ctx, const std::string& path, std::string_view key,
                        const std::function<Status(const Json&)>& fn, const FastElementFn* fast = nullptr);
// Whether `list` is a deferred list (then it is not an array, but it is a list).
inline bool is_list(const Json& list) { return list.is_array() || list.is_binary(); }
// The byte range of a list parse_skeleton deferred; false for any other value.
bool deferred_range(const Json& list, size_t& begin, size_t& end);
// Pairs of large states this thread has read two at a time (read_sdfg.cpp; for tests).
uint64_t blocks_read_ahead();
Status deferred_elements(const Json& list, ReadContext& ctx, const std::string& path, std::string_view key,
                         const std::function<Status(const Json&)>& fn, const FastElementFn* fast = nullptr);

// The fast way for a state's nodes and edges (fast_elements.cpp): access nodes, tasklets, map
// entries and exits, and memlet edges whose text is in parse_simple_value's subset, read
// without a DOM into `st` (and the node's scope references into the vectors), exactly as
// read_state_json reads them the usual way. Anything else declines, leaving everything as it
// was. Off while set_json_fast_path(false).
bool read_node_fast(std::string_view text, size_t& pos, const ReadContext& ctx, State& st,
                    std::vector<int>& scope_entry, std::vector<int>& scope_exit);
bool read_edge_fast(std::string_view text, size_t& pos, const ReadContext& ctx, State& st);
bool json_fast_path_enabled();
// Elements the fast way has read on this thread so far (for tests: which way an element took).
uint64_t fast_elements_read();

// ---- reader and writer entry points between the translation units ----
Status read_sdfg_json(const Json& j, ReadContext& ctx, const std::string& parent_path, SDFG& out);
Status read_state_json(const Json& j, ReadContext& ctx, const std::string& path, State& out);

struct WriteContext {
  WriteOptions options;
  int next_cfg_id = 0;  // DaCe's cfg_list_id: pre-order index of regions and SDFGs
};
Json write_sdfg_json(const SDFG& sdfg, WriteContext& ctx, bool root);
Json write_state_json(const State& state, const SDFG& sdfg, WriteContext& ctx, int json_id);

}  // namespace dace::ir::json::detail
