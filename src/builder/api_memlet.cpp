#include "builder/api_memlet.h"

#include <map>
#include <set>

#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "builder/api_text.h"
#include "ir/tasklet/parser.h"

namespace dace::capi {

using namespace dace::ir;

Result<std::string> parse_wcr(const char* wcr, const std::string& where) {
  std::string text(wcr);
  auto canonical = canonical_wcr(text);
  if (!canonical)
    return invalid(where + ": unknown WCR " + quoted(text) +
                   " (use a lambda \"lambda a, b: a + b\" or sum, product, min, max, logical_and, logical_or, "
                   "logical_xor, bitwise_and, bitwise_or, bitwise_xor, exchange)");
  // Check the lambda where the user wrote one, so columns refer to their text.
  std::string_view lam = text.find("lambda") != std::string::npos ? std::string_view(text) : std::string_view(*canonical);
  Piece whole = trim(lam);
  size_t colon = whole.text.find(':');
  auto fail = [&](size_t pos, const std::string& why) {
    return make_error(Code::ParseError,
                      where + ": cannot parse WCR " + quoted(lam) + ": " + why + " at column " +
                          std::to_string(pos + 1),
                      1, static_cast<int>(pos) + 1);
  };
  if (colon == std::string_view::npos) return fail(whole.offset + whole.text.size(), "expected ':'");
  auto params = split_top(whole.text.substr(6, colon - 6), ',');
  if (params.size() != 2 || !is_identifier(params[0].text) || !is_identifier(params[1].text))
    return fail(whole.offset + 6, "expected two parameters (lambda a, b: ...)");
  Piece body = trim(whole.text.substr(colon + 1), whole.offset + colon + 1);
  auto e = tasklet::parse_expression(body.text);
  if (!e) return relocate(e.error(), where, "WCR", lam, body.offset);
  return *canonical;
}

Result<Memlet> build_memlet(const SDFG& sdfg, const char* text, const dace_memlet_options_t* caller_options,
                            const std::string& where) {
  // Only the caller's version's bytes are read; `options` points at that copy.
  auto read = read_options(caller_options);
  if (!read) return read.take_error();
  const dace_memlet_options_t* options = caller_options ? &*read : nullptr;
  std::string_view t = text ? std::string_view(text) : std::string_view();
  auto parsed = parse_memlet(t);
  if (!parsed) {
    Error e = parsed.take_error();
    return relocate(e, where, "memlet", t, 0);
  }
  Memlet m = std::move(*parsed);
  if (m.is_empty()) {
    if (options && (options->wcr || options->volume))
      return invalid(where + ": an empty memlet cannot have a WCR or volume");
    return m;
  }
  auto it = sdfg.arrays.find(m.data);
  if (it == sdfg.arrays.end())
    return not_found(where + ": memlet " + quoted(t) + " refers to unknown data container " + quoted(m.data));
  const DataDescriptor& desc = it->second;
  if (m.subset.rank() == 0) {
    m.subset = whole_subset(desc);
  } else if (m.subset.rank() != desc.rank()) {
    return invalid(where + ": memlet " + quoted(t) + " has " + std::to_string(m.subset.rank()) +
                   " dimensions but " + quoted(m.data) + " has " + std::to_string(desc.rank()));
  }
  if (options) {
    if (options->wcr && *options->wcr) {
      auto w = parse_wcr(options->wcr, where);
      if (!w) return w.take_error();
      m.wcr = *w;
    }
    if (options->volume && *options->volume) {
      std::string_view v(options->volume);
      auto e = parse_expr(v, trim(v), where, "volume");
      if (!e) return e.take_error();
      m.volume = *e;
    }
    m.dynamic = options->dynamic != 0;
    m.wcr_nonatomic = options->wcr_nonatomic != 0;
    m.allow_oob = options->allow_oob != 0;
  }
  return m;
}

}  // namespace dace::capi
