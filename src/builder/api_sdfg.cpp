// SDFG handles: create, release, clone, load, save, compare, hash, validate, name, arguments.
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "analysis/arguments.h"
#include "analysis/validate.h"
#include "builder/api_internal.h"
#include "builder/api_options.h"
#include "builder/api_text.h"
#include "ir/equality.h"
#include "ir/json/sdfg_json.h"

using namespace dace::capi;
using dace::Status;
using dace::ir::SDFG;

namespace {

dace_sdfg_t* adopt(std::unique_ptr<SDFG> sdfg) {
  auto h = std::make_unique<dace_sdfg>();
  h->sdfg = sdfg.get();
  h->owned = std::move(sdfg);
  h->root = h.get();
  return h.release();
}

Status adopt_loaded(dace_sdfg_t** out, dace::Result<std::unique_ptr<SDFG>> loaded, const std::string& source) {
  if (!loaded) {
    dace::Error e = loaded.take_error();
    if (!source.empty() && e.message.find(source) == std::string::npos) e.message = source + ": " + e.message;
    return e;
  }
  *out = adopt(std::move(*loaded));
  return Status::success();
}

dace::Result<dace::ir::json::WriteOptions> write_options(const dace_save_options_t* options) {
  dace::ir::json::WriteOptions w;
  if (!options) return w;
  auto read = read_options(options);
  if (!read) return read.take_error();
  w.pretty = read->compact == 0;
  w.include_guids = read->omit_guids == 0;
  return w;
}

void* copy_bytes(const std::string& s, bool nul) {
  void* p = std::malloc(s.size() + (nul ? 1 : 0) + (s.empty() ? 1 : 0));
  if (!p) throw std::bad_alloc();
  std::memcpy(p, s.data(), s.size());
  if (nul) static_cast<char*>(p)[s.size()] = '\0';
  return p;
}

}  // namespace

extern "C" {

dace_status_t dace_sdfg_create(dace_sdfg_t** out_sdfg, const char* name) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_sdfg, "out_sdfg"));
    DACE_TRY(check_identifier(name, "new SDFG", "name"));
    auto sdfg = std::make_unique<SDFG>();
    sdfg->name = name;
    *out_sdfg = adopt(std::move(sdfg));
    return Status::success();
  });
}

void dace_sdfg_release(dace_sdfg_t* sdfg) {
  if (sdfg && sdfg->owned) delete sdfg;
}

dace_status_t dace_sdfg_clone(dace_sdfg_t** out_sdfg, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_sdfg, "out_sdfg"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    *out_sdfg = adopt((*s)->clone_sdfg());
    return Status::success();
  });
}

dace_status_t dace_sdfg_load_file(dace_sdfg_t** out_sdfg, const char* path) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_sdfg, "out_sdfg"));
    DACE_TRY(require(path, "path"));
    if (!*path) return invalid("path is empty");
    // A folder opens as an empty stream, which would read as a JSON syntax error.
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      return dace::make_error(dace::Code::IoError, "file " + dace::ir::quoted(path) + ": is a directory");
    return adopt_loaded(out_sdfg, dace::ir::json::read_sdfg_file(path), std::string("file ") + dace::ir::quoted(path));
  });
}

dace_status_t dace_sdfg_load_string(dace_sdfg_t** out_sdfg, const char* json) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_sdfg, "out_sdfg"));
    DACE_TRY(require(json, "json"));
    return adopt_loaded(out_sdfg, dace::ir::json::read_sdfg(json), "");
  });
}

dace_status_t dace_sdfg_load_buffer(dace_sdfg_t** out_sdfg, const void* data, size_t size) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_sdfg, "out_sdfg"));
    if (!data && size) return invalid("data is NULL");
    std::string_view bytes(static_cast<const char*>(data), data ? size : 0);
    if (dace::ir::json::is_gzip(bytes)) {
      auto text = dace::ir::json::gzip_decompress(bytes);
      if (!text) return text.take_error();
      return adopt_loaded(out_sdfg, dace::ir::json::read_sdfg(*text), "");
    }
    return adopt_loaded(out_sdfg, dace::ir::json::read_sdfg(bytes), "");
  });
}

