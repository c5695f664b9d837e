#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "plugin/registry.h"
#include "plugin_test_support.h"

namespace dace::plugin {
namespace {

using testing::NoopCopy;
using testing::NoopExpansion;
using testing::NoopFactory;
using testing::NoopSchedule;
using testing::NoopStorage;

int dummy_function_a = 0;
int dummy_function_b = 0;

PluginInfo info_named(const std::string& name) {
  PluginInfo info;
  info.name = name;
  return info;
}

TEST(PluginRegistry, RegistersAndFindsEveryKind) {
  Registry r;
  auto schedule = std::make_shared<NoopSchedule>();
  ASSERT_TRUE(r.add_schedule("CPU_Multicore", schedule).ok());
  ASSERT_TRUE(r.add_storage("CPU_Heap", std::make_shared<NoopStorage>()).ok());
  ASSERT_TRUE(r.add_copy("CPU_Heap", "GPU_Global", std::make_shared<NoopCopy>()).ok());
  ASSERT_TRUE(r.add_expansion("blas.Gemm", "OpenBLAS", std::make_shared<NoopExpansion>()).ok());
  ASSERT_TRUE(r.add_transformation("MapTiling", std::make_shared<NoopFactory>()).ok());
  ASSERT_TRUE(r.add_runtime_symbol("rt_a", &dummy_function_a).ok());
  ASSERT_TRUE(r.add_vendor_library("libfoo.so.1", false).ok());

  EXPECT_EQ(r.find_schedule("CPU_Multicore"), schedule);
  EXPECT_EQ(r.find_schedule("GPU_Device"), nullptr);
  EXPECT_NE(r.find_storage("CPU_Heap"), nullptr);
  EXPECT_NE(r.find_copy("CPU_Heap", "GPU_Global"), nullptr);
  EXPECT_EQ(r.find_copy("GPU_Global", "CPU_Heap"), nullptr);  // ordered pair
  EXPECT_NE(r.find_expansion("blas.Gemm", "OpenBLAS"), nullptr);
  EXPECT_EQ(r.find_expansion("blas.Gemm", "pure"), nullptr);
  EXPECT_NE(r.find_transformation("MapTiling"), nullptr);
  EXPECT_EQ(r.find_runtime_symbol("rt_a"), &dummy_function_a);
  EXPECT_EQ(r.find_runtime_symbol("rt_b"), nullptr);
  EXPECT_EQ(r.schedule_owner("CPU_Multicore"), "libdace");
  EXPECT_FALSE(r.vendor_library_available("libfoo.so.1"));  // declared, not loaded
  EXPECT_TRUE(r.first_error().ok());
}

TEST(PluginRegistry, DuplicatesAreErrorsNamingBothOwners) {
  Registry r("alpha");
  ASSERT_TRUE(r.add_schedule("S", std::make_shared<NoopSchedule>()).ok());
  Status dup = r.add_schedule("S", std::make_shared<NoopSchedule>());
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, Code::AlreadyExists);
  EXPECT_NE(dup.error().message.find("schedule \"S\""), std::string::npos);
  EXPECT_NE(dup.error().message.find("\"alpha\""), std::string::npos);
  // The failure is remembered even if the caller ignores it.
  ASSERT_FALSE(r.first_error().ok());
  EXPECT_EQ(r.first_error().error().code, Code::AlreadyExists);

  Registry q;
  ASSERT_TRUE(q.add_copy("A", "B", std::make_shared<NoopCopy>()).ok());
  EXPECT_EQ(q.add_copy("A", "B", std::make_shared<NoopCopy>()).error().code,
            Code::AlreadyExists);
  ASSERT_TRUE(q.add_runtime_symbol("x", &dummy_function_a).ok());
  EXPECT_EQ(q.add_runtime_symbol("x", &dummy_function_b).error().code, Code::AlreadyExists);
}

TEST(PluginRegistry, InvalidRegistrationsAreRejected) {
  Registry r;
  EXPECT_EQ(r.add_schedule("", std::make_shared<NoopSchedule>()).error().code,
            Code::InvalidArgument);
  EXPECT_EQ(r.add_storage("X", nullptr).error().code, Code::InvalidArgument);
  EXPECT_EQ(r.add_runtime_symbol("y", nullptr).error().code, Code::InvalidArgument);
  EXPECT_EQ(r.add_vendor_library("", true).error().code, Code::InvalidArgument);
  EXPECT_TRUE(r.schedule_names().empty());
  EXPECT_TRUE(r.storage_names().empty());
}

TEST(PluginRegistry, ListingsAreSorted) {
  Registry r;
  for (const char* name : {"b", "C", "a", "B"})
    ASSERT_TRUE(r.add_schedule(name, std::make_shared<NoopSchedule>()).ok());
  EXPECT_EQ(r.schedule_names(), (std::vector<std::string>{"B", "C", "a", "b"}));
  ASSERT_TRUE(r.add_expansion("n.Gemm", "pure", std::make_shared<NoopExpansion>()).ok());
  ASSERT_TRUE(r.add_expansion("n.Gemm", "OpenBLAS", std::make_shared<NoopExpansion>()).ok());
  ASSERT_TRUE(r.add_expansion("n.Dot", "pure", std::make_shared<NoopExpansion>()).ok());
  EXPECT_EQ(r.expansion_implementations("n.Gemm"),
            (std::vector<std::string>{"OpenBLAS", "pure"}));
  ASSERT_TRUE(r.add_runtime_symbol("z", &dummy_function_a).ok());
  ASSERT_TRUE(r.add_runtime_symbol("m", &dummy_function_b).ok());
  std::vector<RuntimeSymbol> syms = r.runtime_symbols();
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms[0].name, "m");
  EXPECT_EQ(syms[1].name, "z");
}

