// A few helpers to build SDFGs with the internal C++ API in codegen tests.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/sdfg.h"

namespace dace::codegen::testing {

sym::Expr E(const std::string& text);  // parses a symbolic expression (aborts the test on error)

void add_array(ir::SDFG& g, const std::string& name, ir::ScalarType t, const std::vector<std::string>& shape,
               bool transient = false, ir::Lifetime lifetime = ir::Lifetime::Scope);
void add_scalar(ir::SDFG& g, const std::string& name, ir::ScalarType t, bool transient = false);
void add_view(ir::SDFG& g, const std::string& name, ir::ScalarType t, const std::vector<std::string>& shape,
              const std::vector<std::string>& strides);

ir::State& add_state(ir::ControlFlowRegion& r, ir::SDFG& g, const std::string& label, int* slot = nullptr);
void add_interstate(ir::ControlFlowRegion& r, int src, int dst, const std::string& condition = "1",
                    std::vector<std::pair<std::string, std::string>> assignments = {});

int access(ir::State& s, const std::string& data);
int tasklet(ir::State& s, const std::string& code, const std::vector<std::string>& ins,
            const std::vector<std::string>& outs);
// A map scope; returns {entry, exit}. `ranges` in memlet syntax, e.g. "0:N, 0:M:2".
std::pair<int, int> map(ir::State& s, const std::vector<std::string>& params, const std::string& ranges,
                        ir::ScheduleType schedule = ir::ScheduleType::Default);
// An edge with memlet text ("A[i, j]", "A[0:4] -> [2:6]", "" for empty).
int edge(ir::State& s, int src, const std::string& src_conn, int dst, const std::string& dst_conn,
         const std::string& memlet, const std::string& wcr = "");
// in -> entry -> tasklet edges (adds IN_/OUT_ connectors); `outer` is the memlet outside.
void edge_in(ir::State& s, int src, int entry, int dst, const std::string& dst_conn, const std::string& outer,
             const std::string& inner);
void edge_out(ir::State& s, int src, const std::string& src_conn, int exit, int dst, const std::string& inner,
              const std::string& outer, const std::string& wcr = "");

}  // namespace dace::codegen::testing
