// Version, status strings, the thread-local error record and borrowed strings, option-struct
// initializers, and release of owned output memory.
#include <cstdlib>
#include <deque>

#include "builder/api_internal.h"
#include "builder/api_options.h"

#ifndef LIBDACE_VERSION_STRING
#define LIBDACE_VERSION_STRING "0.1.0"
#endif

static_assert(DACE_OK == static_cast<int>(dace::Code::Ok));
static_assert(DACE_ERROR_INVALID_ARGUMENT == static_cast<int>(dace::Code::InvalidArgument));
static_assert(DACE_ERROR_INVALID_SDFG == static_cast<int>(dace::Code::InvalidSdfg));
static_assert(DACE_ERROR_NOT_FOUND == static_cast<int>(dace::Code::NotFound));
static_assert(DACE_ERROR_UNSUPPORTED == static_cast<int>(dace::Code::Unsupported));
static_assert(DACE_ERROR_PARSE == static_cast<int>(dace::Code::ParseError));
static_assert(DACE_ERROR_COMPILE == static_cast<int>(dace::Code::CompileError));
static_assert(DACE_ERROR_RUNTIME == static_cast<int>(dace::Code::RuntimeError));
static_assert(DACE_ERROR_OUT_OF_MEMORY == static_cast<int>(dace::Code::OutOfMemory));
static_assert(DACE_ERROR_PLUGIN_UNAVAILABLE == static_cast<int>(dace::Code::PluginUnavailable));
static_assert(DACE_ERROR_IO == static_cast<int>(dace::Code::IoError));
static_assert(DACE_ERROR_ALREADY_EXISTS == static_cast<int>(dace::Code::AlreadyExists));
static_assert(DACE_ERROR_INTERNAL == static_cast<int>(dace::Code::Internal));

namespace dace::capi {
namespace {

struct LastError {
  dace_status_t status = DACE_OK;
  std::string message;
  int line = 0;
  int column = 0;
};

LastError& last_error() {
  thread_local LastError e;
  return e;
}

// A deque keeps earlier strings in place while later ones are added in the same call.
std::deque<std::string>& strings() {
  thread_local std::deque<std::string> s;
  return s;
}

}  // namespace

dace_status_t record(Error error) noexcept {
  auto status = static_cast<dace_status_t>(error.code);
  LastError& e = last_error();
  e.status = status;
  e.line = error.line;
  e.column = error.column;
  try {
    e.message = std::move(error.message);
  } catch (...) {
    e.message.clear();  // keeps the status; an empty message beats a crash
  }
  return status;
}

void clear_strings() noexcept { strings().clear(); }

const char* keep(std::string s) {
  strings().push_back(std::move(s));
  return strings().back().c_str();
}

Status require(const void* p, const char* what) {
  if (p) return Status::success();
  return invalid(std::string(what) + " is NULL");
}

}  // namespace dace::capi

using namespace dace::capi;

extern "C" {

const char* dace_version(void) { return LIBDACE_VERSION_STRING; }

uint32_t dace_version_number(void) { return DACE_VERSION_NUMBER; }

const char* dace_status_string(dace_status_t status) {
  int v = enum_bits(status);
  if (v < 0 || v > static_cast<int>(dace::Code::Internal)) return "unknown status";
  return dace::code_name(static_cast<dace::Code>(v));
}

const char* dace_last_error_message(void) { return last_error().message.c_str(); }
dace_status_t dace_last_error_status(void) { return last_error().status; }
int32_t dace_last_error_line(void) { return last_error().line; }
int32_t dace_last_error_column(void) { return last_error().column; }

void dace_clear_last_error(void) {
  LastError& e = last_error();
  e.status = DACE_OK;
  e.line = e.column = 0;
  e.message.clear();
}

void dace_string_free(char* str) { std::free(str); }
void dace_buffer_free(void* buffer) { std::free(buffer); }

dace_status_t dace_array_options_init(dace_array_options_t* options, uint32_t version) {
  return guard([&]() -> dace::Status { return init_options(options, version); });
}

dace_status_t dace_map_options_init(dace_map_options_t* options, uint32_t version) {
  return guard([&]() -> dace::Status { return init_options(options, version); });
}

dace_status_t dace_memlet_options_init(dace_memlet_options_t* options, uint32_t version) {
  return guard([&]() -> dace::Status { return init_options(options, version); });
}

dace_status_t dace_save_options_init(dace_save_options_t* options, uint32_t version) {
  return guard([&]() -> dace::Status { return init_options(options, version); });
}

dace_status_t dace_mapped_tasklet_options_init(dace_mapped_tasklet_options_t* options, uint32_t version) {
  return guard([&]() -> dace::Status { return init_options(options, version); });
}

}  // extern "C"