TEST(PluginRegistry, VendorLibraryDeclaredTwiceKeepsOneEntry) {
  Registry r;
  ASSERT_TRUE(r.add_vendor_library("libx.so", false).ok());
  ASSERT_TRUE(r.add_vendor_library("libx.so", true).ok());
  std::vector<VendorLibrary> libs = r.vendor_libraries();
  ASSERT_EQ(libs.size(), 1u);
  EXPECT_TRUE(libs[0].required);
  r.set_vendor_library_status("libx.so", true, "");
  EXPECT_TRUE(r.vendor_library_available("libx.so"));
}

TEST(PluginRegistry, AdoptMergesAllOrNothing) {
  Registry main;
  Registry first("first");
  ASSERT_TRUE(first.add_schedule("S1", std::make_shared<NoopSchedule>()).ok());
  ASSERT_TRUE(first.add_runtime_symbol("sym", &dummy_function_a).ok());
  Result<bool> adopted = main.adopt(first, info_named("first"));
  ASSERT_TRUE(adopted.ok());
  EXPECT_TRUE(*adopted);
  EXPECT_EQ(main.schedule_owner("S1"), "first");
  EXPECT_TRUE(main.has_plugin("first"));

  // `second` brings a new storage and a schedule that clashes: nothing of it may land.
  Registry second("second");
  ASSERT_TRUE(second.add_storage("NewStorage", std::make_shared<NoopStorage>()).ok());
  ASSERT_TRUE(second.add_schedule("S1", std::make_shared<NoopSchedule>()).ok());
  Result<bool> clash = main.adopt(second, info_named("second"));
  ASSERT_FALSE(clash.ok());
  EXPECT_EQ(clash.error().code, Code::AlreadyExists);
  EXPECT_NE(clash.error().message.find("\"second\""), std::string::npos);
  EXPECT_NE(clash.error().message.find("\"first\""), std::string::npos);
  EXPECT_EQ(main.find_storage("NewStorage"), nullptr);
  EXPECT_FALSE(main.has_plugin("second"));
  EXPECT_EQ(main.schedule_owner("S1"), "first");

  // The same runtime symbol at the same address is no conflict; another address is.
  Registry third("third");
  ASSERT_TRUE(third.add_runtime_symbol("sym", &dummy_function_a).ok());
  EXPECT_TRUE(main.adopt(third, info_named("third")).ok());
  Registry fourth("fourth");
  ASSERT_TRUE(fourth.add_runtime_symbol("sym", &dummy_function_b).ok());
  EXPECT_EQ(main.adopt(fourth, info_named("fourth")).error().code, Code::AlreadyExists);
  EXPECT_EQ(main.find_runtime_symbol("sym"), &dummy_function_a);

  // Adopting a plugin name that is already present is a no-op.
  Registry again("first");
  ASSERT_TRUE(again.add_schedule("Other", std::make_shared<NoopSchedule>()).ok());
  Result<bool> noop = main.adopt(again, info_named("first"));
  ASSERT_TRUE(noop.ok());
  EXPECT_FALSE(*noop);
  EXPECT_EQ(main.find_schedule("Other"), nullptr);
  EXPECT_EQ(main.plugins().size(), 2u);  // first, third
}

TEST(PluginRegistry, HandleRoundTrips) {
  Registry r;
  EXPECT_EQ(Registry::from_handle(r.handle()), &r);
  EXPECT_EQ(Registry::from_handle(nullptr), nullptr);
}

TEST(PluginRegistry, ConcurrentRegistrationsAndLookups) {
  Registry r;
  constexpr int kPerThread = 200;
  std::atomic<bool> stop{false};
  std::atomic<long> lookups{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; ++t) {
    writers.emplace_back([&r, &lookups, t] {
      // Start once the reader runs, so that lookups and registrations really overlap.
      while (lookups.load() == 0) std::this_thread::yield();
      for (int i = 0; i < kPerThread; ++i) {
        std::string name = "s" + std::to_string(t) + "_" + std::to_string(i);
        EXPECT_TRUE(r.add_schedule(name, std::make_shared<NoopSchedule>()).ok());
      }
    });
  }
  std::thread reader([&] {
    while (!stop.load()) {
      std::vector<std::string> names = r.schedule_names();
      for (size_t i = 1; i < names.size(); ++i) EXPECT_LT(names[i - 1], names[i]);
      if (!names.empty()) {
        EXPECT_NE(r.find_schedule(names.front()), nullptr);
      }
      lookups.fetch_add(1);
    }
  });
  for (std::thread& w : writers) w.join();
  stop.store(true);
  reader.join();
  EXPECT_EQ(r.schedule_names().size(), static_cast<size_t>(2 * kPerThread));
  EXPECT_GT(lookups.load(), 0);
}

}  // namespace
}  // namespace dace::plugin
