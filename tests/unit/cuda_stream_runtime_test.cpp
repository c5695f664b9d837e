// The CUDA runtime's streams and events (runtime/dace_cuda_runtime.h, docs/cuda.md "Streams
// and events") and their emulated twins: data copied in on one stream reaches a copy out on
// another through an event; the emulated device checks the bookkeeping the real runtime
// checks (a wait on an event never recorded, handles used after they were destroyed) and
// reports misuse as the call's status. The device instances run where a GPU is present.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <string>
#include <vector>

#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

// The runtime's entries, real (dace_cuda_X) or emulated (dace_cuda_emu_X).
struct StreamRuntime {
  explicit StreamRuntime(Where where) : prefix(where == Where::Device ? "dace_cuda_" : "dace_cuda_emu_") {
    stream_create_entry = get<int32_t (*)(void**)>("stream_create");
    stream_destroy = get<int32_t (*)(void*)>("stream_destroy");
    event_create_entry = get<int32_t (*)(void**)>("event_create");
    event_destroy = get<int32_t (*)(void*)>("event_destroy");
    event_record = get<int32_t (*)(void*, void*)>("event_record");
    stream_wait_event = get<int32_t (*)(void*, void*)>("stream_wait_event");
    stream_synchronize = get<int32_t (*)(void*)>("stream_synchronize");
    copy_on = get<int32_t (*)(void*, void*, const void*, int64_t, int32_t)>("copy_on");
    copy_2d_on = get<int32_t (*)(void*, void*, int64_t, const void*, int64_t, int64_t, int64_t, int32_t)>("copy_2d_on");
    malloc = get<void* (*)(int64_t)>("malloc");
    free = get<int32_t (*)(void*)>("free");
    error = get<const char* (*)()>("error");
    error_at = get<const char* (*)(const char*)>("error_at");
  }
  // The handle, or null when the runtime refused (its status is then nonzero).
  void* stream_create() {
    void* s = reinterpret_cast<void*>(1);
    const int32_t rc = stream_create_entry(&s);
    EXPECT_EQ(rc == 0, s != nullptr) << "a created stream is never the default stream";
    return s;
  }
  void* event_create() {
    void* e = reinterpret_cast<void*>(1);
    const int32_t rc = event_create_entry(&e);
    EXPECT_EQ(rc == 0, e != nullptr);
    return e;
  }
  // The status text generated code reports for a failed call (sticky error or refusal).
  std::string status() { return error_at("call"); }
  template <class F>
  F get(const std::string& name) {
    void* p = cuda_registry()->find_runtime_symbol(prefix + name);
    if (!p) missing += " " + prefix + name;
    return reinterpret_cast<F>(p);
  }
  std::string prefix;
  std::string missing;  // the entries the plugin does not register (none may be called then)
  int32_t (*stream_create_entry)(void**);
  int32_t (*stream_destroy)(void*);
  int32_t (*event_create_entry)(void**);
  int32_t (*event_destroy)(void*);
  int32_t (*event_record)(void*, void*);
  int32_t (*stream_wait_event)(void*, void*);
  int32_t (*stream_synchronize)(void*);
  int32_t (*copy_on)(void*, void*, const void*, int64_t, int32_t);
  int32_t (*copy_2d_on)(void*, void*, int64_t, const void*, int64_t, int64_t, int64_t, int32_t);
  void* (*malloc)(int64_t);
  int32_t (*free)(void*);
  const char* (*error)();
  const char* (*error_at)(const char*);
};

constexpr int32_t kHostToDevice = 1, kDeviceToHost = 2;

// Clears the emulated device's recorded error (and any injection) before and after a test.
void clear_emulated_error() {
  auto inject = reinterpret_cast<void (*)(const char*, int64_t)>(
      cuda_registry()->find_runtime_symbol("dace_cuda_emu_inject_failure"));
  ASSERT_NE(inject, nullptr);
  inject(nullptr, 0);
}

