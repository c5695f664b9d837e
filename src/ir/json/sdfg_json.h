// Reading and writing DaCe's `.sdfg` JSON (DESIGN.md §4 "JSON").
// Reads every dialect DaCe has written (0.14 full-field, 0.16-1.x defaults omitted, >= 2.0a4
// with `$N` typed symbols and explicit control-flow regions), keyed on `dace_version`; `.sdfgz`
// is gzip. Writes one canonical dialect that DaCe 1.0.x loads. Output is deterministic.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "ir/json/text_release.h"
#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::ir::json {

// Bound on the bracket nesting ([ and {) of `.sdfg` text, checked before parsing so that the
// JSON parser, dump and the readers never recurse deeper than this (hostile input otherwise
// overflows the stack). The deepest file DaCe wrote in shared/sdfg-corpus, sdfg-corpus-mpi and
// tests/data nests 23 levels (mandelbrot1); each nested SDFG adds 6, each region 2, so the
// SDFG/region bound of the reader (128 levels) is reached well before this one.
inline constexpr int kMaxJsonDepth = 1024;
// Ok, or ParseError giving the line, column and byte offset of the bracket that opens level
// `limit + 1`. Brackets inside strings (with backslash escapes) do not count. Linear, no
// allocation; unbalanced or otherwise malformed text is left to the parser.
Status check_json_depth(std::string_view text, int limit = kMaxJsonDepth);
// Bound on map and consume scopes nested inside one state. DaCe's own files nest fewer than 20;
// validation checks each memlet under the assumptions of every scope around it, which is
// quadratic in this depth (1,000 levels validate in ~0.5 s, 5,000 in ~15 s, 20,000 in minutes),
// so deeper files are refused on reading rather than left to hang later stages.
inline constexpr int kMaxScopeDepth = 1024;

// Errors: ParseError for malformed JSON (message has line and column, Error::line/column set)
// and for malformed SDFG content (message names the element path and the property).
// Text nesting deeper than kMaxJsonDepth is refused before parsing (check_json_depth); a state
// whose scopes nest deeper than kMaxScopeDepth is a ParseError naming the entry that opens
// level kMaxScopeDepth + 1.
Result<std::unique_ptr<SDFG>> read_sdfg(std::string_view text);
// The same, for text that is a memory-mapped file (read_sdfg_file): the streaming way hands
// `release_text` the byte ranges it has passed (text_release.h), so the file's pages do not
// all stay resident. Same result, statuses and messages as without.
Result<std::unique_ptr<SDFG>> read_sdfg(std::string_view text, const TextReleaseFn& release_text);
// The two ways read_sdfg tries, in this order (docs/sdfg-json.md "Reading large files"):
// - streaming: a DOM of the control-flow skeleton only; the nodes and edges of each state are
//   parsed one at a time while the state is read, so memory is the SDFG plus one element.
//   Returns null (not an error) when it declines: malformed JSON, a byte-order mark, a
//   state list the readers did not read. A content error in text whose syntax a SAX pass
//   accepts is returned as is (the whole-DOM reader would give the same one). Errors: depth
//   (as above), content errors, OutOfMemory.
// - whole_dom: parses the whole text into one nlohmann DOM first (about 13 bytes per byte of
//   text), then reads it; its errors are the documented ones, so read_sdfg reports every
//   error through it. Both give the same SDFG for every file the streaming way accepts.
Result<std::unique_ptr<SDFG>> read_sdfg_streaming(std::string_view text);
Result<std::unique_ptr<SDFG>> read_sdfg_streaming(std::string_view text, const TextReleaseFn& release_text);
Result<std::unique_ptr<SDFG>> read_sdfg_whole_dom(std::string_view text);
// Input files are read up to a limit: kDefaultMaxInputBytes (1 GiB; the largest real SDFGs
// are a few MB, a million-node one a few hundred), or the environment variable
// DACE_MAX_INPUT_BYTES. The limit also bounds gzip content after inflating.
inline constexpr int64_t kDefaultMaxInputBytes = int64_t{1} << 30;
int64_t max_input_bytes();
// A whole file, read in chunks (so /dev/zero, FIFOs and growing files work): IoError when it
// cannot be opened or read, is a directory or exceeds `limit`; OutOfMemory when the buffer
// cannot grow.
Result<std::string> read_input_file(const std::string& path, int64_t limit);

// Reads a file; gzip content (by magic bytes, whatever the extension) is inflated first.
// IoError when the file cannot be read or is over the input limit; OutOfMemory when memory
// runs out while reading or parsing.
Result<std::unique_ptr<SDFG>> read_sdfg_file(const std::string& path);

struct WriteOptions {
  bool pretty = true;         // indented (DaCe's style) or compact
  bool include_guids = true;  // false for hashing and structural comparison
};
std::string write_sdfg(const SDFG& sdfg, const WriteOptions& options = {});
// `.sdfgz` extension = gzip. Atomic: written to a temporary file in the same folder, renamed.
Status write_sdfg_file(const SDFG& sdfg, const std::string& path, const WriteOptions& options = {});

Result<std::string> gzip_compress(std::string_view data);
Result<std::string> gzip_decompress(std::string_view data, int64_t limit = kDefaultMaxInputBytes);
bool is_gzip(std::string_view data);

}  // namespace dace::ir::json
