// The CUDA runtime's pool of freed device blocks (plugins/cuda/runtime/device_pool.h): the
// bookkeeping against hand-derived sequences (no GPU needed), and, on a GPU, the runtime's
// dace_cuda_malloc handing a freed block of the same size back, and dace_cuda_pool_trim
// returning the pool to the driver.
#include <gtest/gtest.h>

#include "cuda/runtime/device_pool.h"
#include "cuda_test_support.h"

namespace dace::codegen::testing {
namespace {

using dace::cuda::DevicePool;
using Released = std::vector<std::pair<uintptr_t, size_t>>;

TEST(CudaDevicePool, SizesAreRoundedToWholeGranules) {
  EXPECT_EQ(DevicePool::rounded(0), 512u);
  EXPECT_EQ(DevicePool::rounded(1), 512u);
  EXPECT_EQ(DevicePool::rounded(512), 512u);
  EXPECT_EQ(DevicePool::rounded(513), 1024u);
  EXPECT_EQ(DevicePool::rounded(60000000), 60000256u);
}

TEST(CudaDevicePool, HandsBackOnlyTheSameSizeMostRecentFirst) {
  DevicePool pool(1 << 20);
  EXPECT_EQ(pool.take(1024), 0u);
  EXPECT_TRUE(pool.keep(0x1000, 1024).empty());
  EXPECT_TRUE(pool.keep(0x2000, 1024).empty());
  EXPECT_TRUE(pool.keep(0x3000, 2048).empty());
  EXPECT_EQ(pool.kept_bytes(), 4096u);
  EXPECT_EQ(pool.take(1536), 0u);  // no block of that size
  EXPECT_EQ(pool.take(1024), 0x2000u);
  EXPECT_EQ(pool.take(1024), 0x1000u);
  EXPECT_EQ(pool.take(1024), 0u);
  EXPECT_EQ(pool.take(2048), 0x3000u);
  EXPECT_EQ(pool.kept_bytes(), 0u);
  EXPECT_EQ(pool.kept_blocks(), 0u);
}

TEST(CudaDevicePool, ReleasesTheOldestBeyondItsCapacity) {
  DevicePool pool(3072);
  EXPECT_TRUE(pool.keep(0xa000, 1024).empty());
  EXPECT_TRUE(pool.keep(0xb000, 1024).empty());
  EXPECT_TRUE(pool.keep(0xc000, 1024).empty());
  EXPECT_EQ(pool.keep(0xd000, 1024), (Released{{0xa000, 1024}}));
  EXPECT_EQ(pool.keep(0xe000, 2048), (Released{{0xb000, 1024}, {0xc000, 1024}}));
  EXPECT_EQ(pool.kept_bytes(), 3072u);
  // A block larger than the whole capacity is released at once; the pool keeps what it had.
  EXPECT_EQ(pool.keep(0xf000, 4096), (Released{{0xf000, 4096}}));
  EXPECT_EQ(pool.kept_bytes(), 3072u);
  EXPECT_EQ(pool.drain(), (Released{{0xe000, 2048}, {0xd000, 1024}}));
  EXPECT_EQ(pool.kept_bytes(), 0u);
  EXPECT_TRUE(pool.drain().empty());
}

TEST(CudaDevicePool, CapacityZeroKeepsNothing) {
  DevicePool pool(0);
  EXPECT_EQ(pool.keep(0x1000, 512), (Released{{0x1000, 512}}));
  EXPECT_EQ(pool.take(512), 0u);
  EXPECT_EQ(pool.kept_bytes(), 0u);
}

// The real runtime: with a GPU, a freed block comes back for the same size (after the pool's
// trim, the driver's own), and the pool holds what was freed; without one, nothing is pooled.
TEST(CudaDevicePoolRuntime, FreedBlocksComeBackForTheSameSize) {
  REQUIRE_CUDA_PLUGIN();
  auto malloc_device = cuda_runtime_entry<void* (*)(int64_t)>("dace_cuda_malloc");
  auto free_device = cuda_runtime_entry<int32_t (*)(void*)>("dace_cuda_free");
  auto trim = cuda_runtime_entry<int64_t (*)()>("dace_cuda_pool_trim");
  auto pooled = cuda_runtime_entry<int64_t (*)()>("dace_cuda_pool_bytes");
  ASSERT_TRUE(malloc_device && free_device && trim && pooled);
  const std::string absent = cuda_device_absence();
  if (!absent.empty()) {
    EXPECT_EQ(trim(), 0);
    EXPECT_EQ(pooled(), 0);
    GTEST_SKIP() << "the pool's device half not run on a GPU: " << absent;
  }
  trim();
  ASSERT_EQ(pooled(), 0);
  const int64_t mib = int64_t{1} << 20;
  void* a = malloc_device(mib);
  void* b = malloc_device(3 * mib + 5);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(free_device(a), 0);
  EXPECT_EQ(free_device(b), 0);
  EXPECT_EQ(pooled(), mib + 3 * mib + 512);
  EXPECT_EQ(malloc_device(3 * mib + 100), b);  // the same rounded size
  EXPECT_EQ(malloc_device(mib), a);
  EXPECT_EQ(pooled(), 0);
  EXPECT_EQ(free_device(a), 0);
  EXPECT_EQ(free_device(b), 0);
  EXPECT_EQ(trim(), mib + 3 * mib + 512);
  EXPECT_EQ(pooled(), 0);
}

}  // namespace
}  // namespace dace::codegen::testing
