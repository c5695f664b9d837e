// read_sdfg_file maps regular files and hands back the pages the reader has passed
// (docs/sdfg-json.md "Reading large files"). The reference for every result is the reader
// on the same text held in ordinary memory (read_sdfg): same SDFG, same statuses and messages;
// the resident-set figures come from the kernel (/proc/self/status).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "generated_sdfg_support.h"
#include "ir/json/mapped_file.h"
#include "ir/json/sdfg_json.h"
#include "ir/path.h"
#include "sdfg_files_support.h"

#ifndef LIBDACE_TEST_CORPUS_DIR
#define LIBDACE_TEST_CORPUS_DIR "/work/shared/sdfg-corpus"
#endif
#ifndef LIBDACE_TEST_SOURCE_DIR
#define LIBDACE_TEST_SOURCE_DIR "."
#endif

namespace {

using namespace dace;
using namespace dace::ir;

// A file in the temporary folder, removed when the test ends.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("libdace_mapped_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".sdfg"))
                .string();
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Resident memory of this process backed by files, in bytes: RssFile + RssShmem of
// /proc/self/status (a file on tmpfs, such as TMPDIR=/dev/shm, counts as shared memory).
int64_t resident_file_bytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  int64_t kb = -1;
  while (std::getline(in, line))
    if (line.rfind("RssFile:", 0) == 0 || line.rfind("RssShmem:", 0) == 0)
      kb = std::max<int64_t>(kb, 0) + std::stoll(line.substr(line.find(':') + 1));
  return kb < 0 ? -1 : kb * 1024;
}

// How much the resident set grows when every page of `path` is read through a fresh mapping
// (released again afterwards): the measure the resident-set tests rely on. Some kernels and
// file systems do not account mapped pages this way; those tests then skip.
int64_t growth_when_every_page_is_read(const std::string& path) {
  auto mapped = json::MappedFile::open(path, json::max_input_bytes());
  if (!mapped) return -1;
  const int64_t before = resident_file_bytes();
  size_t sum = 0;
  for (char c : mapped->text()) sum += static_cast<unsigned char>(c);
  const int64_t after = resident_file_bytes();
  mapped->release(0, mapped->text().size());
  volatile size_t keep = sum;  // the reads must happen
  (void)keep;
  return after - before;
}

// Lowers the size from which read_sdfg_file maps files, for one test, so that the mapped
// path runs on files of a few MB.
class MapEveryFile {
 public:
  MapEveryFile() : saved_(json::map_threshold_bytes()) { json::set_map_threshold_bytes_for_testing(1); }
  ~MapEveryFile() { json::set_map_threshold_bytes_for_testing(saved_); }
  MapEveryFile(const MapEveryFile&) = delete;
  MapEveryFile& operator=(const MapEveryFile&) = delete;

 private:
  int64_t saved_;
};

// read_sdfg_file(path) against read_sdfg(text): the same SDFG, or the same error with the
// path in front.
void expect_same_as_in_memory(const std::string& path, const std::string& text) {
  auto from_file = json::read_sdfg_file(path);
  auto in_memory = json::read_sdfg(text);
  ASSERT_EQ(from_file.ok(), in_memory.ok()) << (from_file.ok() ? in_memory : from_file).error().message;
  if (!in_memory.ok()) {
    EXPECT_EQ(from_file.error().code, in_memory.error().code);
    EXPECT_EQ(from_file.error().message, ir::quoted(path) + ": " + in_memory.error().message);
    EXPECT_EQ(from_file.error().line, in_memory.error().line);
    EXPECT_EQ(from_file.error().column, in_memory.error().column);
    return;
  }
  EXPECT_EQ(json::write_sdfg(**from_file), json::write_sdfg(**in_memory));
}

TEST(JsonMappedRead, EveryFileReadsAsFromMemory) {
  const auto files =
      testing_files::sdfg_files_below({LIBDACE_TEST_CORPUS_DIR, LIBDACE_TEST_SOURCE_DIR "/tests/data"});
  ASSERT_GE(files.size(), 44u);
  MapEveryFile map_all;
  const uint64_t mapped_before = json::mapped_file_reads();
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    expect_same_as_in_memory(path, testing_files::slurp(path));
  }
  // Every non-empty, uncompressed one went through the mapped path.
  EXPECT_GE(json::mapped_file_reads() - mapped_before, files.size() / 2);
}

