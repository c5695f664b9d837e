// Reads the runtime calls of parallel maps out of lowered IR text (codegen tests).
#pragma once
#include <cstdlib>
#include <string>
#include <vector>

namespace dace::codegen::testing {

// The schedule argument (0 static, 1 dynamic, 2 guided) of every call of the CPU runtime's
// `dace_cpu_parallel_for` in IR text `ir`, in the order of the text; -1 for a call whose
// arguments cannot be read.
inline std::vector<int> parallel_for_schedules(const std::string& ir) {
  // call void @dace_cpu_parallel_for(ptr BODY, ptr CLOSURE, i64 B, i64 E, i64 CHUNK, i32 SCHEDULE, i32 THREADS)
  const std::string head = "call void @dace_cpu_parallel_for(";
  std::vector<int> out;
  for (size_t at = ir.find(head); at != std::string::npos; at = ir.find(head, at + head.size())) {
    size_t close = ir.find(')', at);
    std::string args = ir.substr(at + head.size(), close - at - head.size());
    size_t last = args.rfind(", i32 ");
    size_t before = last == std::string::npos || last == 0 ? std::string::npos : args.rfind(", i32 ", last - 1);
    out.push_back(before == std::string::npos ? -1 : std::atoi(args.c_str() + before + 6));
  }
  return out;
}

}  // namespace dace::codegen::testing
