// The first stage of the fast `.sdfg` reader: a DOM of the control-flow skeleton only. The
// `nodes` and `edges` lists of every state stay unparsed, as byte ranges of the text, and the
// state reader parses their elements one at a time (for_each_element). A whole-file DOM costs
// about 13 bytes per byte of text (5.9 GB for a 447 MB file) and most of the reading time in
// allocation; this way at most one node or edge is a DOM at any time.
//
// Syntax is checked where it matters for the result: every value that ends up in the DOM is
// parsed by nlohmann (strictly), and so is every element of a deferred list. The separators
// between them are checked here. Anything unusual makes this stage fail, and read_sdfg then
// reads the file the old way (whole DOM), which gives the exact error message.
#include <cstring>

#include "ir/json/json_internal.h"

namespace dace::ir::json::detail {
namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Deferred lists are nlohmann binary values: JSON text never produces one, so a reader that
// meets one knows it is a deferred byte range (offset, length).
Json deferred_list(size_t begin, size_t end) {
  Json::binary_t bytes;
  bytes.resize(2 * sizeof(uint64_t));
  const uint64_t parts[2] = {begin, end - begin};
  std::memcpy(bytes.data(), parts, sizeof parts);
  return Json::binary(std::move(bytes));
}

class SkeletonParser {
 public:
  SkeletonParser(std::string_view text, ReadContext& ctx) : text_(text), ctx_(ctx) {}

  // The value starting at `pos` (after whitespace), descending into objects and arrays that
  // may hold control-flow blocks; false on anything unexpected.
  bool descend(size_t& pos, Json& out) {
    skip_ws(pos);
    if (pos >= text_.size()) return false;
    if (text_[pos] == '{') return object(pos, out);
    if (text_[pos] == '[') {
      ++pos;
      out = Json::array();
      skip_ws(pos);
      if (pos < text_.size() && text_[pos] == ']') {
        ++pos;
        return true;
      }
      for (;;) {
        Json item;
        if (!descend(pos, item)) return false;
        out.push_back(std::move(item));
        skip_ws(pos);
        if (pos >= text_.size()) return false;
        if (text_[pos] == ',') {
          ++pos;
          continue;
        }
        if (text_[pos] != ']') return false;
        ++pos;
        return true;
      }
    }
    return plain(pos, out);
  }

  // The value at `pos`, parsed whole by nlohmann.
  bool plain(size_t& pos, Json& out) {
    skip_ws(pos);
    const size_t begin = pos;
    if (!skip_value(pos)) return false;
    out = Json::parse(text_.begin() + static_cast<ptrdiff_t>(begin), text_.begin() + static_cast<ptrdiff_t>(pos),
                      nullptr, /*allow_exceptions=*/false);
    return !out.is_discarded();
  }

  void skip_ws(size_t& pos) const {
    while (pos < text_.size() && is_ws(text_[pos])) ++pos;
  }

  // Moves past one value without checking it (the parse of that range checks it). False when
  // the text ends first.
  bool skip_value(size_t& pos) const {
    const size_t n = text_.size();
    if (pos >= n) return false;
    const char c = text_[pos];
    if (c == '"') return skip_string(pos);
    if (c == '{' || c == '[') {
      int depth = 0;
      while (pos < n) {
        const char d = text_[pos];
        if (d == '"') {
          if (!skip_string(pos)) return false;
          continue;
        }
        if (d == '{' || d == '[') ++depth;
        else if (d == '}' || d == ']') {
          if (--depth == 0) {
            ++pos;
            return true;
          }
        }
        ++pos;
      }
      return false;
    }
    // Number or literal: up to the next separator.
    const size_t begin = pos;
    while (pos < n && !is_ws(text_[pos]) && text_[pos] != ',' && text_[pos] != '}' && text_[pos] != ']' &&
           text_[pos] != ':')
      ++pos;
    return pos > begin;
  }

 private:
  bool skip_string(size_t& pos) const {
    const size_t n = text_.size();
    ++pos;  // opening quote
    while (pos < n) {
      const char* p = static_cast<const char*>(std::memchr(text_.data() + pos, '"', n - pos));
      if (!p) return false;
      size_t q = static_cast<size_t>(p - text_.data());
      // Escaped when preceded by an odd number of backslashes.
      size_t backslashes = 0;
      while (q - backslashes > pos && text_[q - backslashes - 1] == '\\') ++backslashes;
      pos = q + 1;
      if (backslashes % 2 == 0) return true;
    }
    return false;
  }

