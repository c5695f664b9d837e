// Reading and writing DaCe's `.sdfg` JSON (DESIGN.md §4 "JSON").
// Reads every dialect DaCe has written (0.14 full-field, 0.16-1.x defaults omitted, >= 2.0a4
// with `$N` typed symbols and explicit control-flow regions), keyed on `dace_version`; `.sdfgz`
// is gzip. Writes one canonical dialect that DaCe 1.0.x loads. Output is deterministic.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::ir::json {

// Errors: ParseError for malformed JSON (message has line and column, Error::line/column set)
// and for malformed SDFG content (message names the element path and the property).
Result<std::unique_ptr<SDFG>> read_sdfg(std::string_view text);
// Reads a file; gzip content (by magic bytes, whatever the extension) is inflated first.
// IoError when the file cannot be read.
Result<std::unique_ptr<SDFG>> read_sdfg_file(const std::string& path);

struct WriteOptions {
  bool pretty = true;         // indented (DaCe's style) or compact
  bool include_guids = true;  // false for hashing and structural comparison
};
std::string write_sdfg(const SDFG& sdfg, const WriteOptions& options = {});
// `.sdfgz` extension = gzip. Atomic: written to a temporary file in the same folder, renamed.
Status write_sdfg_file(const SDFG& sdfg, const std::string& path, const WriteOptions& options = {});

Result<std::string> gzip_compress(std::string_view data);
Result<std::string> gzip_decompress(std::string_view data);
bool is_gzip(std::string_view data);

}  // namespace dace::ir::json
