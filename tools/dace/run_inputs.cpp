#include "run_inputs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include <sys/mman.h>

#include "array_values.h"
#include "capi_util.h"

namespace dace::cli {

uint8_t* ArgumentByteAllocator::allocate(size_t n) {
  constexpr size_t kHuge = size_t{2} << 20, kFrom = size_t{4} << 20;
  void* p = nullptr;
  if (n >= kFrom) {
    const size_t size = (n + kHuge - 1) / kHuge * kHuge;
    p = std::aligned_alloc(kHuge, size);
    // Advice only: where the kernel has no huge pages to give, the buffer works as it is.
    if (p) (void)madvise(p, size, MADV_HUGEPAGE);
  } else {
    p = std::malloc(n ? n : 1);
  }
  if (!p) throw std::bad_alloc();
  return static_cast<uint8_t*>(p);
}

void ArgumentByteAllocator::deallocate(uint8_t* p, size_t) noexcept { std::free(p); }

namespace {

std::string in_quotes(const std::string& s) { return "'" + s + "'"; }

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// Top-level comma-separated terms of a shape expression ("N, M + 1" -> {"N", "M + 1"}).
std::vector<std::string> shape_terms(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  auto flush = [&] {
    size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
    out.push_back(b == std::string::npos ? "" : cur.substr(b, e - b + 1));
    cur.clear();
  };
  for (char c : text) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) flush();
    else cur += c;
  }
  flush();
  return out;
}

// A scalar or symbol value from -s text, for an argument of type `t`.
bool value_from_text(dace_dtype_t t, bool symbol, const std::string& text, dace_arg_t& v) {
  if (symbol || !dtype_is_float(t)) {
    if (!symbol && dtype_is_complex(t)) {
      // "re" or "re,im"
      size_t comma = text.find(',');
      double re = 0, im = 0;
      if (!parse_double(text.substr(0, comma), re)) return false;
      if (comma != std::string::npos && !parse_double(text.substr(comma + 1), im)) return false;
      v.kind = DACE_ARG_COMPLEX;
      v.value.c[0] = re;
      v.value.c[1] = im;
      return true;
    }
    int64_t i = 0;
    if (text == "true" || text == "True") i = 1;
    else if (text == "false" || text == "False") i = 0;
    else if (!parse_int64(text, i)) return false;
    v.kind = symbol ? DACE_ARG_SYMBOL : DACE_ARG_INT;
    v.value.i = i;
    return true;
  }
  double d = 0;
  if (!parse_double(text, d)) return false;
  v.kind = DACE_ARG_FLOAT;
  v.value.f = d;
  return true;
}

// A scalar or symbol value from a one-element array.
bool value_from_npy(dace_dtype_t t, bool symbol, const npy::Array& a, dace_arg_t& v, std::string& error) {
  if (a.size() != 1) {
    error = "has " + std::to_string(a.size()) + " elements; a scalar needs one";
    return false;
  }
  const dace_dtype_t at = static_cast<dace_dtype_t>(a.dtype);
  if (!symbol && dtype_is_complex(t)) {
    std::complex<double> c = element(at, a.data.data(), 0);
    v.kind = DACE_ARG_COMPLEX;
    v.value.c[0] = c.real();
    v.value.c[1] = c.imag();
    return true;
  }
  if (!symbol && dtype_is_float(t)) {
    if (dtype_is_complex(at)) {
      error = "is complex; the argument is " + std::string(dtype_name(t));
      return false;
    }
    v.kind = DACE_ARG_FLOAT;
    v.value.f = element(at, a.data.data(), 0).real();
    return true;
  }
  int64_t i = 0;
  if (!exact_int(a, 0, i)) {
    error = "is not an integer; the argument is " + std::string(symbol ? "a symbol" : dtype_name(t));
    return false;
  }
  v.kind = symbol ? DACE_ARG_SYMBOL : DACE_ARG_INT;
  v.value.i = i;
  return true;
}

void generated_scalar(dace_dtype_t t, bool symbol, dace_arg_t& v) {
  uint8_t buf[16] = {};
  fill_generated(t, 1, buf);
  std::complex<double> c = element(t, buf, 0);
  if (dtype_is_complex(t)) {
    v.kind = DACE_ARG_COMPLEX;
    v.value.c[0] = c.real();
    v.value.c[1] = c.imag();
  } else if (dtype_is_float(t)) {
    v.kind = DACE_ARG_FLOAT;
    v.value.f = c.real();
  } else {
    v.kind = symbol ? DACE_ARG_SYMBOL : DACE_ARG_INT;
    v.value.i = static_cast<int64_t>(c.real());
  }
}


