#include "jit/object_bundle.h"

#include <cstdint>

namespace dace::jit {
namespace {

constexpr std::string_view kMagic = "DACEOBJB";

void put(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

uint64_t get(std::string_view in, size_t at, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return value;
}

}  // namespace

std::string bundle_objects(const std::vector<std::string>& objects) {
  if (objects.size() == 1) return objects[0];
  std::string out(kMagic);
  put(out, objects.size(), 4);
  for (const std::string& o : objects) put(out, o.size(), 8);
  for (const std::string& o : objects) out += o;
  return out;
}

Result<std::vector<std::string_view>> unbundle_objects(std::string_view bytes) {
  if (bytes.substr(0, kMagic.size()) != kMagic) return std::vector<std::string_view>{bytes};
  auto bad = [] { return make_error(Code::CompileError, "truncated or inconsistent object bundle"); };
  size_t at = kMagic.size();
  if (bytes.size() < at + 4) return bad();
  uint64_t count = get(bytes, at, 4);
  at += 4;
  if (count > (bytes.size() - at) / 8) return bad();
  std::vector<uint64_t> sizes;
  for (uint64_t i = 0; i < count; ++i, at += 8) sizes.push_back(get(bytes, at, 8));
  std::vector<std::string_view> out;
  for (uint64_t size : sizes) {
    if (size > bytes.size() - at) return bad();
    out.push_back(bytes.substr(at, size));
    at += size;
  }
  if (at != bytes.size()) return bad();
  return out;
}

}  // namespace dace::jit