TEST(JsonMappedRead, FilesBelowTheThresholdAreReadIntoMemoryNotMapped) {
  // Every real SDFG is far below kMapThresholdBytes (the corpus's largest is a few MB).
  EXPECT_GE(json::kMapThresholdBytes, int64_t{64} << 20);
  EXPECT_EQ(json::map_threshold_bytes(), json::kMapThresholdBytes);
  const std::string text = testing_files::generate_chain_sdfg(3000).text;
  ASSERT_LT(static_cast<int64_t>(text.size()), json::kMapThresholdBytes);
  TempFile f(text);
  const uint64_t before = json::mapped_file_reads();
  expect_same_as_in_memory(f.path(), text);
  EXPECT_EQ(json::mapped_file_reads(), before) << "a file below the threshold was mapped";
  // The same file at a threshold at or below its size is mapped.
  json::set_map_threshold_bytes_for_testing(static_cast<int64_t>(text.size()));
  expect_same_as_in_memory(f.path(), text);
  json::set_map_threshold_bytes_for_testing(json::kMapThresholdBytes);
  EXPECT_EQ(json::mapped_file_reads(), before + 1);
}

TEST(JsonMappedRead, AChangeOfSizeOrModificationTimeWhileMappedIsDetected) {
  TempFile f("{\"type\": \"SDFG\"}");
  {
    auto mapped = json::MappedFile::open(f.path(), json::max_input_bytes());
    ASSERT_NE(mapped, nullptr);
    EXPECT_TRUE(mapped->unchanged());
    std::ofstream(f.path(), std::ios::binary | std::ios::app) << " ";  // grows: no SIGBUS
    EXPECT_FALSE(mapped->unchanged());
  }
  {
    auto mapped = json::MappedFile::open(f.path(), json::max_input_bytes());
    ASSERT_NE(mapped, nullptr);
    // Rewritten in place with the same size: only the modification time tells.
    const auto later = std::filesystem::last_write_time(f.path()) + std::chrono::seconds(2);
    {
      std::fstream out(f.path(), std::ios::binary | std::ios::in | std::ios::out);
      out << "[";
    }
    std::filesystem::last_write_time(f.path(), later);
    EXPECT_FALSE(mapped->unchanged());
  }
}

// Larger than three release steps, so every pass releases before its end.
const testing_files::Generated& large() {
  static const testing_files::Generated g = testing_files::generate_chain_sdfg(30000);
  return g;
}

TEST(JsonMappedRead, LargeFileAndItsErrorsFarIntoTheFileReadAsFromMemory) {
  const std::string& text = large().text;
  ASSERT_GT(text.size(), 3 * json::TextRelease::kStep);
  MapEveryFile map_all;
  const uint64_t mapped_before = json::mapped_file_reads();
  {
    SCOPED_TRACE("valid");
    TempFile f(text);
    expect_same_as_in_memory(f.path(), text);
  }
  {
    // A syntax error at the very end: the reader falls back to the whole-DOM reader, which
    // reads the released pages again to find the line and column.
    SCOPED_TRACE("syntax error at the end");
    std::string bad = text;
    bad.back() = ']';
    TempFile f(bad);
    expect_same_as_in_memory(f.path(), bad);
  }
  {
    SCOPED_TRACE("content error in the last state");
    std::string bad = text;
    const size_t at = bad.rfind(R"("type":"Tasklet")");
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, 16, R"("type":"Tasklex")");
    TempFile f(bad);
    expect_same_as_in_memory(f.path(), bad);
  }
  {
    SCOPED_TRACE("truncated");
    const std::string cut = text.substr(0, text.size() - 1000);
    TempFile f(cut);
    expect_same_as_in_memory(f.path(), cut);
  }
  EXPECT_EQ(json::mapped_file_reads() - mapped_before, 4u);
}

