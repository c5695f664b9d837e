// Option structs as an old caller passes them: the struct of the version it was compiled
// against, possibly shorter than the library's current struct. The version-1 layouts below
// are frozen copies of the header's first version (they must never change), so once a field
// is appended to a struct, these tests play a caller that predates it. Every init function
// and every consumer gets the struct inside guard bytes; the guards must stay untouched.
// Reads past the caller's struct are caught by placing it right before an inaccessible page.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "builder/api_options.h"
#include "capi_program_test_util.h"
#include "capi_test_util.h"

namespace {

// --- Frozen version-1 layouts (the header as of version 1 of every struct). ---
struct ArrayOptionsV1 {
  uint32_t version;
  int32_t transient;
  dace_storage_t storage;
  dace_lifetime_t lifetime;
  const char* strides;
  const char* offset;
  const char* total_size;
  int64_t alignment;
  int32_t may_alias;
  int32_t optional;
  const char* buffer_size;
};
struct MapOptionsV1 {
  uint32_t version;
  dace_schedule_t schedule;
  int64_t collapse;
  int64_t omp_num_threads;
  dace_omp_schedule_t omp_schedule;
  int64_t omp_chunk_size;
  int32_t unroll;
  const char* gpu_block_size;
};
struct MemletOptionsV1 {
  uint32_t version;
  const char* wcr;
  const char* volume;
  int32_t dynamic;
  int32_t wcr_nonatomic;
  int32_t allow_oob;
};
struct SaveOptionsV1 {
  uint32_t version;
  int32_t compact;
  int32_t gzip;
  int32_t omit_guids;
};
struct MappedTaskletOptionsV1 {
  uint32_t version;
  dace_schedule_t schedule;
  int32_t external_edges;
  const char* output_wcr;
  dace_language_t language;
};
struct CompileOptionsV1 {
  uint32_t version;
  int32_t opt_level;
  int32_t fast_math;
  int32_t num_threads;
  const char* cache_dir;
  const char* dump_dir;
};
struct CompileStatsV1 {
  uint32_t version;
  int32_t cache_hit;
  double validate_ms, lower_ms, optimize_ms, jit_ms, total_ms;
  uint64_t ir_instructions;
  uint64_t object_bytes;
};

constexpr unsigned char kGuard = 0xA5;
constexpr size_t kGuardBytes = 32;

// `V1` placed between guard bytes, its end flush against a PROT_NONE page.
template <typename V1>
class Guarded {
 public:
  Guarded() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    base_ = static_cast<unsigned char*>(
        mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    EXPECT_NE(base_, MAP_FAILED);
    EXPECT_EQ(mprotect(base_ + page_, page_, PROT_NONE), 0);
    std::memset(base_, kGuard, page_);
    std::memset(value(), 0, sizeof(V1));
  }
  ~Guarded() { munmap(base_, 2 * page_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;

  V1* value() { return reinterpret_cast<V1*>(base_ + page_ - sizeof(V1)); }
  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(value());
  }
  // The guard bytes right before the struct (the ones after it are inaccessible).
  bool guards_intact() const {
    const unsigned char* g = base_ + page_ - sizeof(V1) - kGuardBytes;
    for (size_t i = 0; i < kGuardBytes; ++i)
      if (g[i] != kGuard) return false;
    return true;
  }

 private:
  size_t page_ = 0;
  unsigned char* base_ = nullptr;
};

// A struct's version 1 must be a prefix of the current struct, of the frozen size.
template <typename Current, typename V1>
void expect_prefix() {
  EXPECT_EQ(dace::capi::options_size<Current>(1), sizeof(V1));
  EXPECT_LE(sizeof(V1), sizeof(Current));
}

TEST(CapiOptionsVersion, VersionOneIsTheFrozenPrefix) {
  expect_prefix<dace_array_options_t, ArrayOptionsV1>();
  expect_prefix<dace_map_options_t, MapOptionsV1>();
  expect_prefix<dace_memlet_options_t, MemletOptionsV1>();
  expect_prefix<dace_save_options_t, SaveOptionsV1>();
  expect_prefix<dace_mapped_tasklet_options_t, MappedTaskletOptionsV1>();
  expect_prefix<dace_compile_options_t, CompileOptionsV1>();
  expect_prefix<dace_compile_stats_t, CompileStatsV1>();
}

TEST(CapiOptionsVersion, InitWritesOnlyTheRequestedVersion) {
  {
    Guarded<ArrayOptionsV1> g;
    ASSERT_DACE_OK(dace_array_options_init(g.as<dace_array_options_t>(), 1));
    EXPECT_EQ(g.value()->version, 1u);
    EXPECT_EQ(g.value()->storage, DACE_STORAGE_DEFAULT);
    EXPECT_EQ(g.value()->buffer_size, nullptr);
    EXPECT_TRUE(g.guards_intact());
  }
  {
    Guarded<MapOptionsV1> g;
    ASSERT_DACE_OK(dace_map_options_init(g.as<dace_map_options_t>(), 1));
    EXPECT_EQ(g.value()->collapse, 1);  // the header's documented default (>= 1)
    EXPECT_TRUE(g.guards_intact());
  }
  {
    Guarded<MemletOptionsV1> g;
    ASSERT_DACE_OK(dace_memlet_options_init(g.as<dace_memlet_options_t>(), 1));
    EXPECT_EQ(g.value()->wcr, nullptr);
    EXPECT_TRUE(g.guards_intact());
  }
  {
    Guarded<SaveOptionsV1> g;
    ASSERT_DACE_OK(dace_save_options_init(g.as<dace_save_options_t>(), 1));
    EXPECT_EQ(g.value()->gzip, 0);
    EXPECT_TRUE(g.guards_intact());
  }
  {
    Guarded<MappedTaskletOptionsV1> g;
    ASSERT_DACE_OK(dace_mapped_tasklet_options_init(g.as<dace_mapped_tasklet_options_t>(), 1));
    EXPECT_EQ(g.value()->language, DACE_LANGUAGE_PYTHON);
    EXPECT_TRUE(g.guards_intact());
  }
  {
    Guarded<CompileOptionsV1> g;
    ASSERT_DACE_OK(dace_compile_options_init(g.as<dace_compile_options_t>(), 1));
    EXPECT_EQ(g.value()->opt_level, 3);
    EXPECT_TRUE(g.guards_intact());
  }
}

TEST(CapiOptionsVersion, InitRefusesUnknownVersionsAndWritesNothing) {
  for (uint32_t bad : {0u, 1000u}) {
    Guarded<ArrayOptionsV1> g;
    g.value()->transient = 7;
    EXPECT_DACE_ERROR(dace_array_options_init(g.as<dace_array_options_t>(), bad), DACE_ERROR_INVALID_ARGUMENT,
                      "dace_array_options_t: unknown version " + std::to_string(bad));
    EXPECT_EQ(g.value()->transient, 7);
    EXPECT_TRUE(g.guards_intact());
  }
  EXPECT_DACE_ERROR(dace_compile_options_init(nullptr, 1), DACE_ERROR_INVALID_ARGUMENT, "options");
  EXPECT_DACE_ERROR(dace_map_options_init(nullptr, 1), DACE_ERROR_INVALID_ARGUMENT, "options");
}

TEST(CapiOptionsVersion, ConsumersReadOnlyTheCallersVersion) {
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&sdfg, "old_caller"));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  Guarded<ArrayOptionsV1> ao;
  ASSERT_DACE_OK(dace_array_options_init(ao.as<dace_array_options_t>(), 1));
  ao.value()->transient = 1;
  ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "T", DACE_FLOAT64, "N", ao.as<dace_array_options_t>()));
  ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
  dace_id_t state = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s"));

  Guarded<MapOptionsV1> mo;
  ASSERT_DACE_OK(dace_map_options_init(mo.as<dace_map_options_t>(), 1));
  mo.value()->schedule = DACE_SCHEDULE_SEQUENTIAL;
  dace_id_t entry = -1, exit = -1;
  ASSERT_DACE_OK(dace_state_add_map(&entry, &exit, sdfg, state, "m", "i=0:N", mo.as<dace_map_options_t>()));
  ASSERT_DACE_OK(dace_node_set_map_options(sdfg, state, entry, mo.as<dace_map_options_t>()));

  // Output struct: only version 1's bytes come back.
  Guarded<MapOptionsV1> got;
  got.value()->version = 1;
  ASSERT_DACE_OK(dace_node_get_map_options(got.as<dace_map_options_t>(), sdfg, state, entry));
  EXPECT_EQ(got.value()->version, 1u);
  EXPECT_EQ(got.value()->schedule, DACE_SCHEDULE_SEQUENTIAL);
  EXPECT_EQ(got.value()->collapse, 1);
  EXPECT_TRUE(got.guards_intact());

  Guarded<MappedTaskletOptionsV1> mt;
  ASSERT_DACE_OK(dace_mapped_tasklet_options_init(mt.as<dace_mapped_tasklet_options_t>(), 1));
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "t", "j=0:N", "", "b = 1.0",
                                               "b: A[j]", mt.as<dace_mapped_tasklet_options_t>()));

  Guarded<MemletOptionsV1> me;
  ASSERT_DACE_OK(dace_memlet_options_init(me.as<dace_memlet_options_t>(), 1));
  dace_id_t a1 = -1, a2 = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a1, sdfg, state, "A"));
  ASSERT_DACE_OK(dace_state_add_access(&a2, sdfg, state, "T"));
  dace_id_t edge = -1;
  ASSERT_DACE_OK(
      dace_state_add_edge(&edge, sdfg, state, a1, nullptr, a2, nullptr, "A[0:N]", me.as<dace_memlet_options_t>()));
  ASSERT_DACE_OK(dace_edge_set_memlet(sdfg, state, edge, "A[0:N]", me.as<dace_memlet_options_t>()));

  Guarded<SaveOptionsV1> so;
  ASSERT_DACE_OK(dace_save_options_init(so.as<dace_save_options_t>(), 1));
  so.value()->compact = 1;
  char* json = nullptr;
  ASSERT_DACE_OK(dace_sdfg_to_json(&json, sdfg, so.as<dace_save_options_t>()));
  EXPECT_EQ(std::string(json).find('\n'), std::string::npos);  // compact: one line
  dace_string_free(json);

  EXPECT_TRUE(ao.guards_intact());
  EXPECT_TRUE(mo.guards_intact());
  EXPECT_TRUE(mt.guards_intact());
  EXPECT_TRUE(me.guards_intact());
  EXPECT_TRUE(so.guards_intact());
  dace_sdfg_release(sdfg);
}

