// Structural equality and the content hash of SDFGs.
#pragma once
#include <string>

#include "ir/sdfg.h"

namespace dace::ir {

// Equal structure and properties; element guids and the order of removed slots are ignored.
// On inequality, `difference` (if given) receives a short description of the first difference
// (a JSON pointer-like location and both values).
bool structurally_equal(const SDFG& a, const SDFG& b, std::string* difference = nullptr);

// Lower-case hex SHA-256 of the canonical JSON without guids: the same SDFG always gives the
// same hash, on any machine; used as cache key.
std::string content_hash(const SDFG& sdfg);

// SHA-256 of arbitrary bytes, lower-case hex.
std::string sha256_hex(std::string_view data);

}  // namespace dace::ir
