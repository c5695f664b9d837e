// The .npy reader/writer (src/ir/npy.h) the corpus tests and the CLI use.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "ir/npy.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace dace::npy {
namespace {

TEST(Npy, RoundTripKeepsTypeShapeAndData) {
  Array a;
  a.dtype = tasklet::ScalarType::Int32;
  a.shape = {2, 3};
  a.data.resize(24);
  for (int i = 0; i < 6; ++i) std::memcpy(a.data.data() + 4 * i, &i, 4);
  std::string bytes = serialize(a);
  // Version 1.0 header, data aligned to 64 bytes, as NumPy writes it.
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_EQ((bytes.size() - 24) % 64, 0u);
  Result<Array> b = parse(bytes);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->dtype, tasklet::ScalarType::Int32);
  EXPECT_EQ(b->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(b->data, a.data);
  EXPECT_EQ(b->at(5), 5.0);
  Array s;  // 0-d
  s.dtype = tasklet::ScalarType::Complex128;
  s.data.resize(16);
  Result<Array> t = parse(serialize(s));
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->shape.empty());
  EXPECT_EQ(t->size(), 1);
}

TEST(Npy, RejectsGarbageAndUnknownTypes) {
  EXPECT_FALSE(parse("not a npy file").ok());
  EXPECT_FALSE(parse(std::string("\x93NUMPY\x01\x00\xff\xff", 10)).ok());
  EXPECT_FALSE(type_of_descr(">f8").ok());  // big-endian
  EXPECT_FALSE(type_of_descr("<U4").ok());
}

TEST(Npy, ReadsCorpusFiles) {
  std::string path = std::string(LIBDACE_CORPUS_DIR) + "/crc16/in/data.npy";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "corpus not found";
  Result<Array> a = read(path);
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->dtype, tasklet::ScalarType::UInt8);
  EXPECT_EQ(a->shape, (std::vector<int64_t>{64}));
  Result<Array> c = read(std::string(LIBDACE_CORPUS_DIR) + "/mandelbrot1/out/__return_0.npy");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->dtype, tasklet::ScalarType::Complex128);
  EXPECT_EQ(c->shape, (std::vector<int64_t>{16, 16}));
  EXPECT_FALSE(read("/nonexistent/file.npy").ok());
}

}  // namespace
}  // namespace dace::npy
