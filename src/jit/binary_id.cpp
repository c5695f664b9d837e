#include "jit/binary_id.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstring>
#include <functional>

#include "jit/digest.h"

namespace dace::jit {
namespace {

size_t round_up(size_t n, size_t alignment) { return (n + alignment - 1) / alignment * alignment; }

// The NT_GNU_BUILD_ID note among the object's PT_NOTE segments, as mapped in memory.
std::string build_id_note(const dl_phdr_info& object) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    // Name and descriptor are padded to the segment's alignment (4, or 8 for some notes).
    const size_t alignment = segment.p_align == 8 ? 8 : 4;
    const auto* at = reinterpret_cast<const unsigned char*>(object.dlpi_addr + segment.p_vaddr);
    const unsigned char* end = at + segment.p_memsz;
    while (static_cast<size_t>(end - at) >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) header;
      std::memcpy(&header, at, sizeof header);
      const unsigned char* name = at + sizeof header;
      const size_t name_size = round_up(header.n_namesz, alignment);
      const size_t desc_size = round_up(header.n_descsz, alignment);
      if (static_cast<size_t>(end - name) < name_size + desc_size) break;  // truncated: stop
      const unsigned char* desc = name + name_size;
      if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0)
        return to_hex(desc, header.n_descsz);
      at = desc + desc_size;
    }
  }
  return "";
}

// The build id of the first loaded object `matches` accepts.
std::string find_build_id(const std::function<bool(const dl_phdr_info&)>& matches) {
  struct Search {
    const std::function<bool(const dl_phdr_info&)>* matches;
    std::string id;
  } search{&matches, ""};
  dl_iterate_phdr(
      [](dl_phdr_info* object, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        if (!(*s->matches)(*object)) return 0;
        s->id = build_id_note(*object);
        return 1;  // found: stop
      },
      &search);
  return search.id;
}

bool contains(const dl_phdr_info& object, uintptr_t address) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = object.dlpi_phdr[i];
    const uintptr_t start = object.dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD && address >= start && address - start < segment.p_memsz) return true;
  }
  return false;
}

bool same_file(const char* a, const struct stat& b) {
  struct stat s;
  return a && *a && stat(a, &s) == 0 && s.st_dev == b.st_dev && s.st_ino == b.st_ino;
}

}  // namespace

const std::string& libdace_binary_id() {
  static const std::string id = find_build_id([](const dl_phdr_info& object) {
    return contains(object, reinterpret_cast<uintptr_t>(&libdace_binary_id));
  });
  return id;
}

std::string loaded_binary_id(const std::string& path) {
  struct stat file;
  if (path.empty() || stat(path.c_str(), &file) != 0) return "";
  return find_build_id([&file](const dl_phdr_info& object) { return same_file(object.dlpi_name, file); });
}

}  // namespace dace::jit