int64_t emulated_count(const char* what) {
  auto fn = reinterpret_cast<int64_t (*)()>(cuda_registry()->find_runtime_symbol(what));
  return fn ? fn() : -1;
}

class CudaStreamRuntime : public CudaTargetTest {};

// H->D on stream 1, an event recorded there and waited for on stream 2, D->H on stream 2
// (whole rows, then every other row through the 2-D copy): what arrives is what was sent.
TEST_P(CudaStreamRuntime, AnEventOrdersACopyOnOneStreamBeforeACopyOnAnother) {
  REQUIRE_CUDA_TARGET();
  StreamRuntime rt(GetParam());
  ASSERT_EQ(rt.missing, "");
  const int64_t live_before = emulated_count("dace_cuda_emu_live_streams");
  constexpr int64_t kRows = 6, kCols = 5, kBytes = kRows * kCols * 8;
  std::vector<double> in(kRows * kCols), out(kRows * kCols, -1.0), rows(kRows * kCols, -1.0);
  for (size_t k = 0; k < in.size(); ++k) in[k] = 0.5 * static_cast<double>(k) - 3.0;
  void* device = rt.malloc(kBytes);
  ASSERT_NE(device, nullptr) << rt.error();
  void* first = rt.stream_create();
  void* second = rt.stream_create();
  void* copied = rt.event_create();
  ASSERT_TRUE(first && second && copied) << rt.error();
  EXPECT_NE(first, second);
  EXPECT_EQ(rt.copy_on(first, device, in.data(), kBytes, kHostToDevice), 0) << rt.error();
  EXPECT_EQ(rt.event_record(copied, first), 0) << rt.error();
  EXPECT_EQ(rt.stream_wait_event(second, copied), 0) << rt.error();
  EXPECT_EQ(rt.copy_on(second, out.data(), device, kBytes, kDeviceToHost), 0) << rt.error();
  // Rows 0, 2, 4 of the device array into rows 0, 1, 2 of `rows`.
  EXPECT_EQ(rt.copy_2d_on(second, rows.data(), kCols * 8, device, 2 * kCols * 8, kCols * 8, kRows / 2, kDeviceToHost),
            0)
      << rt.error();
  EXPECT_EQ(rt.stream_synchronize(second), 0) << rt.error();
  EXPECT_EQ(out, in);
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t c = 0; c < kCols; ++c)
      EXPECT_EQ(rows[r * kCols + c], r < kRows / 2 ? in[2 * r * kCols + c] : -1.0) << r << ", " << c;
  EXPECT_EQ(rt.event_destroy(copied), 0) << rt.error();
  EXPECT_EQ(rt.stream_destroy(first), 0) << rt.error();
  EXPECT_EQ(rt.stream_destroy(second), 0) << rt.error();
  EXPECT_EQ(rt.free(device), 0) << rt.error();
  if (GetParam() == Where::Emulated) {
    EXPECT_EQ(emulated_count("dace_cuda_emu_live_streams"), live_before);
  }
}

INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaStreamRuntime);

// Misuse by generated code: each is the call's failure with a message naming what is wrong
// (the emulated device only: the real runtime's errors are sticky for the process).
TEST(CudaStreamEmulation, WaitingOnAnEventNeverRecordedIsAnError) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  ASSERT_EQ(rt.missing, "");
  void* stream = rt.stream_create();
  void* event = rt.event_create();
  ASSERT_TRUE(stream && event);
  EXPECT_EQ(rt.stream_wait_event(stream, event), 1);
  EXPECT_NE(rt.status().find("dace_cuda_stream_wait_event: event "), std::string::npos) << rt.status();
  EXPECT_NE(rt.status().find("was never recorded"), std::string::npos) << rt.status();
  // A refusal, not the process's sticky error: the runtime goes on working.
  EXPECT_STREQ(rt.error(), "");
  // Recorded on the default stream, the wait is valid.
  EXPECT_EQ(rt.event_record(event, nullptr), 0) << rt.error();
  EXPECT_EQ(rt.stream_wait_event(stream, event), 0) << rt.error();
  EXPECT_EQ(rt.event_destroy(event), 0);
  EXPECT_EQ(rt.stream_destroy(stream), 0);
  clear_emulated_error();
}

