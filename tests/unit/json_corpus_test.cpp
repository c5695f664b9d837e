// Every SDFG of the shared corpus (DaCe 1.0.2, 0.14 and 2.0a5 dialects) loads, round-trips
// structurally and byte-exactly, and every damaged copy fails with a positioned ParseError.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "sdfg_files_support.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "/work/shared/sdfg-corpus"
#endif

namespace {

using namespace dace;
using namespace dace::ir;

std::vector<std::string> corpus_files() { return testing_files::sdfg_files_below({LIBDACE_CORPUS_DIR}); }

using testing_files::slurp;

// 1-based line of a byte offset, counted here independently of the reader.
int line_of(const std::string& text, size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// Offsets of structural characters `c` outside JSON strings.
std::vector<size_t> structural(const std::string& text, char c) {
  std::vector<size_t> out;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == c) {
      out.push_back(i);
    }
  }
  return out;
}

TEST(JsonCorpus, FindsTheCorpus) {
  // 10 kernels x 3 variants + 6 DaCe 0.14 + 8 DaCe 2.0a5 files.
  EXPECT_GE(corpus_files().size(), 44u);
}

TEST(JsonCorpus, EveryFileLoadsAndRoundTrips) {
  for (const auto& path : corpus_files()) {
    SCOPED_TRACE(path);
    auto first = json::read_sdfg_file(path);
    ASSERT_TRUE(first.ok()) << first.error().message;
    const SDFG& a = **first;
    EXPECT_FALSE(a.name.empty());
    EXPECT_FALSE(a.block_slots().empty());

    std::string saved = json::write_sdfg(a);
    EXPECT_EQ(saved, json::write_sdfg(a)) << "two saves differ";
    auto second = json::read_sdfg(saved);
    ASSERT_TRUE(second.ok()) << second.error().message;
    std::string diff;
    EXPECT_TRUE(structurally_equal(a, **second, &diff)) << diff;
    EXPECT_EQ(saved, json::write_sdfg(**second)) << "save -> load -> save changed the bytes";
    EXPECT_EQ(content_hash(a), content_hash(**second));

    // Compact output is the same document.
    auto compact = json::read_sdfg(json::write_sdfg(a, {.pretty = false, .include_guids = true}));
    ASSERT_TRUE(compact.ok()) << compact.error().message;
    EXPECT_TRUE(structurally_equal(a, **compact));
  }
}

TEST(JsonCorpus, EveryBlockHasAUniqueId) {
  for (const auto& path : corpus_files()) {
    SCOPED_TRACE(path);
    auto sdfg = json::read_sdfg_file(path);
    ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
    std::vector<int> ids;
    (*sdfg)->for_each_block([&](const ControlFlowBlock& b) { ids.push_back(b.id); });
    std::sort(ids.begin(), ids.end());
    for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(ids[i], static_cast<int>(i));
    EXPECT_EQ((*sdfg)->next_block_id(), static_cast<int>(ids.size()));
  }
}

TEST(JsonCorpus, GzipRoundTrip) {
  auto files = corpus_files();
  ASSERT_FALSE(files.empty());
  auto dir = std::filesystem::temp_directory_path() / ("libdace_json_gz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (size_t i = 0; i < files.size(); i += 5) {
    SCOPED_TRACE(files[i]);
    auto sdfg = json::read_sdfg_file(files[i]);
    ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
    std::string out = (dir / "x.sdfgz").string();
    ASSERT_TRUE(json::write_sdfg_file(**sdfg, out).ok());
    std::string bytes = slurp(out);
    ASSERT_GE(bytes.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
    EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
    auto back = json::read_sdfg_file(out);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_TRUE(structurally_equal(**sdfg, **back));
    // Plain extension: uncompressed text.
    std::string plain = (dir / "x.sdfg").string();
    ASSERT_TRUE(json::write_sdfg_file(**sdfg, plain).ok());
    EXPECT_EQ(slurp(plain), json::write_sdfg(**sdfg));
  }
  std::filesystem::remove_all(dir);
}

void expect_positioned_parse_error(const std::string& text, const std::string& what) {
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok()) << what << " was accepted";
  EXPECT_EQ(r.error().code, Code::ParseError) << what;
  EXPECT_GT(r.error().line, 0) << what;
  EXPECT_GT(r.error().column, 0) << what;
  EXPECT_NE(r.error().message.find("line"), std::string::npos) << r.error().message;
}

