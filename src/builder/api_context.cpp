// dace_context_t: settings shared by compilations (kept light until the JIT arrives).
#include "builder/api_internal.h"

using namespace dace::capi;

extern "C" {

dace_status_t dace_context_create(dace_context_t** out_context) {
  return guard([&]() -> dace::Status {
    DACE_TRY(require(out_context, "out_context"));
    *out_context = new dace_context();
    return dace::Status::success();
  });
}

void dace_context_release(dace_context_t* context) { delete context; }

dace_status_t dace_context_set_option(dace_context_t* context, const char* key, const char* value) {
  return guard([&]() -> dace::Status {
    DACE_TRY(require(context, "context"));
    DACE_TRY(require(key, "key"));
    if (!*key) return invalid("context option: empty key");
    std::lock_guard<std::mutex> lock(context->mutex);
    if (value)
      context->options[key] = value;
    else
      context->options.erase(key);
    return dace::Status::success();
  });
}

dace_status_t dace_context_get_option(const char** out_value, const dace_context_t* context, const char* key) {
  return guard([&]() -> dace::Status {
    DACE_TRY(require(out_value, "out_value"));
    DACE_TRY(require(context, "context"));
    DACE_TRY(require(key, "key"));
    std::lock_guard<std::mutex> lock(context->mutex);
    auto it = context->options.find(key);
    if (it == context->options.end()) return not_found("context option " + dace::ir::quoted(key) + ": not set");
    *out_value = keep(it->second);
    return dace::Status::success();
  });
}

}  // extern "C"
