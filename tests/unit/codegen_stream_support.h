// Builders for stream containers and consume scopes, shared by the stream and consume tests.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "ir/json/sdfg_json.h"

namespace dace::codegen::testing {

inline void add_stream(ir::SDFG& g, const std::string& name, ir::ScalarType t, bool transient = true) {
  ir::DataDescriptor d;
  d.kind = ir::DataKind::Stream;
  d.json_type = "Stream";
  d.dtype = ir::DType::of(t);
  d.shape = {sym::integer(1)};
  d.offset = {sym::integer(0)};
  d.buffer_size = sym::integer(1);
  d.transient = transient;
  g.arrays[name] = d;
}

// A consume scope with processing-element index `pe`; returns {entry, exit}.
inline std::pair<int, int> consume(ir::State& s, const std::string& pe, const std::string& condition = "") {
  auto en = std::make_unique<ir::ConsumeEntry>();
  en->label = "c";
  en->consume.pe_index = pe;
  en->consume.num_pes = sym::integer(4);
  en->consume.chunksize = sym::integer(1);
  en->consume.condition.code = condition;
  en->in_connectors["IN_stream"] = ir::DType{};
  en->out_connectors["OUT_stream"] = ir::DType{};
  int entry = s.add_node(std::move(en));
  auto ex = std::make_unique<ir::ConsumeExit>();
  ex->label = "c";
  ex->entry = entry;
  return {entry, s.add_node(std::move(ex))};
}

// An SDFG written by DaCe, from tests/data/streams.
inline std::unique_ptr<ir::SDFG> stream_test_file(const std::string& file) {
  Result<std::unique_ptr<ir::SDFG>> g =
      ir::json::read_sdfg_file(std::string(LIBDACE_SOURCE_DIR) + "/tests/data/streams/" + file);
  EXPECT_TRUE(g.ok()) << file << ": " << (g.ok() ? "" : g.error().message);
  return g.ok() ? std::move(*g) : nullptr;
}

// The same file compiled with the codegen tests' options.
inline Result<CompiledProgram> compile_stream_test_file(const std::string& file) {
  std::unique_ptr<ir::SDFG> g = stream_test_file(file);
  if (!g) return make_error(Code::IoError, file + ": cannot be read");
  return compile(*g);
}

// The same file compiled and run once on `values`; the compile error when it does not compile.
inline Status run_stream_test_file(const std::string& file, const std::map<std::string, ArgValue>& values) {
  Result<CompiledProgram> p = compile_stream_test_file(file);
  if (!p.ok()) return p.take_error();
  return run(*p, values);
}

}  // namespace dace::codegen::testing