TEST(CapiOptionsVersion, CompileAndStatsUseOnlyTheCallersVersion) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("old_caller_axpb");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  Guarded<CompileOptionsV1> co;
  ASSERT_DACE_OK(dace_compile_options_init(co.as<dace_compile_options_t>(), 1));
  co.value()->opt_level = 1;
  dace_program_t* program = nullptr;
  dace_status_t st = dace_program_compile(&program, ctx, sdfg, co.as<dace_compile_options_t>());
  if (st == DACE_ERROR_PLUGIN_UNAVAILABLE) {
    dace_context_release(ctx);
    dace_sdfg_release(sdfg);
    GTEST_SKIP() << "CPU plugin unavailable: " << dace_last_error_message();
  }
  ASSERT_EQ(st, DACE_OK) << dace_last_error_message();
  EXPECT_TRUE(co.guards_intact());

  Guarded<CompileStatsV1> stats;
  stats.value()->version = 1;
  ASSERT_DACE_OK(dace_program_compile_stats(stats.as<dace_compile_stats_t>(), program));
  EXPECT_EQ(stats.value()->version, 1u);
  EXPECT_GT(stats.value()->total_ms, 0.0);
  EXPECT_TRUE(stats.guards_intact());

  stats.value()->version = 0;
  EXPECT_DACE_ERROR(dace_program_compile_stats(stats.as<dace_compile_stats_t>(), program),
                    DACE_ERROR_INVALID_ARGUMENT, "dace_compile_stats_t: unknown version 0");
  EXPECT_TRUE(stats.guards_intact());
  dace_program_release(program);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

