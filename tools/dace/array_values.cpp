#include "array_values.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "ir/tasklet/types.h"

namespace dace::cli {

// The CLI moves values between npy::Array (tasklet::ScalarType) and the C API's dace_dtype_t
// by casting, which relies on both enums listing the types in the same order.
static_assert(static_cast<int>(tasklet::ScalarType::Bool) == DACE_BOOL);
static_assert(static_cast<int>(tasklet::ScalarType::Float16) == DACE_FLOAT16);
static_assert(static_cast<int>(tasklet::ScalarType::Complex128) == DACE_COMPLEX128);
static_assert(static_cast<int>(tasklet::ScalarType::Unknown) == DACE_DTYPE_UNKNOWN);

namespace {

tasklet::ScalarType scalar(dace_dtype_t t) { return static_cast<tasklet::ScalarType>(t); }

template <class T>
T load(const uint8_t* p, int64_t i) {
  T v;
  std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

template <class T>
void store(uint8_t* p, int64_t i, T v) {
  std::memcpy(p + i * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}

// IEEE half from a float in the normal range (generated values are 0 or >= 1/17), truncating
// the mantissa; deterministic, which is all generated inputs need.
uint16_t half_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  int exp = static_cast<int>((b >> 23) & 0xffu) - 127 + 15;
  if ((b & 0x7fffffffu) == 0 || exp <= 0) return sign;
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  return static_cast<uint16_t>(sign | (exp << 10) | ((b & 0x7fffffu) >> 13));
}

double half_value(uint16_t h) {
  int exp = (h >> 10) & 0x1f;
  int mant = h & 0x3ff;
  double v = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(mant + 1024, exp - 25);
  return (h & 0x8000) ? -v : v;
}

}  // namespace

int dtype_size(dace_dtype_t t) { return tasklet::type_size(scalar(t)); }
const char* dtype_name(dace_dtype_t t) { return tasklet::type_name(scalar(t)); }
bool dtype_is_complex(dace_dtype_t t) { return tasklet::is_complex(scalar(t)); }
bool dtype_is_float(dace_dtype_t t) { return tasklet::is_float(scalar(t)); }

void fill_generated(dace_dtype_t t, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = (i * 7 + 3) % 17;
    const double re = static_cast<double>(v) / 17.0;
    const double im = static_cast<double>((i * 5 + 1) % 13) / 13.0;
    switch (t) {
      case DACE_BOOL: store<uint8_t>(out, i, static_cast<uint8_t>(v % 2)); break;
      case DACE_INT8: store<int8_t>(out, i, static_cast<int8_t>(v)); break;
      case DACE_INT16: store<int16_t>(out, i, static_cast<int16_t>(v)); break;
      case DACE_INT32: store<int32_t>(out, i, static_cast<int32_t>(v)); break;
      case DACE_INT64: store<int64_t>(out, i, v); break;
      case DACE_UINT8: store<uint8_t>(out, i, static_cast<uint8_t>(v)); break;
      case DACE_UINT16: store<uint16_t>(out, i, static_cast<uint16_t>(v)); break;
      case DACE_UINT32: store<uint32_t>(out, i, static_cast<uint32_t>(v)); break;
      case DACE_UINT64: store<uint64_t>(out, i, static_cast<uint64_t>(v)); break;
      case DACE_FLOAT16: store<uint16_t>(out, i, half_bits(static_cast<float>(re))); break;
      case DACE_FLOAT32: store<float>(out, i, static_cast<float>(re)); break;
      case DACE_FLOAT64: store<double>(out, i, re); break;
      case DACE_COMPLEX64:
        store<float>(out, 2 * i, static_cast<float>(re));
        store<float>(out, 2 * i + 1, static_cast<float>(im));
        break;
      case DACE_COMPLEX128:
        store<double>(out, 2 * i, re);
        store<double>(out, 2 * i + 1, im);
        break;
      default: break;
    }
  }
}

std::complex<double> element(dace_dtype_t t, const uint8_t* p, int64_t i) {
  switch (t) {
    case DACE_BOOL: return load<uint8_t>(p, i) != 0 ? 1.0 : 0.0;
    case DACE_INT8: return load<int8_t>(p, i);
    case DACE_INT16: return load<int16_t>(p, i);
    case DACE_INT32: return load<int32_t>(p, i);
    case DACE_INT64: return static_cast<double>(load<int64_t>(p, i));
    case DACE_UINT8: return load<uint8_t>(p, i);
    case DACE_UINT16: return load<uint16_t>(p, i);
    case DACE_UINT32: return load<uint32_t>(p, i);
    case DACE_UINT64: return static_cast<double>(load<uint64_t>(p, i));
    case DACE_FLOAT16: return half_value(load<uint16_t>(p, i));
    case DACE_FLOAT32: return load<float>(p, i);
    case DACE_FLOAT64: return load<double>(p, i);
    case DACE_COMPLEX64: return {load<float>(p, 2 * i), load<float>(p, 2 * i + 1)};
    case DACE_COMPLEX128: return {load<double>(p, 2 * i), load<double>(p, 2 * i + 1)};
    default: return 0.0;
  }
}

bool exact_int(const npy::Array& a, int64_t i, int64_t& out) {
  const uint8_t* p = a.data.data();
  switch (a.dtype) {
    case tasklet::ScalarType::Bool: out = load<uint8_t>(p, i) != 0; return true;
    case tasklet::ScalarType::Int8: out = load<int8_t>(p, i); return true;
    case tasklet::ScalarType::Int16: out = load<int16_t>(p, i); return true;
    case tasklet::ScalarType::Int32: out = load<int32_t>(p, i); return true;
    case tasklet::ScalarType::Int64: out = load<int64_t>(p, i); return true;
    case tasklet::ScalarType::UInt8: out = load<uint8_t>(p, i); return true;
    case tasklet::ScalarType::UInt16: out = load<uint16_t>(p, i); return true;
    case tasklet::ScalarType::UInt32: out = load<uint32_t>(p, i); return true;
    case tasklet::ScalarType::UInt64: {
      uint64_t v = load<uint64_t>(p, i);
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
      out = static_cast<int64_t>(v);
      return true;
    }
    case tasklet::ScalarType::Float16:
    case tasklet::ScalarType::Float32:
    case tasklet::ScalarType::Float64: {
      double v = a.at(i);
      if (!std::isfinite(v) || std::floor(v) != v || std::abs(v) >= 9.2e18) return false;
      out = static_cast<int64_t>(v);
      return true;
    }
    default: return false;
  }
}

npy::Array c_ordered(npy::Array a) {
  if (!a.fortran_order || a.shape.size() < 2) {
    a.fortran_order = false;
    return a;
  }
  const int64_t n = a.size();
  const size_t es = static_cast<size_t>(a.element_size());
  const size_t rank = a.shape.size();
  std::vector<uint8_t> c(a.data.size());
  std::vector<int64_t> index(rank, 0);  // C-order multi-index of element k
  for (int64_t k = 0; k < n; ++k) {
    int64_t f = 0, stride = 1;
    for (size_t d = 0; d < rank; ++d) {
      f += index[d] * stride;
      stride *= a.shape[d];
    }
    std::memcpy(c.data() + static_cast<size_t>(k) * es, a.data.data() + static_cast<size_t>(f) * es, es);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < a.shape[d]) break;
      index[d] = 0;
    }
  }
  a.data = std::move(c);
  a.fortran_order = false;
  return a;
}

}  // namespace dace::cli