// Records the element strides the program expects for array argument `index` when they are
// not C order, so the array is laid out that way for the call (DaCe's descriptors may be
// Fortran-ordered, padded, reversed or broadcast).
bool expected_layout(const dace_program_t* program, int32_t index, const std::vector<const char*>& sym_names,
                     const std::vector<int64_t>& sym_values, BoundArgument& a, std::string& error) {
  std::vector<int64_t> strides(a.shape.size() + 1);
  size_t ndim = 0;
  dace_status_t st = dace_program_argument_strides(strides.data(), strides.size(), &ndim, program, index,
                                                   sym_names.data(), sym_values.data(),
                                                   static_cast<int32_t>(sym_names.size()));
  if (st != DACE_OK) {
    error = "array " + in_quotes(a.name) + ": strides: " + dace_last_error_message();
    return false;
  }
  if (ndim != a.shape.size()) return true;  // a rank mismatch: the call reports it
  strides.resize(ndim);
  bool c_order = true;
  int64_t running = 1;
  for (size_t d = ndim; d-- > 0;) {
    if (a.shape[d] > 1 && strides[d] != running) c_order = false;
    running *= a.shape[d];
  }
  if (c_order) return true;
  // The buffer spans every element the strides reach; refuse spans that do not fit memory.
  long double span = 1;
  for (size_t d = 0; d < ndim; ++d)
    if (a.shape[d] > 0) span += static_cast<long double>(a.shape[d] - 1) * std::abs(static_cast<long double>(strides[d]));
  if (span * dtype_size(a.dtype) > static_cast<long double>(INT64_MAX) / 4) {
    error = "array " + in_quotes(a.name) + ": its strides span more memory than can be allocated";
    return false;
  }
  a.strides = std::move(strides);
  return true;
}

}  // namespace