TEST(JsonCorpus, DamagedCopiesFailWithPosition) {
  for (const auto& path : corpus_files()) {
    SCOPED_TRACE(path);
    const std::string text = slurp(path);
    auto colons = structural(text, ':');
    auto opens = structural(text, '{');
    auto closes = structural(text, '}');
    ASSERT_FALSE(colons.empty());
    ASSERT_GT(opens.size(), 2u);
    ASSERT_FALSE(closes.empty());

    // A flipped character: the middle key/value separator becomes ';'.
    {
      size_t at = colons[colons.size() / 2];
      std::string bad = text;
      bad[at] = ';';
      auto r = json::read_sdfg(bad);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().code, Code::ParseError);
      EXPECT_EQ(r.error().line, line_of(text, at)) << r.error().message;
      EXPECT_GT(r.error().column, 0);
    }
    // A stray character right after an opening brace.
    {
      size_t at = opens[opens.size() / 3] + 1;
      std::string bad = text;
      bad.insert(at, "#");
      auto r = json::read_sdfg(bad);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().code, Code::ParseError);
      EXPECT_EQ(r.error().line, line_of(bad, at)) << r.error().message;
    }
    // A removed closing brace (the last one) and a removed opening brace (the second one).
    {
      std::string bad = text;
      bad.erase(closes.back(), 1);
      expect_positioned_parse_error(bad, "missing final brace");
      bad = text;
      bad.erase(opens[1], 1);
      expect_positioned_parse_error(bad, "missing opening brace");
    }
    // Truncated copies at several cut points before the final brace.
    for (int k = 1; k <= 6; ++k) {
      size_t cut = closes.back() * static_cast<size_t>(k) / 7;
      expect_positioned_parse_error(text.substr(0, cut), "truncated at " + std::to_string(cut));
    }
    expect_positioned_parse_error(text.substr(0, 1), "truncated to one byte");
    expect_positioned_parse_error("", "empty text");
  }
}

// Single-character changes that keep the JSON well-formed (in names, numbers, expressions)
// give either an SDFG or an error, and an accepted SDFG can be written and read back.
TEST(JsonCorpus, MutatedContentNeverCrashes) {
  auto files = corpus_files();
  std::vector<std::string> picked;
  for (const char* want : {"dace-0.14/scalarsym", "dace-0.14/spmv", "dace-2.0a5/crc16.simp", "go_fast/go_fast.simp",
                           "gemm/gemm.simp", "atax/atax.simp"})
    for (const auto& f : files)
      if (f.find(want) != std::string::npos) picked.push_back(f);
  ASSERT_EQ(picked.size(), 6u);
  const char replacements[] = {'0', '9', 'x', '-', ' ', '(', '$', '_', '.'};
  uint64_t seed = 12345;
  auto next = [&seed]() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  int accepted = 0, rejected = 0;
  for (const auto& path : picked) {
    const std::string text = slurp(path);
    for (int k = 0; k < 40; ++k) {
      std::string bad = text;
      size_t at = next() % bad.size();
      // Only characters inside strings or numbers, so the JSON stays well-formed.
      while (at < bad.size() && !std::isalnum(static_cast<unsigned char>(bad[at]))) ++at;
      if (at >= bad.size()) continue;
      bad[at] = replacements[next() % sizeof replacements];
      SCOPED_TRACE(path + " @" + std::to_string(at));
      auto r = json::read_sdfg(bad);
      if (!r.ok()) {
        ++rejected;
        EXPECT_FALSE(r.error().message.empty());
        continue;
      }
      ++accepted;
      std::string out = json::write_sdfg(**r);
      auto again = json::read_sdfg(out);
      ASSERT_TRUE(again.ok()) << again.error().message;
      EXPECT_EQ(out, json::write_sdfg(**again));
    }
  }
  EXPECT_GT(accepted + rejected, 200);
}

}  // namespace