  bool key(size_t& pos, std::string& out) {
    skip_ws(pos);
    if (pos >= text_.size() || text_[pos] != '"') return false;
    Json k;
    if (!plain(pos, k) || !k.is_string()) return false;
    out = std::move(k.get_ref<std::string&>());
    return true;
  }

  // Members in order; `nodes` and `edges` of a state are deferred. Whether the object is a
  // state may only be known after those keys (`type` can come last), so they are skipped
  // first and decided at the end.
  bool object(size_t& pos, Json& out) {
    ++pos;
    out = Json::object();
    struct Pending {
      std::string key;
      size_t begin, end;
    };
    std::vector<Pending> pending;
    std::string type;
    bool has_type = false;
    skip_ws(pos);
    if (pos < text_.size() && text_[pos] == '}') {
      ++pos;
      return true;
    }
    for (;;) {
      std::string k;
      if (!key(pos, k)) return false;
      skip_ws(pos);
      if (pos >= text_.size() || text_[pos] != ':') return false;
      ++pos;
      skip_ws(pos);
      if (pos >= text_.size()) return false;
      const bool list = text_[pos] == '[';
      if ((k == "nodes" || k == "edges") && list && (!has_type || type == "SDFGState")) {
        const size_t begin = pos;
        if (!skip_value(pos)) return false;
        if (has_type) {
          out[k] = deferred_list(begin, pos);
          ++ctx_.deferred_lists;
        } else {
          out[k] = nullptr;  // keeps the member order; filled in below
          pending.push_back({k, begin, pos});
        }
      } else {
        Json v;
        // Attributes hold no blocks to defer (a nested SDFG inside is read whole).
        const bool may_hold_blocks = k == "nodes" || k == "branches";
        if (!(may_hold_blocks ? descend(pos, v) : plain(pos, v))) return false;
        if (k == "type" && v.is_string()) {
          has_type = true;
          type = v.get<std::string>();
        }
        out[k] = std::move(v);
      }
      skip_ws(pos);
      if (pos >= text_.size()) return false;
      if (text_[pos] == ',') {
        ++pos;
        continue;
      }
      if (text_[pos] != '}') return false;
      ++pos;
      break;
    }
    for (const Pending& p : pending) {
      if (type == "SDFGState") {
        out[p.key] = deferred_list(p.begin, p.end);
        ++ctx_.deferred_lists;
        continue;
      }
      size_t at = p.begin;
      Json v;
      if (!(p.key == "nodes" ? descend(at, v) : plain(at, v))) return false;
      out[p.key] = std::move(v);
    }
    return true;
  }

  std::string_view text_;
  ReadContext& ctx_;
};

}  // namespace

bool parse_skeleton(std::string_view text, ReadContext& ctx, Json& out) {
  // nlohmann skips a UTF-8 byte-order mark; leave such files to it.
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF) return false;
  SkeletonParser p(text, ctx);
  size_t pos = 0;
  if (!p.descend(pos, out)) return false;
  p.skip_ws(pos);
  return pos == text.size();
}

bool deferred_range(const Json& list, size_t& begin, size_t& end) {
  if (!list.is_binary()) return false;
  const auto& bytes = list.get_binary();
  if (bytes.size() != 2 * sizeof(uint64_t)) return false;
  uint64_t parts[2];
  std::memcpy(parts, bytes.data(), sizeof parts);
  begin = parts[0];
  end = parts[0] + parts[1];
  return true;
}

Status deferred_elements(const Json& list, ReadContext& ctx, const std::string& path, std::string_view key,
                         const std::function<Status(const Json&)>& fn) {
  size_t begin = 0, end = 0;
  if (!deferred_range(list, begin, end) || end > ctx.text.size()) return parse_error(path, key, "bad deferred list");
  ++ctx.deferred_read;
  SkeletonParser p(ctx.text.substr(0, end), ctx);
  size_t pos = begin + 1;  // past '['
  p.skip_ws(pos);
  if (pos < end && ctx.text[pos] == ']') return {};
  for (;;) {
    Json item;
    if (!p.plain(pos, item)) return parse_error(path, key, "JSON syntax error in the list");
    DACE_TRY(fn(item));
    p.skip_ws(pos);
    if (pos < end && ctx.text[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos + 1 == end && ctx.text[pos] == ']') return {};
    return parse_error(path, key, "JSON syntax error in the list");
  }
}

Status for_each_element(const Json& list, ReadContext& ctx, const std::string& path, std::string_view key,
                        const std::function<Status(const Json&)>& fn) {
  if (list.is_binary()) return deferred_elements(list, ctx, path, key, fn);
  for (const auto& item : list) DACE_TRY(fn(item));
  return {};
}

}  // namespace dace::ir::json::detail
