#include "ir/npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace dace::npy {

using tasklet::ScalarType;

namespace {

struct Descr {
  ScalarType type;
  const char* descr;
};

constexpr Descr kDescrs[] = {
    {ScalarType::Bool, "|b1"},       {ScalarType::Int8, "|i1"},      {ScalarType::UInt8, "|u1"},
    {ScalarType::Int16, "<i2"},      {ScalarType::UInt16, "<u2"},    {ScalarType::Int32, "<i4"},
    {ScalarType::UInt32, "<u4"},     {ScalarType::Int64, "<i8"},     {ScalarType::UInt64, "<u8"},
    {ScalarType::Float16, "<f2"},    {ScalarType::Float32, "<f4"},   {ScalarType::Float64, "<f8"},
    {ScalarType::Complex64, "<c8"},  {ScalarType::Complex128, "<c16"},
};

Error bad(const std::string& why) { return make_error(Code::ParseError, "npy: " + why); }

// Value text after `'key':` in the header dictionary.
std::string field(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return {};
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) return {};
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string::npos) return {};
  size_t end;
  if (header[start] == '\'') {
    end = header.find('\'', start + 1);
    return end == std::string::npos ? std::string() : header.substr(start + 1, end - start - 1);
  }
  if (header[start] == '(') {
    end = header.find(')', start);
    return end == std::string::npos ? std::string() : header.substr(start, end - start + 1);
  }
  end = header.find_first_of(",}", start);
  return header.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

std::string descr_of(ScalarType t) {
  for (const Descr& d : kDescrs)
    if (d.type == t) return d.descr;
  return "";
}

Result<ScalarType> type_of_descr(const std::string& descr) {
  std::string d = descr;
  // Single-byte types may be written with any byte-order mark.
  if (d.size() >= 2 && (d[0] == '<' || d[0] == '|' || d[0] == '=') && d.substr(1) != "") {
    for (const Descr& x : kDescrs)
      if (std::string(x.descr).substr(1) == d.substr(1)) return x.type;
  }
  return bad("unsupported dtype '" + descr + "'");
}

int64_t Array::size() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

int Array::element_size() const { return tasklet::type_size(dtype); }

double Array::at(int64_t i) const {
  const uint8_t* p = data.data() + i * element_size();
  auto get = [&](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return static_cast<double>(v);
  };
  switch (dtype) {
    case ScalarType::Bool: return p[0] ? 1.0 : 0.0;
    case ScalarType::Int8: return get(int8_t{});
    case ScalarType::UInt8: return get(uint8_t{});
    case ScalarType::Int16: return get(int16_t{});
    case ScalarType::UInt16: return get(uint16_t{});
    case ScalarType::Int32: return get(int32_t{});
    case ScalarType::UInt32: return get(uint32_t{});
    case ScalarType::Int64: return get(int64_t{});
    case ScalarType::UInt64: return get(uint64_t{});
    case ScalarType::Float32:
    case ScalarType::Complex64: return get(float{});
    case ScalarType::Float64:
    case ScalarType::Complex128: return get(double{});
    default: break;
  }
  return 0.0;
}

Result<Array> parse(const std::string& bytes) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return bad("missing magic string");
  int major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return bad("truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    header_start = 12;
  } else {
    return bad("unsupported format version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) return bad("truncated header");
  std::string header = bytes.substr(header_start, header_len);
  Array a;
  Result<ScalarType> t = type_of_descr(field(header, "descr"));
  if (!t) return t.take_error();
  a.dtype = *t;
  a.fortran_order = field(header, "fortran_order") == "True";
  std::string shape = field(header, "shape");
  if (shape.size() < 2 || shape.front() != '(') return bad("malformed shape");
  std::stringstream ss(shape.substr(1, shape.size() - 2));
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    char* end = nullptr;
    long long v = std::strtoll(item.c_str() + b, &end, 10);
    if (v < 0) return bad("negative dimension");
    a.shape.push_back(v);
  }
  size_t nbytes = static_cast<size_t>(a.size()) * static_cast<size_t>(a.element_size());
  size_t data_start = header_start + header_len;
  if (bytes.size() - data_start < nbytes) return bad("truncated data");
  a.data.assign(bytes.begin() + static_cast<long>(data_start), bytes.begin() + static_cast<long>(data_start + nbytes));
  return a;
}

Result<Array> read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(Code::IoError, "npy: cannot read " + path);
  std::stringstream buf;
  buf << in.rdbuf();
  Result<Array> a = parse(buf.str());
  if (!a) return make_error(a.error().code, a.error().message + " (" + path + ")");
  return a;
}

std::string serialize(const Array& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) {
    shape += std::to_string(a.shape[i]);
    shape += a.shape.size() == 1 ? "," : (i + 1 < a.shape.size() ? ", " : "");
  }
  shape += ")";
  std::string header = "{'descr': '" + descr_of(a.dtype) + "', 'fortran_order': " + (a.fortran_order ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  // Pad with spaces so that the data starts on a 64-byte boundary; the header ends in '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(1);
  out += static_cast<char>(0);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size());
  return out;
}

Status write(const std::string& path, const Array& a) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return make_error(Code::IoError, "npy: cannot write " + path);
  std::string s = serialize(a);
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
  if (!out) return make_error(Code::IoError, "npy: cannot write " + path);
  return Status::success();
}

}  // namespace dace::npy