dace_status_t dace_sdfg_save_file(const dace_sdfg_t* sdfg, const char* path, const dace_save_options_t* options) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    DACE_TRY(require(path, "path"));
    if (!*path) return invalid("path is empty");
    auto w = write_options(options);
    if (!w) return w.take_error();
    return dace::ir::json::write_sdfg_file(**s, path, *w);
  });
}

dace_status_t dace_sdfg_to_json(char** out_json, const dace_sdfg_t* sdfg, const dace_save_options_t* options) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_json, "out_json"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto w = write_options(options);
    if (!w) return w.take_error();
    if (options && options->gzip) return invalid("dace_sdfg_to_json: gzip output is binary; use dace_sdfg_save_buffer");
    *out_json = static_cast<char*>(copy_bytes(dace::ir::json::write_sdfg(**s, *w), true));
    return Status::success();
  });
}

dace_status_t dace_sdfg_save_buffer(void** out_data, size_t* out_size, const dace_sdfg_t* sdfg,
                                    const dace_save_options_t* options) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_data, "out_data"));
    DACE_TRY(require(out_size, "out_size"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto w = write_options(options);
    if (!w) return w.take_error();
    std::string bytes = dace::ir::json::write_sdfg(**s, *w);
    if (options && options->gzip) {
      auto z = dace::ir::json::gzip_compress(bytes);
      if (!z) return z.take_error();
      bytes = std::move(*z);
    }
    *out_data = copy_bytes(bytes, false);
    *out_size = bytes.size();
    return Status::success();
  });
}

dace_status_t dace_sdfg_equal(int32_t* out_equal, const char** out_difference, const dace_sdfg_t* a,
                              const dace_sdfg_t* b) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_equal, "out_equal"));
    auto sa = sdfg_of(a);
    if (!sa) return sa.take_error();
    auto sb = sdfg_of(b);
    if (!sb) return sb.take_error();
    std::string difference;
    bool equal = dace::ir::structurally_equal(**sa, **sb, &difference);
    *out_equal = equal ? 1 : 0;
    if (out_difference) *out_difference = keep(equal ? std::string() : difference);
    return Status::success();
  });
}

dace_status_t dace_sdfg_hash(char out_hash[65], const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_hash, "out_hash"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    std::string h = content_hash_of(sdfg);
    if (h.size() != 64) return dace::make_error(dace::Code::Internal, "content hash has unexpected length");
    std::memcpy(out_hash, h.data(), 64);
    out_hash[64] = '\0';
    return Status::success();
  });
}

dace_status_t dace_sdfg_validate(const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    return dace::analysis::validate(**s);
  });
}

dace_status_t dace_sdfg_get_name(const char** out_name, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_name, "out_name"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    *out_name = keep((*s)->name);
    return Status::success();
  });
}

dace_status_t dace_sdfg_set_name(dace_sdfg_t* sdfg, const char* name) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    DACE_TRY(check_identifier(name, dace::ir::path_of(**s), "name"));
    (*s)->name = name;
    return Status::success();
  });
}

dace_status_t dace_sdfg_get_free_symbols(const char** out_symbols, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_symbols, "out_symbols"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    std::string out;
    for (const auto& name : dace::analysis::free_symbols(**s)) out += (out.empty() ? "" : ", ") + name;
    *out_symbols = keep(out);
    return Status::success();
  });
}

dace_status_t dace_sdfg_get_arguments(const char** out_arguments, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_arguments, "out_arguments"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    std::string out;
    for (const auto& a : dace::analysis::argument_list(**s)) out += (out.empty() ? "" : ", ") + a.name;
    *out_arguments = keep(out);
    return Status::success();
  });
}

}  // extern "C"