TEST(CudaStreamEmulation, HandlesUsedAfterTheyWereDestroyedAreErrors) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  ASSERT_EQ(rt.missing, "");
  const int64_t streams_before = emulated_count("dace_cuda_emu_live_streams");
  const int64_t events_before = emulated_count("dace_cuda_emu_live_events");
  void* stream = rt.stream_create();
  void* event = rt.event_create();
  ASSERT_TRUE(stream && event);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_streams"), streams_before + 1);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_events"), events_before + 1);
  EXPECT_EQ(rt.stream_destroy(stream), 0);
  EXPECT_EQ(rt.event_destroy(event), 0);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_streams"), streams_before);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_events"), events_before);
  double x = 1.0, y = 0.0;
  // One misuse at a time (the recorded error is the first one since the last clear).
  auto expect_misuse = [&](const char* what, int32_t rc, const char* message) {
    EXPECT_EQ(rc, 1) << what;
    EXPECT_NE(rt.status().find(message), std::string::npos) << what << ": " << rt.status();
    EXPECT_STREQ(rt.error(), "") << what << ": a misuse must not be sticky";
  };
  expect_misuse("copy on a destroyed stream", rt.copy_on(stream, &y, &x, 8, kHostToDevice), "dace_cuda_copy_on: stream ");
  EXPECT_EQ(y, 0.0);  // nothing copied
  expect_misuse("destroying it again", rt.stream_destroy(stream), "is not a live stream");
  expect_misuse("destroying the default stream", rt.stream_destroy(nullptr), "the default stream cannot be destroyed");
  expect_misuse("recording a destroyed event", rt.event_record(event, nullptr), "dace_cuda_event_record: event ");
  expect_misuse("synchronizing a destroyed stream", rt.stream_synchronize(stream), "dace_cuda_stream_synchronize: stream ");
  // After all these refusals the runtime still works.
  void* fresh = rt.stream_create();
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(rt.copy_on(fresh, &y, &x, 8, kHostToDevice), 0) << rt.status();
  EXPECT_EQ(rt.stream_synchronize(fresh), 0);
  EXPECT_EQ(y, 1.0);
  EXPECT_EQ(rt.stream_destroy(fresh), 0);
  clear_emulated_error();
}

TEST(CudaStreamEmulation, AFailedStreamCreationIsReported) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  ASSERT_EQ(rt.missing, "");
  auto inject = reinterpret_cast<void (*)(const char*, int64_t)>(
      cuda_registry()->find_runtime_symbol("dace_cuda_emu_inject_failure"));
  inject("stream_create", 1);
  void* kept = rt.stream_create();
  EXPECT_NE(kept, nullptr);
  EXPECT_EQ(rt.stream_create(), nullptr);  // status nonzero, handle null (checked in stream_create)
  EXPECT_EQ(std::string(rt.error()), "dace_cuda_stream_create: injected failure (emulated device)");
  clear_emulated_error();
  EXPECT_EQ(rt.stream_destroy(kept), 0);
}

