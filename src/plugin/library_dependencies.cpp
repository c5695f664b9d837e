// ELF dynamic-section reader for library_dependencies.h: program headers → PT_DYNAMIC →
// DT_NEEDED / DT_RUNPATH / DT_RPATH string offsets into DT_STRTAB, whose address is mapped to
// a file offset through the PT_LOAD segment holding it (section headers may be stripped).
#include "plugin/library_dependencies.h"

#include <dlfcn.h>
#include <elf.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>

namespace dace::plugin {
namespace {

// Copies a T from bytes[offset..] if it fits entirely.
template <typename T>
bool read_at(const std::string& bytes, uint64_t offset, T& out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, bytes.data() + offset, sizeof(T));
  return true;
}

std::vector<std::string> split_search_path(const std::string& list, const std::string& origin) {
  std::vector<std::string> dirs;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    std::string dir = list.substr(start, end - start);
    for (const char* token : {"${ORIGIN}", "$ORIGIN"}) {
      for (size_t at = dir.find(token); at != std::string::npos; at = dir.find(token, at + origin.size()))
        dir.replace(at, std::strlen(token), origin);
    }
    if (!dir.empty()) dirs.push_back(dir);
    start = end + 1;
  }
  return dirs;
}

// Whether dlopen(`name`, flags) succeeds; a library it opened is closed again.
bool opens(const std::string& name, int flags) {
  void* handle = dlopen(name.c_str(), flags);
  if (!handle) return false;
  dlclose(handle);
  return true;
}

bool loadable(const std::string& name, const std::vector<std::string>& search_dirs) {
  if (name.find('/') != std::string::npos) return opens(name, RTLD_LAZY | RTLD_LOCAL);
  if (opens(name, RTLD_LAZY | RTLD_NOLOAD)) return true;  // already in this process
  for (const std::string& dir : search_dirs) {
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    std::error_code ec;
    // The loader takes the first file of that name on the run path, loadable or not.
    if (std::filesystem::exists(candidate, ec)) return opens(candidate.string(), RTLD_LAZY | RTLD_LOCAL);
  }
  return opens(name, RTLD_LAZY | RTLD_LOCAL);
}

}  // namespace

bool read_dynamic_dependencies(const std::string& path, DynamicDependencies& out, std::string& error) {
  out = {};
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot be opened for reading";
    return false;
  }
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto bad = [&](const std::string& what) {
    error = path + ": " + what;
    out = {};
    return false;
  };
  Elf64_Ehdr header;
  if (!read_at(bytes, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return bad("not an ELF file");
  const unsigned char host_order = (std::endian::native == std::endian::little) ? ELFDATA2LSB : ELFDATA2MSB;
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != host_order)
    return bad("not a 64-bit ELF object of this machine's byte order");
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return bad("unexpected program header size");

  std::vector<Elf64_Phdr> loads;
  Elf64_Phdr dynamic{};
  bool has_dynamic = false;
  for (uint64_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (!read_at(bytes, header.e_phoff + i * sizeof(Elf64_Phdr), ph)) return bad("truncated program headers");
    if (ph.p_type == PT_LOAD) loads.push_back(ph);
    if (ph.p_type == PT_DYNAMIC) {
      dynamic = ph;
      has_dynamic = true;
    }
  }
  if (!has_dynamic) return bad("no dynamic section (not a shared object)");

  uint64_t strtab_address = 0, strtab_size = 0;
  bool has_strtab = false;
  std::vector<uint64_t> needed, runpath, rpath;
  for (uint64_t at = dynamic.p_offset; at + sizeof(Elf64_Dyn) <= dynamic.p_offset + dynamic.p_filesz;
       at += sizeof(Elf64_Dyn)) {
    Elf64_Dyn entry;
    if (!read_at(bytes, at, entry)) return bad("truncated dynamic section");
    if (entry.d_tag == DT_NULL) break;
    switch (entry.d_tag) {
      case DT_STRTAB: strtab_address = entry.d_un.d_ptr; has_strtab = true; break;
      case DT_STRSZ: strtab_size = entry.d_un.d_val; break;
      case DT_NEEDED: needed.push_back(entry.d_un.d_val); break;
      case DT_RUNPATH: runpath.push_back(entry.d_un.d_val); break;
      case DT_RPATH: rpath.push_back(entry.d_un.d_val); break;
      default: break;
    }
  }
  if (!has_strtab) return bad("dynamic section without a string table");
  uint64_t strtab_offset = 0;
  bool mapped = false;
  for (const Elf64_Phdr& load : loads) {
    if (strtab_address >= load.p_vaddr && strtab_address - load.p_vaddr < load.p_filesz) {
      strtab_offset = strtab_address - load.p_vaddr + load.p_offset;
      mapped = true;
      break;
    }
  }
  if (!mapped || strtab_offset > bytes.size() || bytes.size() - strtab_offset < strtab_size)
    return bad("string table outside the file");
  const std::string_view strtab(bytes.data() + strtab_offset, strtab_size);
  const auto string_at = [&](uint64_t offset, std::string& text) {
    if (offset >= strtab.size()) return false;
    const size_t end = strtab.find('\0', offset);
    if (end == std::string_view::npos) return false;
    text = std::string(strtab.substr(offset, end - offset));
    return true;
  };
  for (uint64_t offset : needed) {
    std::string name;
    if (!string_at(offset, name)) return bad("DT_NEEDED entry outside the string table");
    out.needed.push_back(name);
  }
  // The loader ignores DT_RPATH when DT_RUNPATH is present.
  const std::string origin = std::filesystem::path(path).parent_path().string();
  for (uint64_t offset : runpath.empty() ? rpath : runpath) {
    std::string list;
    if (!string_at(offset, list)) return bad("run path outside the string table");
    for (std::string& dir : split_search_path(list, origin)) out.search_dirs.push_back(std::move(dir));
  }
  return true;
}

std::vector<std::string> unloadable_dependencies(const std::string& path) {
  DynamicDependencies deps;
  std::string error;
  std::vector<std::string> missing;
  if (!read_dynamic_dependencies(path, deps, error)) return missing;
  for (const std::string& name : deps.needed)
    if (!loadable(name, deps.search_dirs)) missing.push_back(name);
  return missing;
}

}  // namespace dace::plugin
