// Rules on data descriptors (DaCe's Data/Array/Stream.validate and the descriptor checks of
// validate_sdfg).
#include "analysis/validate_code.h"
#include "analysis/validate_internal.h"

namespace dace::analysis::detail {

namespace {

// Remembered per SDFG: descriptors repeat the same few shapes and strides (NumPy temporaries
// of one shape), and each proof expands the expression.
bool definitely_negative(SdfgContext& ctx, sym::Expr e) {
  if (auto v = sym::as_integer(e)) return *v < 0;
  if (auto it = ctx.negative_verdicts.find(e); it != ctx.negative_verdicts.end()) return it->second;
  auto p = sym::prove(sym::lt(e, sym::integer(0)));
  const bool negative = p && *p;
  ctx.negative_verdicts.emplace(e, negative);
  return negative;
}

struct DescriptorChecker {
  SdfgContext& ctx;
  const std::string& name;
  const ir::DataDescriptor& d;
  std::string path;
  std::set<std::string> allowed;  // symbols a descriptor may use

  void fail(const std::string& what) const { ctx.error(path, what); }

  // Checks one list property; returns false when an entry is null (nothing else is safe).
  bool check_list(const std::vector<sym::Expr>& values, const char* what, bool nonnegative,
                  const std::string& why = "") {
    bool ok = true;
    for (size_t i = 0; i < values.size(); ++i) {
      sym::Expr e = values[i];
      std::string at = std::string(what) + " dimension " + std::to_string(i);
      if (!e) {
        fail(at + " is missing (null expression)");
        ok = false;
        continue;
      }
      if (nonnegative && definitely_negative(ctx, e)) fail(at + " is negative (" + sym::to_string(e) + ")" + why);
      check_symbols(e, what);
    }
    return ok;
  }

  void check_symbols(sym::Expr e, const char* what) {
    if (!e) return;
    std::set<std::string> undefined;
    for (const auto& s : sym::free_symbols(e))
      if (!allowed.count(s)) undefined.insert(s);
    if (!undefined.empty()) fail("undefined symbol " + names_list(undefined) + " in " + what);
  }

  void check_scalar(sym::Expr e, const char* what, bool nonnegative) {
    if (!e) return;
    if (nonnegative && definitely_negative(ctx, e)) fail(std::string(what) + " is negative (" + sym::to_string(e) + ")");
    check_symbols(e, what);
  }

  void run() {
    if (!is_valid_name(name)) fail("invalid data name");
    if (d.dtype.is_unknown()) fail("data descriptor has no element type");

    check_list(d.shape, "shape", true);
    if (d.kind == ir::DataKind::Scalar) {
      auto one = d.shape.size() == 1 && d.shape[0] ? sym::as_integer(d.shape[0]) : std::nullopt;
      if (!one || *one != 1) fail("a scalar must have shape (1)");
    }
    if (d.is_array_like() || d.kind == ir::DataKind::Stream) {
      // Empty strides/offset mean "defaults" (ir::complete_defaults fills them).
      if (!d.strides.empty() && d.strides.size() != d.shape.size())
        fail("has " + std::to_string(d.strides.size()) + " strides for " + std::to_string(d.shape.size()) +
             " dimensions");
      // Extra trailing offsets are ignored, as DaCe's code generator does (its GPU reduction
      // expansions write them).
      if (!d.offset.empty() && d.offset.size() < d.shape.size())
        fail("has " + std::to_string(d.offset.size()) + " offsets for " + std::to_string(d.shape.size()) +
             " dimensions");
      // Negative strides (NumPy's a[::-1]) and zero strides (broadcasts) are legal for data the
      // caller passes in, as in DaCe. A transient is allocated by libdace from its first
      // element upwards, so a negative stride would address memory before the allocation.
      check_list(d.strides, "strides", d.transient,
                 ": only non-transient data (passed in by the caller) may have negative strides");
      check_list(d.offset, "offset", false);
      // DaCe writes total sizes such as `2 - N` for reversed arguments; only what libdace
      // allocates must have a size that makes sense.
      check_scalar(d.total_size, "total size", d.transient);
      check_scalar(d.start_offset, "start offset", false);
    }
    if (d.kind == ir::DataKind::Stream) check_scalar(d.buffer_size, "buffer size", true);

    bool long_lived = d.lifetime == ir::Lifetime::Persistent || d.lifetime == ir::Lifetime::External;
    if (long_lived && d.storage == ir::StorageType::Register)
      fail(std::string("lifetime ") + ir::to_string(d.lifetime) +
           " cannot be combined with Register storage; use a different storage location");
    if (!d.transient && (long_lived || d.lifetime == ir::Lifetime::Global))
      fail(std::string("lifetime ") + ir::to_string(d.lifetime) + " applies only to transient data");
    if (!d.transient && d.kind == ir::DataKind::View) fail("a view must be transient");
    if (!d.transient && d.kind == ir::DataKind::Reference) fail("a reference must be transient");
    if (!ctx.holder && !d.transient && d.kind == ir::DataKind::Scalar && name.rfind("__return", 0) == 0)
      fail("a non-transient scalar cannot be the return value of a top-level SDFG");
  }
};

}  // namespace

void validate_descriptors(SdfgContext& ctx) {
  std::set<std::string> allowed = ctx.declared;
  allowed.insert(ctx.assigned.begin(), ctx.assigned.end());
  // A transient may be sized by a loop variable (DaCe's own LoopLifting output for syrk).
  allowed.insert(ctx.loop_vars.begin(), ctx.loop_vars.end());
  if (ctx.holder)
    for (const auto& [inner, outer] : ctx.holder->symbol_mapping) allowed.insert(inner);
  for (const auto& [name, desc] : ctx.sdfg.arrays) {
    if (ctx.full()) return;
    DescriptorChecker c{ctx, name, desc, ctx.where(ir::path_of_data(ctx.sdfg, name)), allowed};
    c.run();
  }
}

}  // namespace dace::analysis::detail