// The mechanism itself on a two-version struct: version 1 is shorter than version 2.
struct Demo {
  uint32_t version;
  int32_t a;
  int64_t b;  // added in version 2
};
struct DemoV1 {
  uint32_t version;
  int32_t a;
};

}  // namespace

namespace dace::capi {
template <>
struct OptionsLayout<Demo> {
  static constexpr const char* name = "Demo";
  static constexpr size_t sizes[] = {offsetof(Demo, a) + sizeof(int32_t), sizeof(Demo)};
  static Demo defaults() { return Demo{2, 10, 20}; }
};
}  // namespace dace::capi

namespace {

TEST(CapiOptionsVersion, ShorterVersionTakesDefaultsForNewerFields) {
  Guarded<DemoV1> g;
  ASSERT_TRUE(dace::capi::init_options(g.as<Demo>(), 1).ok());
  EXPECT_EQ(g.value()->version, 1u);
  EXPECT_EQ(g.value()->a, 10);
  EXPECT_TRUE(g.guards_intact());

  g.value()->a = 5;
  auto read = dace::capi::read_options(g.as<const Demo>());
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->a, 5);
  EXPECT_EQ(read->b, 20);  // not in version 1: the default

  ASSERT_TRUE(dace::capi::write_versioned(g.as<Demo>(), Demo{2, 7, 99}).ok());
  EXPECT_EQ(g.value()->version, 1u);
  EXPECT_EQ(g.value()->a, 7);
  EXPECT_TRUE(g.guards_intact());