bool bind_arguments(const dace_program_t* program, const dace_sdfg_t* sdfg, const RunInputs& in,
                    std::vector<BoundArgument>& out, std::string& error) {
  out.clear();
  int32_t count = 0;
  if (dace_program_argument_count(&count, program) != DACE_OK) {
    error = dace_last_error_message();
    return false;
  }
  std::map<std::string, size_t> index;
  for (int32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    int32_t kind = 0;
    dace_dtype_t dtype = DACE_FLOAT64;
    if (dace_program_argument_info(&name, &kind, &dtype, program, i) != DACE_OK) {
      error = dace_last_error_message();
      return false;
    }
    BoundArgument a;
    a.name = name;
    a.kind = static_cast<dace_argument_kind_t>(kind);
    a.dtype = dtype;
    index[a.name] = out.size();
    out.push_back(std::move(a));
  }
  auto list = [&] {
    std::string s;
    for (const auto& a : out) s += (s.empty() ? "" : ", ") + a.name;
    return s.empty() ? std::string("none") : s;
  };

  // Which names are given, and how. Every given name must be an argument.
  std::vector<bool> given(out.size(), false);
  for (const auto& [name, text] : in.cli_values) {
    auto it = index.find(name);
    if (it == index.end() || out[it->second].kind == DACE_ARGUMENT_ARRAY) {
      error = "-s " + name + ": no symbol or scalar argument named " + in_quotes(name) + " (arguments: " + list() + ")";
      return false;
    }
    BoundArgument& a = out[it->second];
    if (!value_from_text(a.dtype, a.kind == DACE_ARGUMENT_SYMBOL, text, a.value)) {
      error = "-s " + name + "=" + text + ": not a valid " +
              (a.kind == DACE_ARGUMENT_SYMBOL ? std::string("integer symbol value") : "value of type " + std::string(dtype_name(a.dtype)));
      return false;
    }
    given[it->second] = true;
  }
  for (const auto& [name, file] : in.files) {
    auto it = index.find(name);
    if (it == index.end()) {
      error = "input " + in_quotes(name) + ": the program has no argument of that name (arguments: " + list() + ")";
      return false;
    }
    if (given[it->second]) continue;  // -s wins
    BoundArgument& a = out[it->second];
    if (a.kind != DACE_ARGUMENT_ARRAY) {
      std::string why;
      if (!value_from_npy(a.dtype, a.kind == DACE_ARGUMENT_SYMBOL, file, a.value, why)) {
        error = "input " + in_quotes(name) + ": " + why;
        return false;
      }
    } else {
      const dace_dtype_t ft = static_cast<dace_dtype_t>(file.dtype);
      if (ft != a.dtype) {
        error = "input " + in_quotes(name) + ": the file holds " + dtype_name(ft) + ", the argument is " + dtype_name(a.dtype);
        return false;
      }
      npy::Array c = c_ordered(file);
      a.shape = c.shape;
      a.bytes.assign(c.data.begin(), c.data.end());
      a.from_file = true;
    }
    given[it->second] = true;
  }
  for (const auto& [name, value] : in.case_symbols) {
    auto it = index.find(name);
    if (it == index.end() || given[it->second] || out[it->second].kind == DACE_ARGUMENT_ARRAY) continue;
    BoundArgument& a = out[it->second];
    if (a.kind == DACE_ARGUMENT_SYMBOL) {
      a.value.kind = DACE_ARG_SYMBOL;
      a.value.value.i = value;
    } else if (dtype_is_float(a.dtype)) {
      a.value.kind = DACE_ARG_FLOAT;
      a.value.value.f = static_cast<double>(value);
    } else {
      a.value.kind = DACE_ARG_INT;
      a.value.value.i = value;
    }
    given[it->second] = true;
  }

  // Symbols that are a whole dimension of a given array take that extent.
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].kind != DACE_ARGUMENT_ARRAY || !given[i]) continue;
    const char* text = nullptr;
    if (dace_data_get_property(&text, sdfg, out[i].name.c_str(), "shape") != DACE_OK) continue;
    std::vector<std::string> terms = shape_terms(text);
    if (terms.size() != out[i].shape.size()) continue;
    for (size_t d = 0; d < terms.size(); ++d) {
      auto it = index.find(terms[d]);
      if (it == index.end() || given[it->second] || out[it->second].kind != DACE_ARGUMENT_SYMBOL) continue;
      out[it->second].value.kind = DACE_ARG_SYMBOL;
      out[it->second].value.value.i = out[i].shape[d];
      given[it->second] = true;
    }
  }

  std::vector<const char*> sym_names;
  std::vector<int64_t> sym_values;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].kind != DACE_ARGUMENT_SYMBOL) continue;
    if (!given[i]) {
      error = "symbol " + out[i].name + " has no value: give -s " + out[i].name +
              "=<value> or an input array whose shape determines it";
      return false;
    }
    sym_names.push_back(out[i].name.c_str());
    sym_values.push_back(out[i].value.value.i);
  }

  for (size_t i = 0; i < out.size(); ++i) {
    BoundArgument& a = out[i];
    if (a.kind != DACE_ARGUMENT_ARRAY) {
      if (!given[i]) generated_scalar(a.dtype, a.kind == DACE_ARGUMENT_SYMBOL, a.value);
      continue;
    }
    std::vector<int64_t> shape(8);
    size_t ndim = 0;
    dace_status_t st = dace_program_argument_shape(shape.data(), shape.size(), &ndim, program, static_cast<int32_t>(i),
                                                   sym_names.data(), sym_values.data(),
                                                   static_cast<int32_t>(sym_names.size()));
    if (st == DACE_OK && ndim > shape.size()) {
      shape.resize(ndim);
      st = dace_program_argument_shape(shape.data(), shape.size(), &ndim, program, static_cast<int32_t>(i),
                                       sym_names.data(), sym_values.data(), static_cast<int32_t>(sym_names.size()));
    }
    if (st != DACE_OK) {
      error = "array " + in_quotes(a.name) + ": shape: " + dace_last_error_message();
      return false;
    }
    shape.resize(ndim);
    int64_t n = 1;
    bool overflow = false;
    for (int64_t e : shape) {
      if (e < 0) {
        error = "array " + in_quotes(a.name) + ": negative extent in shape " + shape_text(shape);
        return false;
      }
      overflow |= __builtin_mul_overflow(n, e, &n);
    }
    const size_t es = static_cast<size_t>(dtype_size(a.dtype));
    int64_t total_bytes = 0;
    if (overflow || __builtin_mul_overflow(n, static_cast<int64_t>(es), &total_bytes)) {
      error = "array " + in_quotes(a.name) + ": shape " + shape_text(shape) + " has more bytes than 64 bits can count";
      return false;
    }
    if (a.from_file) {
      int64_t have = 1;
      for (int64_t e : a.shape) have *= e;
      // A 0-d file may feed a one-element array and the other way round (DaCe's scalars).
      bool scalar_like = (a.shape.empty() || shape.empty()) && have == n;
      if (a.shape != shape && !scalar_like) {
        error = "input " + in_quotes(a.name) + ": the file's shape is " + shape_text(a.shape) + ", the argument's is " +
                shape_text(shape);
        return false;
      }
    } else {
      try {
        a.bytes.assign(static_cast<size_t>(total_bytes), 0);
      } catch (const std::bad_alloc&) {
        error = "array " + in_quotes(a.name) + ": cannot allocate " + std::to_string(total_bytes) + " bytes for shape " +
                shape_text(shape);
        return false;
      } catch (const std::length_error&) {
        error = "array " + in_quotes(a.name) + ": cannot allocate " + std::to_string(total_bytes) + " bytes for shape " +
                shape_text(shape);
        return false;
      }
      if (!a.name.starts_with("__return")) fill_generated(a.dtype, n, a.bytes.data());
    }
    a.shape = shape;
    if (a.bytes.empty()) a.bytes.assign(es ? es : 1, 0);  // zero-size arrays still need a pointer
    if (!expected_layout(program, static_cast<int32_t>(i), sym_names, sym_values, a, error)) return false;
  }
  return true;
}

