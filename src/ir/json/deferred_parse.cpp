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
#include <array>
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

// Builds the DOM of one value from nlohmann's SAX events, as nlohmann's own DOM parser does,
// except that an object's members are collected first and the object is made with room for
// all of them: nlohmann's parser grows the member vector one key at a time, and since a member
// key is const, each growth deep-copies every member already there (a quarter of the reading
// time of large files went into those copies). Duplicate keys: the last value wins, at the
// first key's position, as in nlohmann's DOM.
class DomBuilder : public nlohmann::json_sax<Json> {
 public:
  // `max_depth`: the levels of objects and arrays the value may open (itself level 1).
  explicit DomBuilder(int max_depth) : max_depth_(static_cast<size_t>(max_depth > 0 ? max_depth : 0)) {}

  Json result;

  bool null() override { return put(Json(nullptr)); }
  bool boolean(bool v) override { return put(Json(v)); }
  bool number_integer(number_integer_t v) override { return put(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return put(Json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return put(Json(v)); }
  bool string(string_t& v) override { return put(Json(std::move(v))); }
  bool binary(binary_t& v) override { return put(Json::binary(std::move(v))); }
  bool start_object(std::size_t) override {
    if (frames_.size() >= max_depth_) return false;
    frames_.push_back(Frame{true, {}, {}, {}});
    return true;
  }
  bool key(string_t& k) override {
    frames_.back().pending_key = std::move(k);
    return true;
  }
  bool end_object() override {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    Json obj = Json::object();
    auto& members = obj.get_ref<Json::object_t&>();
    members.reserve(f.members.size());
    for (auto& [k, v] : f.members) members[std::move(k)] = std::move(v);
    return put(std::move(obj));
  }
  bool start_array(std::size_t) override {
    if (frames_.size() >= max_depth_) return false;
    frames_.push_back(Frame{false, {}, {}, {}});
    return true;
  }
  bool end_array() override {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    Json arr(Json::value_t::array);
    arr.get_ref<Json::array_t&>() = std::move(f.items);
    return put(std::move(arr));
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Frame {
    bool object;
    std::string pending_key;
    std::vector<std::pair<std::string, Json>> members;
    std::vector<Json> items;
  };
  bool put(Json v) {
    if (frames_.empty()) {
      result = std::move(v);
      return true;
    }
    Frame& f = frames_.back();
    if (f.object) f.members.emplace_back(std::move(f.pending_key), std::move(v));
    else f.items.push_back(std::move(v));
    return true;
  }
  std::vector<Frame> frames_;
  const size_t max_depth_;
};

class SkeletonParser {
 public:
  SkeletonParser(std::string_view text, ReadContext& ctx, TextRelease release = {})
      : text_(text), ctx_(ctx), release_(release) {}

  // The value starting at `pos` (after whitespace), descending into objects and arrays that
  // may hold control-flow blocks; false on anything unexpected.
  bool descend(size_t& pos, Json& out) {
    skip_ws(pos);
    if (pos >= text_.size()) return false;
    if (text_[pos] != '{' && text_[pos] != '[') return plain(pos, out);
    // The recursion keeps its own bound instead of relying on the depth check's pass: a mapped
    // file rewritten between the passes could nest deeper than that pass saw. Refusing hands
    // the text to the whole-DOM reader, which bounds its own parse.
    if (nesting_ >= kMaxJsonDepth) return false;
    ++nesting_;
    const bool ok = container(pos, out);
    --nesting_;
    return ok;
  }

  // An object or array (at `pos`), whose values may hold control-flow blocks.
  bool container(size_t& pos, Json& out) {
    if (text_[pos] == '{') return object(pos, out);
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
      release_.passed(pos);
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

  // The value at `pos`, parsed whole: by parse_simple_value when it can, else by nlohmann.
  bool plain(size_t& pos, Json& out) {
    skip_ws(pos);
    if (parse_simple_value(text_, pos, out, scratch_, levels_left())) return true;
    const size_t begin = pos;
    if (!skip_value(pos)) return false;
    DomBuilder dom(levels_left());
    if (!Json::sax_parse(text_.begin() + static_cast<ptrdiff_t>(begin), text_.begin() + static_cast<ptrdiff_t>(pos),
                         &dom))
      return false;
    out = std::move(dom.result);
    return true;
  }

  void skip_ws(size_t& pos) const {
    while (pos < text_.size() && is_ws(text_[pos])) ++pos;
  }

  // Moves past one value without checking its syntax (the parse of that range checks it).
  // False when the text ends first or the value nests deeper than the text may.
  bool skip_value(size_t& pos) const {
    const size_t n = text_.size();
    if (pos >= n) return false;
    const char c = text_[pos];
    if (c == '"') return skip_string(pos);
    if (c == '{' || c == '[') {
      // The state lists this skips are most of a large file: one table lookup per byte, on
      // locals (through `pos` and `text_` the compiler would reload both at every byte).
      static constexpr auto kClass = [] {
        std::array<unsigned char, 256> t{};
        t['"'] = 1;
        t['{'] = t['['] = 2;
        t['}'] = t[']'] = 3;
        t['\\'] = 4;
        return t;
      }();
      const int max_depth = levels_left();
      int depth = 0;
      const unsigned char* bytes = reinterpret_cast<const unsigned char*>(text_.data());
      size_t at = pos;
      bool in_string = false;
      while (at < n) {
        const unsigned char k = kClass[bytes[at]];
        if (k == 0) {
          ++at;
          continue;
        }
        if (in_string) {
          if (k == 1) in_string = false;
          at += k == 4 ? 2 : 1;  // the escaped character, whatever it is, cannot end the string
          continue;
        }
        if (k == 1) {
          in_string = true;
        } else if (k == 2) {
          if (++depth > max_depth) return false;
          release_.passed(at);  // a state's lists may be most of the file
        } else if (k == 3 && --depth == 0) {
          pos = at + 1;
          return true;
        }
        ++at;
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
  // The levels of objects and arrays a value parsed here may open, itself included: the text
  // may nest kMaxJsonDepth levels in all (check_json_depth's rule), and `nesting_` are open.
  // Deeper text makes this stage fail; the whole-DOM reader then reports it with its place.
  int levels_left() const { return kMaxJsonDepth - nesting_; }

  // Strings in .sdfg files are mostly a few characters long: a plain loop beats a memchr call.
  bool skip_string(size_t& pos) const {
    const size_t n = text_.size();
    ++pos;  // opening quote
    while (pos < n) {
      const char c = text_[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      pos += c == '\\' ? 2 : 1;  // the escaped character, whatever it is, cannot end the string
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
  // state is known only at its end: `type` may come after those keys, or come twice (the last
  // one counts, as in nlohmann's DOM). So every `nodes`/`edges` list is skipped first and
  // decided at the end, by the final type: deferred in a state, parsed otherwise. A list that
  // a later member of the same key replaces is parsed only to check its syntax (the whole-DOM
  // reader parses it too, then keeps the last value).
  bool object(size_t& pos, Json& out) {
    ++pos;
    out = Json::object();
    struct Pending {
      std::string key;
      size_t begin, end;
      bool superseded = false;
    };
    std::vector<Pending> pending;
    std::string type;
    bool parsed_early = false;
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
      for (Pending& p : pending)
        if (p.key == k) p.superseded = true;
      const bool list = text_[pos] == '[';
      // A `type` already read that is not a state's (the SDFG's and regions' `type` comes
      // first in every file we know): the list is parsed now instead of skipped and parsed
      // again at the end (the root's block list is most of the file). Should a second `type`
      // make the object a state after all, this stage gives up below.
      const bool not_a_state = !type.empty() && type != "SDFGState";
      if ((k == "nodes" || k == "edges") && list && not_a_state) {
        parsed_early = true;
        Json v;
        if (!(k == "nodes" ? descend(pos, v) : plain(pos, v))) return false;
        out[k] = std::move(v);
      } else if ((k == "nodes" || k == "edges") && list) {
        const size_t begin = pos;
        if (!skip_value(pos)) return false;
        out[k] = nullptr;  // keeps the member order; filled in below
        pending.push_back({k, begin, pos});
      } else {
        Json v;
        // Attributes hold no blocks to defer (a nested SDFG inside is read whole).
        const bool may_hold_blocks = k == "nodes" || k == "branches";
        if (!(may_hold_blocks ? descend(pos, v) : plain(pos, v))) return false;
        if (k == "type") type = v.is_string() ? v.get<std::string>() : std::string();
        out[k] = std::move(v);
      }
      release_.passed(pos);
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
    if (parsed_early && type == "SDFGState") return false;
    for (const Pending& p : pending) {
      if (!p.superseded && type == "SDFGState") {
        out[p.key] = deferred_list(p.begin, p.end);
        ++ctx_.deferred_lists;
        continue;
      }
      size_t at = p.begin;
      // Reading the list again (the root's block list is most of the file) makes its pages
      // resident again: release them as this pass moves through them too.
      release_.start(at);
      Json v;
      const bool blocks = p.key == "nodes" && !p.superseded;
      if (!(blocks ? descend(at, v) : plain(at, v))) return false;
      if (!p.superseded) out[p.key] = std::move(v);
    }
    return true;
  }

  std::string_view text_;
  ReadContext& ctx_;
  // Mutable: skipping a value (const) passes text too.
  mutable TextRelease release_;
  int nesting_ = 0;  // objects and arrays `descend` is inside
  SimpleParseScratch scratch_;
};

}  // namespace

bool parse_skeleton(std::string_view text, ReadContext& ctx, Json& out) {
  // nlohmann skips a UTF-8 byte-order mark; leave such files to it.
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF) return false;
  SkeletonParser p(text, ctx, TextRelease(ctx.release_text));
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
                         const std::function<Status(const Json&)>& fn, const FastElementFn* fast) {
  size_t begin = 0, end = 0;
  if (!deferred_range(list, begin, end) || end > ctx.text.size()) return parse_error(path, key, "bad deferred list");
  ++ctx.deferred_read;
  SkeletonParser p(ctx.text.substr(0, end), ctx);
  TextRelease release(ctx.release_text);
  release.start(begin);
  size_t pos = begin + 1;  // past '['
  p.skip_ws(pos);
  if (pos < end && ctx.text[pos] == ']') return {};
  if (fast && !json_fast_path_enabled()) fast = nullptr;
  const std::string_view text = ctx.text.substr(0, end);
  for (;;) {
    p.skip_ws(pos);
    if (!fast || !(*fast)(text, pos)) {
      Json item;
      if (!p.plain(pos, item)) return parse_error(path, key, "JSON syntax error in the list");
      DACE_TRY(fn(item));
    }
    release.passed(pos);
    p.skip_ws(pos);
    if (pos < end && ctx.text[pos] == ',') {
      ++pos;
      continue;
    }
    if (pos + 1 == end && ctx.text[pos] == ']') {
      release.finish(end);
      return {};
    }
    return parse_error(path, key, "JSON syntax error in the list");
  }
}

Status for_each_element(const Json& list, ReadContext& ctx, const std::string& path, std::string_view key,
                        const std::function<Status(const Json&)>& fn, const FastElementFn* fast) {
  if (list.is_binary()) return deferred_elements(list, ctx, path, key, fn, fast);
  for (const auto& item : list) DACE_TRY(fn(item));
  return {};
}

}  // namespace dace::ir::json::detail