  g.value()->version = 3;
  EXPECT_FALSE(dace::capi::read_options(g.as<const Demo>()).ok());
}

}  // namespace

// Version 5 appended emulate_device: a version-4 caller's struct is the prefix that ends with
// wait_optimized, and init of version 4 writes none of the bytes after it.
TEST(CapiOptionsVersion, CompileOptionsVersionFourEndsBeforeEmulateDevice) {
  EXPECT_EQ(dace::capi::options_size<dace_compile_options_t>(4),
            offsetof(dace_compile_options_t, wait_optimized) + sizeof(int32_t));
  EXPECT_EQ(dace::capi::options_size<dace_compile_options_t>(5),
            offsetof(dace_compile_options_t, bounds_check) + sizeof(int32_t));
  EXPECT_EQ(dace::capi::options_size<dace_compile_options_t>(6), sizeof(dace_compile_options_t));
  dace_compile_options_t o;
  std::memset(&o, 0xAB, sizeof o);
  ASSERT_DACE_OK(dace_compile_options_init(&o, 4));
  EXPECT_EQ(o.version, 4u);
  EXPECT_EQ(o.tiered, 1);
  EXPECT_EQ(o.wait_optimized, 0);
  int32_t untouched;
  std::memset(&untouched, 0xAB, sizeof untouched);
  EXPECT_EQ(o.emulate_device, untouched);
  ASSERT_DACE_OK(dace_compile_options_init(&o, 5));
  EXPECT_EQ(o.emulate_device, 0);
  EXPECT_EQ(o.max_concurrent_streams, untouched);  // version 6's field
  ASSERT_DACE_OK(dace_compile_options_init(&o, 6));
  EXPECT_EQ(o.max_concurrent_streams, 0);
}
