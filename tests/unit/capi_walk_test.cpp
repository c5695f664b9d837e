// C API: walking every element of DaCe-written SDFGs (the corpus) through the query calls,
// the way a host binding does: every block, interstate edge, node, property, edge and
// nested SDFG must be readable without a failure.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

struct Walk {
  int blocks = 0, nodes = 0, edges = 0, interstate = 0, nested = 0;
  std::vector<std::string> failures;

  void fail(const std::string& what) { failures.push_back(what + ": " + dace_last_error_message()); }

  std::vector<dace_id_t> list(dace_status_t (*fn)(dace_id_t*, size_t, size_t*, const dace_sdfg_t*, dace_id_t),
                              const dace_sdfg_t* s, dace_id_t id, const char* what) {
    size_t n = 0;
    if (fn(nullptr, 0, &n, s, id) != DACE_OK) {
      fail(what);
      return {};
    }
    std::vector<dace_id_t> ids(n);
    if (n && fn(ids.data(), n, &n, s, id) != DACE_OK) fail(what);
    return ids;
  }

  void region(dace_sdfg_t* s, dace_id_t r) {
    for (dace_id_t e : list(dace_region_list_edges, s, r, "list interstate edges")) {
      ++interstate;
      const char* text = nullptr;
      dace_id_t a = -1, b = -1;
      if (dace_interstate_edge_get_endpoints(&a, &b, s, r, e) != DACE_OK) fail("endpoints");
      if (dace_interstate_edge_get_condition(&text, s, r, e) != DACE_OK) fail("condition");
      if (dace_interstate_edge_get_assignments(&text, s, r, e) != DACE_OK) fail("assignments");
    }
    for (dace_id_t b : list(dace_region_list_blocks, s, r, "list blocks")) block(s, b);
  }

  void block(dace_sdfg_t* s, dace_id_t b) {
    ++blocks;
    dace_block_kind_t kind;
    const char* label = nullptr;
    if (dace_block_get_kind(&kind, s, b) != DACE_OK || dace_block_get_label(&label, s, b) != DACE_OK) {
      fail("block");
      return;
    }
    dace_id_t parent = -2;
    if (dace_block_get_parent(&parent, s, b) != DACE_OK) fail("parent");
    switch (kind) {
      case DACE_BLOCK_STATE:
        state(s, b);
        break;
      case DACE_BLOCK_LOOP: {
        const char* v = nullptr;
        for (const char* p : {"loop_variable", "init", "condition", "update", "inverted"})
          if (dace_block_get_property(&v, s, b, p) != DACE_OK) fail(std::string("loop ") + p);
        region(s, b);
        break;
      }
      case DACE_BLOCK_REGION:
        region(s, b);
        break;
      case DACE_BLOCK_CONDITIONAL:
        for (dace_id_t br : list(dace_conditional_list_branches, s, b, "branches")) {
          const char* v = nullptr;
          if (dace_block_get_property(&v, s, br, "condition") != DACE_OK) fail("branch condition");
          ++blocks;
          region(s, br);
        }
        break;
      default:
        break;
    }
  }

  void state(dace_sdfg_t* s, dace_id_t st) {
    static const char* common[] = {"label", "kind", "in_connectors", "out_connectors"};
    for (dace_id_t n : list(dace_state_list_nodes, s, st, "list nodes")) {
      ++nodes;
      dace_node_kind_t kind;
      if (dace_node_get_kind(&kind, s, st, n) != DACE_OK) {
        fail("node kind");
        continue;
      }
      const char* v = nullptr;
      for (const char* p : common)
        if (dace_node_get_property(&v, s, st, n, p) != DACE_OK) fail(std::string("node ") + p);
      std::vector<const char*> props;
      switch (kind) {
        case DACE_NODE_ACCESS: props = {"data"}; break;
        case DACE_NODE_TASKLET: props = {"code", "language"}; break;
        case DACE_NODE_MAP_ENTRY:
        case DACE_NODE_MAP_EXIT: props = {"params", "range", "schedule", "omp_schedule", "gpu_block_size"}; break;
        case DACE_NODE_CONSUME_ENTRY:
        case DACE_NODE_CONSUME_EXIT: props = {"pe_index", "num_pes", "schedule"}; break;
        case DACE_NODE_NESTED_SDFG: props = {"symbol_mapping", "schedule"}; break;
        case DACE_NODE_LIBRARY: props = {"name", "classpath", "implementation", "properties"}; break;
        default: break;
      }
      for (const char* p : props)
        if (dace_node_get_property(&v, s, st, n, p) != DACE_OK) fail(std::string("node ") + p);
      dace_id_t parent = -2;
      if (dace_node_get_scope_parent(&parent, s, st, n) != DACE_OK) fail("scope parent");
      if (kind == DACE_NODE_NESTED_SDFG) {
        dace_sdfg_t* inner = nullptr;
        if (dace_node_get_nested_sdfg(&inner, s, st, n) != DACE_OK) {
          fail("nested sdfg");
        } else {
          ++nested;
          sdfg(inner);
        }
      }
    }
    for (dace_id_t e : list(dace_state_list_edges, s, st, "list edges")) {
      ++edges;
      const char* v = nullptr;
      if (dace_edge_get_memlet(&v, s, st, e) != DACE_OK) fail("memlet");
      for (const char* p : {"data", "subset", "other_subset", "volume", "dynamic", "wcr"})
        if (dace_edge_get_memlet_property(&v, s, st, e, p) != DACE_OK) fail(std::string("memlet ") + p);
    }
  }

  void sdfg(dace_sdfg_t* s) {
    size_t n = 0;
    if (dace_sdfg_data_count(&n, s) != DACE_OK) fail("data count");
    for (size_t i = 0; i < n; ++i) {
      const char* name = nullptr;
      if (dace_sdfg_get_data_name(&name, s, i) != DACE_OK) {
        fail("data name");
        continue;
      }
      std::string nm = name;
      const char* v = nullptr;
      for (const char* p : {"kind", "dtype", "shape", "transient", "storage", "lifetime"})
        if (dace_data_get_property(&v, s, nm.c_str(), p) != DACE_OK) fail(nm + " " + p);
    }
    region(s, DACE_ROOT_REGION);
  }
};

}  // namespace

TEST(CapiWalk, EveryCorpusSdfgIsReadableThroughQueries) {
  const char* env = std::getenv("LIBDACE_CORPUS_DIR");
#ifdef LIBDACE_CORPUS_DIR
  std::filesystem::path dir = env ? env : LIBDACE_CORPUS_DIR;
#else
  std::filesystem::path dir = env ? env : "../shared/sdfg-corpus";
#endif
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "corpus not found at " << dir;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".sdfg") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  int loaded = 0;
  for (const auto& f : files) {
    dace_sdfg_t* s = nullptr;
    if (dace_sdfg_load_file(&s, f.c_str()) != DACE_OK) {
      ADD_FAILURE() << f << ": " << dace_last_error_message();
      continue;
    }
    ++loaded;
    Walk w;
    w.sdfg(s);
    EXPECT_GT(w.blocks, 0) << f;
    for (const auto& msg : w.failures) ADD_FAILURE() << f << ": " << msg;
    dace_sdfg_release(s);
  }
  EXPECT_EQ(loaded, static_cast<int>(files.size()));
}
