// A generated SDFG of any size for the large-file tests of the `.sdfg` reader.
#pragma once
#include <algorithm>
#include <string>

namespace dace::testing_files {

// The structure bench/large_sdfg.py writes: states of 333 units (access node A -> tasklet ->
// access node A, A[k] in, A[k + 1] out), chained by interstate edges. Written here
// independently, with its own counts.
struct Generated {
  std::string text;
  int states = 0, nodes = 0, edges = 0;
};

inline Generated generate_chain_sdfg(int units_wanted) {
  Generated g;
  std::string& s = g.text;
  s = R"({"type":"SDFG","attributes":{"name":"large","_arrays":{"A":{"type":"Array","attributes":{"strides":["1"],)"
      R"("total_size":"1000","offset":["0"],"dtype":"float64","shape":["1000"]}}}},"nodes":[)";
  int units = units_wanted;
  while (units > 0) {
    const int here = std::min(333, units);
    units -= here;
    if (g.states > 0) s += ',';
    s += R"({"type":"SDFGState","label":"s)" + std::to_string(g.states) + R"(","id":)" + std::to_string(g.states) +
         R"(,"nodes":[)";
    for (int u = 0; u < here; ++u) {
      const std::string t = std::to_string(3 * u + 1);
      if (u > 0) s += ',';
      s += R"({"type":"AccessNode","label":"A","attributes":{"data":"A"},"id":)" + std::to_string(3 * u) + "},";
      s += R"({"type":"Tasklet","label":"t)" + t + R"(","attributes":{"code":{"string_data":"y = x + 1",)"
           R"("language":"Python"},"label":"t)" + t + R"(","in_connectors":{"x":null},"out_connectors":{"y":null}},)"
           R"("id":)" + t + "},";
      s += R"({"type":"AccessNode","label":"A","attributes":{"data":"A"},"id":)" + std::to_string(3 * u + 2) + "}";
    }
    s += R"(],"edges":[)";
    for (int u = 0; u < here; ++u) {
      const int k = u % 999;
      auto memlet = [&](int index) {
        const std::string i = std::to_string(index);
        return R"({"type":"Memlet","attributes":{"volume":"1","data":"A","subset":{"type":"Range","ranges":[)"
               R"({"start":")" + i + R"(","end":")" + i + R"(","step":"1","tile":"1"}]}}})";
      };
      if (u > 0) s += ',';
      s += R"({"type":"MultiConnectorEdge","attributes":{"data":)" + memlet(k) + R"(},"src":")" +
           std::to_string(3 * u) + R"(","dst":")" + std::to_string(3 * u + 1) + R"(","dst_connector":"x"},)";
      s += R"({"type":"MultiConnectorEdge","attributes":{"data":)" + memlet(k + 1) + R"(},"src":")" +
           std::to_string(3 * u + 1) + R"(","dst":")" + std::to_string(3 * u + 2) + R"(","src_connector":"y"})";
    }
    s += R"(],"attributes":{}})";
    ++g.states;
    g.nodes += 3 * here;
    g.edges += 2 * here;
  }
  s += R"(],"edges":[)";
  for (int i = 0; i + 1 < g.states; ++i) {
    if (i > 0) s += ',';
    s += R"({"type":"Edge","attributes":{"data":{"type":"InterstateEdge","attributes":{}}},"src":")" +
         std::to_string(i) + R"(","dst":")" + std::to_string(i + 1) + R"("})";
  }
  s += R"(],"start_block":0,"dace_version":"1.0.2"})";
  return g;
}

}  // namespace dace::testing_files
