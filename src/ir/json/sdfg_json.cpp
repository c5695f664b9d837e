// Entry points of the `.sdfg` reader and writer: JSON syntax errors with line and column,
// exception containment, pretty/compact output.
#include "ir/json/sdfg_json.h"

#include <exception>
#include <new>

#include "ir/json/json_internal.h"
#include "ir/json/json_error.h"

namespace dace::ir::json {
namespace {

// nlohmann reports the byte offset after the offending character; turn it into a 1-based
// line and column of that character.
void line_column(std::string_view text, size_t byte, int& line, int& column) {
  size_t pos = byte == 0 ? 0 : byte - 1;
  if (pos > text.size()) pos = text.size();
  line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  column = static_cast<int>(pos - line_start) + 1;
}

}  // namespace

Status check_json_depth(std::string_view text, int limit) {
  int depth = 0;
  int line = 1;
  size_t line_start = 0;
  bool in_string = false;
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character, whatever it is, cannot end the string
      else if (c == '"') in_string = false;
      else if (c == '\n') {  // invalid in JSON strings, but keeps line numbers right
        ++line;
        line_start = i + 1;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > limit) {
          const int column = static_cast<int>(i - line_start) + 1;
          return make_error(Code::ParseError,
                            "JSON nested deeper than " + std::to_string(limit) + " levels at line " +
                                std::to_string(line) + ", column " + std::to_string(column) + " (byte offset " +
                                std::to_string(i) + ")",
                            line, column);
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      case '\n':
        ++line;
        line_start = i + 1;
        break;
      default: break;
    }
  }
  return {};
}

namespace {

// Accepts every SAX event: nlohmann's parser then only checks the syntax.
struct NoopSax : nlohmann::json_sax<detail::Json> {
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

Result<std::unique_ptr<SDFG>> read_sdfg_streaming(std::string_view text) { return read_sdfg_streaming(text, {}); }

Result<std::unique_ptr<SDFG>> read_sdfg_streaming(std::string_view text, const TextReleaseFn& release_text) {
  using detail::Json;
  // Two passes over the text: the skeleton, then each state's lists; each hands back the
  // pages it has passed when the text is a mapped file. The skeleton keeps the nesting within
  // kMaxJsonDepth as it goes (a pass of its own was a tenth of the reading time of large
  // files); text nested deeper makes it fail, and the whole-DOM reader below, which checks the
  // depth first, reports where.
  TextRelease release(&release_text);
  try {
    detail::ReadContext ctx;
    ctx.text = text;
    ctx.release_text = release.active() ? &release_text : nullptr;
    Json skeleton;
    const bool parsed = detail::parse_skeleton(text, ctx, skeleton);
    release.start(0);
    release.finish(text.size());
    if (!parsed) return std::unique_ptr<SDFG>();
    auto sdfg = std::make_unique<SDFG>();
    if (Status read = detail::read_sdfg_json(skeleton, ctx, "", *sdfg); !read.ok()) {
      // A content error. The whole-DOM reader runs the same readers in the same order on the
      // same values, so it would report this very error, unless the text has a syntax error
      // further on (which it reports first). Checking the syntax without building anything
      // is much cheaper than reading again (hostile files of 50 MB are refused this way).
      NoopSax noop;
      if (Json::sax_parse(text.begin(), text.end(), &noop)) return read.error();
      return std::unique_ptr<SDFG>();
    }
    if (ctx.deferred_read != ctx.deferred_lists) return std::unique_ptr<SDFG>();
    return sdfg;
  } catch (const std::bad_alloc&) {
    return make_error(Code::OutOfMemory, "out of memory while reading an SDFG");
  } catch (const std::exception&) {
    return std::unique_ptr<SDFG>();
  }
}

namespace {
struct NestingTooDeep {};
}  // namespace

Result<std::unique_ptr<SDFG>> read_sdfg_whole_dom(std::string_view text) {
  using detail::Json;
  // Before parsing: nlohmann's parser, dump and destructor, and the readers recurse per level.
  DACE_TRY(check_json_depth(text));
  try {
    Json j;
    try {
      // The parse bounds its own nesting as well: for a mapped file, the text it reads may
      // differ from what check_json_depth read, if the file was rewritten in between.
      j = Json::parse(text.begin(), text.end(), [](int depth, Json::parse_event_t, Json&) {
        if (depth > kMaxJsonDepth) throw NestingTooDeep{};
        return true;
      });
    } catch (const NestingTooDeep&) {
      return make_error(Code::ParseError, "JSON nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    } catch (const Json::parse_error& e) {
      int line = 0, column = 0;
      line_column(text, e.byte, line, column);
      std::string what = e.what();
      // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
      auto colon = what.find(": ");
      if (colon != std::string::npos) what = what.substr(colon + 2);
      return make_error(Code::ParseError,
                        "JSON syntax error at line " + std::to_string(line) + ", column " + std::to_string(column) +
                            ": " + what,
                        line, column);
    }
    auto sdfg = std::make_unique<SDFG>();
    detail::ReadContext ctx;
    DACE_TRY(detail::read_sdfg_json(j, ctx, "", *sdfg));
    return sdfg;
  } catch (const std::bad_alloc&) {
    return make_error(Code::OutOfMemory, "out of memory while reading an SDFG");
  } catch (const std::exception& e) {
    // Type errors of unexpected shapes the readers did not check explicitly.
    return make_error(Code::ParseError, std::string("malformed SDFG: ") + json_error_reason(e));
  }
}

Result<std::unique_ptr<SDFG>> read_sdfg(std::string_view text) { return read_sdfg(text, {}); }

Result<std::unique_ptr<SDFG>> read_sdfg(std::string_view text, const TextReleaseFn& release_text) {
  auto fast = read_sdfg_streaming(text, release_text);
  if (!fast || *fast) return fast;
  return read_sdfg_whole_dom(text);
}

std::string write_sdfg(const SDFG& sdfg, const WriteOptions& options) {
  detail::WriteContext ctx;
  ctx.options = options;
  detail::Json j = detail::write_sdfg_json(sdfg, ctx, /*root=*/true);
  return j.dump(options.pretty ? 2 : -1, ' ', false, detail::Json::error_handler_t::replace);
}

}  // namespace dace::ir::json