void make_call_args(std::vector<BoundArgument>& bound, std::vector<const char*>& names, std::vector<dace_arg_t>& args) {
  names.clear();
  args.clear();
  stage_arrays(bound);
  for (BoundArgument& a : bound) {
    names.push_back(a.name.c_str());
    if (a.kind == DACE_ARGUMENT_ARRAY) {
      dace_arg_t v{};
      v.kind = DACE_ARG_ARRAY;
      const size_t es = static_cast<size_t>(dtype_size(a.dtype));
      v.value.array.data = a.strides.empty() ? a.bytes.data() : a.storage.data() + static_cast<size_t>(a.origin) * es;
      v.value.array.dtype = a.dtype;
      v.value.array.ndim = static_cast<int32_t>(a.shape.size());
      v.value.array.shape = a.shape.data();
      v.value.array.strides = a.strides.empty() ? nullptr : a.strides.data();
      args.push_back(v);
    } else {
      args.push_back(a.value);
    }
  }
}

npy::Array to_npy(const BoundArgument& a) {
  npy::Array out;
  out.dtype = static_cast<tasklet::ScalarType>(a.dtype);
  out.shape = a.shape;
  int64_t n = 1;
  for (int64_t e : a.shape) n *= e;
  out.data.assign(a.bytes.begin(), a.bytes.begin() + n * dtype_size(a.dtype));
  return out;
}

namespace {

// Calls f(c_order_index, storage_index) for every element of `a`.
template <class F>
void for_each_element(const BoundArgument& a, F&& f) {
  const size_t nd = a.shape.size();
  int64_t n = 1;
  for (int64_t e : a.shape) n *= e;
  std::vector<int64_t> idx(nd, 0);
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t at = a.origin;
    for (size_t d = 0; d < nd; ++d) at += idx[d] * a.strides[d];
    f(flat, at);
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < a.shape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace

void stage_arrays(std::vector<BoundArgument>& bound) {
  for (BoundArgument& a : bound) {
    if (a.kind != DACE_ARGUMENT_ARRAY || a.strides.empty()) continue;
    const size_t es = static_cast<size_t>(dtype_size(a.dtype));
    int64_t low = 0, high = 0;  // element offsets reached, relative to element 0
    for (size_t d = 0; d < a.shape.size(); ++d) {
      if (a.shape[d] <= 0) continue;
      (a.strides[d] < 0 ? low : high) += (a.shape[d] - 1) * a.strides[d];
    }
    a.origin = -low;
    // Allocated once: call arguments keep pointing into it across repeated calls.
    const size_t bytes = static_cast<size_t>(high - low + 1) * es;
    if (a.storage.size() != bytes) a.storage.assign(bytes, 0);
    for_each_element(a, [&](int64_t flat, int64_t at) {
      std::memcpy(a.storage.data() + static_cast<size_t>(at) * es, a.bytes.data() + static_cast<size_t>(flat) * es, es);
    });
  }
}

void collect_arrays(std::vector<BoundArgument>& bound) {
  for (BoundArgument& a : bound) {
    if (a.kind != DACE_ARGUMENT_ARRAY || a.strides.empty()) continue;
    const size_t es = static_cast<size_t>(dtype_size(a.dtype));
    for_each_element(a, [&](int64_t flat, int64_t at) {
      std::memcpy(a.bytes.data() + static_cast<size_t>(flat) * es, a.storage.data() + static_cast<size_t>(at) * es, es);
    });
  }
}

}  // namespace dace::cli
