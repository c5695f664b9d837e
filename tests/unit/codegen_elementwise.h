// An SDFG computing `code` element by element over 0:N (one map, one tasklet): the
// workhorse of the tasklet-semantics tests.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"

namespace dace::codegen::testing {

struct Port {
  std::string conn;   // tasklet connector
  std::string data;   // array name (shape [N])
  ir::ScalarType type;
};

std::unique_ptr<ir::SDFG> elementwise(const std::string& name, const std::vector<Port>& ins,
                                      const std::vector<Port>& outs, const std::string& code,
                                      ir::ScheduleType schedule = ir::ScheduleType::Sequential);

}  // namespace dace::codegen::testing