TEST(JsonMappedRead, ReleaseDropsPagesFromTheResidentSetAndTheTextStaysReadable) {
  const std::string& text = large().text;
  TempFile f(text);
  auto mapped = json::MappedFile::open(f.path(), json::max_input_bytes());
  ASSERT_NE(mapped, nullptr);
  ASSERT_EQ(mapped->text().size(), text.size());
  const int64_t before = resident_file_bytes();
  ASSERT_GE(before, 0) << "no RssFile in /proc/self/status";
  // Reading every byte makes the pages resident; releasing them takes them out again.
  EXPECT_TRUE(mapped->text() == text);
  const int64_t read = resident_file_bytes();
  if (read - before < static_cast<int64_t>(text.size()) * 9 / 10)
    GTEST_SKIP() << "reading every page of the mapped file " << f.path() << " grew RssFile + RssShmem by only "
                 << (read - before) << " of " << text.size() << " bytes: this kernel or file system does not "
                 << "account mapped pages that way, so the resident set cannot show the release";
  mapped->release(0, text.size());
  const int64_t released = resident_file_bytes();
  EXPECT_LE(released - before, static_cast<int64_t>(text.size()) / 10);
  // Released pages fault back in from the file.
  EXPECT_TRUE(mapped->text() == text);
}

TEST(JsonMappedRead, ReadingKeepsAtMostThreeReleaseStepsOfTheTextResident) {
  const std::string& text = large().text;
  TempFile f(text);
  const int64_t growth = growth_when_every_page_is_read(f.path());
  if (growth < static_cast<int64_t>(text.size()) * 9 / 10)
    GTEST_SKIP() << "reading every page of the mapped file " << f.path() << " grew RssFile + RssShmem by only "
                 << growth << " of " << text.size() << " bytes: the resident set cannot show what reading keeps";
  auto mapped = json::MappedFile::open(f.path(), json::max_input_bytes());
  ASSERT_NE(mapped, nullptr);
  const int64_t before = resident_file_bytes();
  int64_t peak = before;
  int releases = 0;
  const json::TextReleaseFn release = [&](size_t begin, size_t end) {
    ASSERT_LE(begin, end);
    ASSERT_LE(end, text.size());
    peak = std::max(peak, resident_file_bytes());  // just before the pages go
    ++releases;
    mapped->release(begin, end);
  };
  auto sdfg = json::read_sdfg(mapped->text(), release);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ASSERT_NE(*sdfg, nullptr);
  EXPECT_EQ(json::write_sdfg(**sdfg), json::write_sdfg(**json::read_sdfg(text)));
  // Three passes (depth, skeleton, state lists), each releasing in steps.
  EXPECT_GE(releases, 3 * static_cast<int>(text.size() / json::TextRelease::kStep));
  // Without releasing, the whole text would be resident by the end of the first pass. The
  // pass in progress holds the step it is in, the step not yet released behind it (a release
  // comes only once a full step has passed) and the few pages the kernel maps around each
  // fault: measured 1.7 to 2.2 steps on this 24 MB file; asserted at most 3.
  std::printf("file %zu bytes, peak growth while reading %lld bytes (%.1f release steps)\n", text.size(),
              static_cast<long long>(peak - before),
              static_cast<double>(peak - before) / static_cast<double>(json::TextRelease::kStep));
  EXPECT_LE(peak - before, static_cast<int64_t>(3 * json::TextRelease::kStep));
}

TEST(JsonMappedRead, WhatIsNotANonEmptyRegularFileWithinTheLimitIsNotMapped) {
  TempFile empty("");
  EXPECT_EQ(json::MappedFile::open(empty.path(), json::max_input_bytes()), nullptr);
  TempFile small("{}");
  EXPECT_EQ(json::MappedFile::open(small.path(), 1), nullptr);
  EXPECT_NE(json::MappedFile::open(small.path(), 2), nullptr);
  EXPECT_EQ(json::MappedFile::open(std::filesystem::temp_directory_path().string(), json::max_input_bytes()),
            nullptr);
  EXPECT_EQ(json::MappedFile::open("/dev/zero", json::max_input_bytes()), nullptr);
  EXPECT_EQ(json::MappedFile::open("/nonexistent/libdace.sdfg", json::max_input_bytes()), nullptr);
}

}  // namespace