// A program's set: all streams and events or nothing; a failure destroys what it made.
TEST(CudaStreamEmulation, AStreamSetIsMadeWholeOrNotAtAll) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  auto create = rt.get<void** (*)(int32_t, int32_t)>("streams_create");
  auto destroy = rt.get<int32_t (*)(void**)>("streams_destroy");
  ASSERT_EQ(rt.missing, "");
  auto inject = reinterpret_cast<void (*)(const char*, int64_t)>(
      cuda_registry()->find_runtime_symbol("dace_cuda_emu_inject_failure"));
  const int64_t streams = emulated_count("dace_cuda_emu_live_streams");
  const int64_t events = emulated_count("dace_cuda_emu_live_events");
  void** set = create(3, 2);
  ASSERT_NE(set, nullptr) << rt.error();
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_streams"), streams + 3);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_events"), events + 2);
  for (int i = 0; i < 5; ++i) EXPECT_NE(set[i], nullptr) << i;
  EXPECT_EQ(rt.event_record(set[3], set[0]), 0);  // streams first, then events
  EXPECT_EQ(destroy(set), 0);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_streams"), streams);
  EXPECT_EQ(emulated_count("dace_cuda_emu_live_events"), events);
  using Failure = std::pair<const char*, int64_t>;  // the entry, and how many calls of it succeed first
  const Failure kFailures[] = {{"stream_create", 2}, {"event_create", 1}};
  for (auto [entry, skip] : kFailures) {
    inject(entry, skip);
    EXPECT_EQ(create(3, 2), nullptr) << entry;
    clear_emulated_error();
    EXPECT_EQ(emulated_count("dace_cuda_emu_live_streams"), streams) << entry;
    EXPECT_EQ(emulated_count("dace_cuda_emu_live_events"), events) << entry;
  }
}

// The emulated ordering check: work on one stream that touches device memory another stream
// wrote (or read) is refused unless an event wait or a synchronization orders the two.
TEST(CudaStreamEmulation, WorkOnTwoStreamsWithoutAnEventBetweenThemFails) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  ASSERT_EQ(rt.missing, "");
  std::vector<double> in(16, 2.5), out(16, -1.0);
  void* device = rt.malloc(16 * 8);
  void* first = rt.stream_create();
  void* second = rt.stream_create();
  void* event = rt.event_create();
  ASSERT_TRUE(device && first && second && event);
  // Read after write without a wait: the D->H copy could run before the H->D copy.
  EXPECT_EQ(rt.copy_on(first, device, in.data(), 16 * 8, kHostToDevice), 0);
  EXPECT_EQ(rt.copy_on(second, out.data(), device, 16 * 8, kDeviceToHost), 1);
  EXPECT_NE(rt.status().find("emulated ordering check"), std::string::npos) << rt.status();
  clear_emulated_error();
  // With the event between them it is ordered.
  EXPECT_EQ(rt.copy_on(first, device, in.data(), 16 * 8, kHostToDevice), 0);
  EXPECT_EQ(rt.event_record(event, first), 0);
  EXPECT_EQ(rt.stream_wait_event(second, event), 0);
  EXPECT_EQ(rt.copy_on(second, out.data(), device, 16 * 8, kDeviceToHost), 0) << rt.status();
  // Write after read without a wait: the H->D copy on `first` could overwrite the data
  // before `second` read it.
  EXPECT_EQ(rt.copy_on(first, device, in.data(), 16 * 8, kHostToDevice), 1);
  EXPECT_NE(rt.status().find("that stream"), std::string::npos) << rt.status();
  clear_emulated_error();
  // A host synchronization orders too.
  EXPECT_EQ(rt.stream_synchronize(second), 0);
  EXPECT_EQ(rt.copy_on(first, device, in.data(), 16 * 8, kHostToDevice), 0) << rt.status();
  EXPECT_EQ(rt.stream_synchronize(first), 0);
  EXPECT_EQ(rt.event_destroy(event), 0);
  EXPECT_EQ(rt.stream_destroy(first), 0);
  EXPECT_EQ(rt.stream_destroy(second), 0);
  EXPECT_EQ(rt.free(device), 0);
  clear_emulated_error();
}

// An emulated kernel: params[0] points to the slot holding the device array, doubled in place.
void double_in_place(void** params) {
  double* data = nullptr;
  std::memcpy(&data, params[0], sizeof data);
  for (int i = 0; i < 8; ++i) data[i] *= 2;
}

TEST(CudaStreamEmulation, AKernelWritingWhatAnotherStreamReadsWithoutAWaitFails) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  auto launch_on = rt.get<int32_t (*)(void*, const char*, const char*, int64_t, int64_t, int64_t, int64_t, int64_t,
                                      int64_t, int32_t, void**, int32_t)>("launch_on");
  ASSERT_EQ(rt.missing, "");
  std::vector<double> host(8, 1.5), back(8, 0.0);
  void* device = rt.malloc(8 * 8);
  void* first = rt.stream_create();
  void* second = rt.stream_create();
  ASSERT_TRUE(device && first && second);
  ASSERT_EQ(rt.copy_on(nullptr, device, host.data(), 8 * 8, kHostToDevice), 0);  // default stream: ordered
  void* slot = device;
  void* params[1] = {&slot};
  void (*fn)(void**) = double_in_place;
  const char* kernel = nullptr;
  std::memcpy(&kernel, &fn, sizeof kernel);
  EXPECT_EQ(launch_on(first, nullptr, kernel, 1, 1, 1, 1, 1, 1, 0, params, 1), 0) << rt.status();
  // The kernel wrote the block (its bytes changed); a copy on the other stream reads it.
  EXPECT_EQ(rt.copy_on(second, back.data(), device, 8 * 8, kDeviceToHost), 1);
  EXPECT_NE(rt.status().find("dace_cuda_copy_on: reads device memory"), std::string::npos) << rt.status();
  clear_emulated_error();
  EXPECT_EQ(rt.stream_synchronize(first), 0);
  EXPECT_EQ(rt.copy_on(second, back.data(), device, 8 * 8, kDeviceToHost), 0) << rt.status();
  // Queued on a created stream, the copy reaches host memory only when the host synchronizes.
  EXPECT_EQ(back, std::vector<double>(8, 0.0));
  EXPECT_EQ(rt.stream_synchronize(second), 0);
  EXPECT_EQ(back, std::vector<double>(8, 3.0));
  EXPECT_EQ(rt.stream_destroy(first), 0);
  EXPECT_EQ(rt.stream_destroy(second), 0);
  EXPECT_EQ(rt.free(device), 0);
  clear_emulated_error();
}

// C = A B (2x3 times 3x2, row-major) queued on a stream, against a C++ loop.
TEST(CudaStreamEmulation, AProductOnAStreamMatchesLoops) {
  REQUIRE_CUDA_PLUGIN();
  clear_emulated_error();
  StreamRuntime rt(Where::Emulated);
  ASSERT_EQ(rt.missing, "");
  auto gemm_on = rt.get<int32_t (*)(void*, int32_t, int64_t, int64_t, int64_t, double, const void*, int64_t, int64_t,
                                    const void*, int64_t, int64_t, double, void*, int64_t, int64_t)>("gemm_on");
  ASSERT_EQ(rt.missing, "");
  const double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, -8, 9, 10, -11, 12};
  double c[4] = {0, 0, 0, 0}, expected[4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      expected[i * 2 + j] = 0;
      for (int k = 0; k < 3; ++k) expected[i * 2 + j] += a[i * 3 + k] * b[k * 2 + j];
    }
  void* stream = rt.stream_create();
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(gemm_on(stream, 1, 2, 2, 3, 1.0, a, 3, 1, b, 2, 1, 0.0, c, 2, 1), 0) << rt.error();
  EXPECT_EQ(rt.stream_synchronize(stream), 0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(c[k], expected[k]) << k;
  EXPECT_EQ(rt.stream_destroy(stream), 0);
  EXPECT_EQ(gemm_on(stream, 1, 2, 2, 3, 1.0, a, 3, 1, b, 2, 1, 0.0, c, 2, 1), 1);  // destroyed stream
  clear_emulated_error();
}

}  // namespace
}  // namespace dace::codegen::testing
