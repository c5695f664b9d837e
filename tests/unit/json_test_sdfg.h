// A small hand-written SDFG in DaCe 1.0.2's JSON dialect, shared by the json_* tests:
// A[N] --(A[i])--> map i in 0:N { tasklet b = a * 2 } --(B[i])--> B[N], then an
// interstate edge with ordered assignments to a second, empty state.
#pragma once

namespace dace::test {

inline constexpr const char* kSmallSdfg = R"json({
  "type": "SDFG",
  "attributes": {
    "name": "small",
    "arg_names": ["A", "B"],
    "_arrays": {
      "A": {"type": "Array", "attributes": {"strides": ["1"], "total_size": "N", "offset": ["0"],
            "optional": false, "dtype": "float64", "shape": ["N"], "debuginfo": null}},
      "B": {"type": "Array", "attributes": {"strides": ["1"], "total_size": "N", "offset": ["0"],
            "optional": false, "dtype": "float64", "shape": ["N"], "debuginfo": null}}
    },
    "symbols": {"N": "int64", "z": "int64", "a": "int64", "m": "int64"},
    "global_code": {"frame": {"string_data": "", "language": "CPP"}},
    "init_code": {"frame": {"string_data": "", "language": "CPP"}},
    "exit_code": {"frame": {"string_data": "", "language": "CPP"}},
    "debuginfo": null,
    "guid": "sdfg-guid"
  },
  "nodes": [
    {
      "type": "SDFGState", "label": "compute", "id": 0, "collapsed": false,
      "scope_dict": {"-1": [0, 1, 3, 4], "0": [2, 3]},
      "nodes": [
        {"type": "MapEntry", "label": "m[i=0:N]",
         "attributes": {"label": "m", "params": ["i"],
                        "range": {"type": "Range", "ranges": [{"start": "0", "end": "N - 1", "step": "1", "tile": "1"}]},
                        "debuginfo": null, "in_connectors": {"IN_A": null}, "out_connectors": {"OUT_A": null},
                        "guid": "g0"},
         "id": 0, "scope_entry": null, "scope_exit": "1"},
        {"type": "MapExit", "label": "m[i=0:N]",
         "attributes": {"in_connectors": {"IN_B": null}, "out_connectors": {"OUT_B": null}, "guid": "g1"},
         "id": 1, "scope_entry": "0", "scope_exit": "1"},
        {"type": "Tasklet", "label": "t",
         "attributes": {"code": {"string_data": "b = a * 2", "language": "Python"}, "debuginfo": null,
                        "label": "t", "in_connectors": {"a": null}, "out_connectors": {"b": "float64"},
                        "guid": "g2"},
         "id": 2, "scope_entry": "0", "scope_exit": "1"},
        {"type": "AccessNode", "label": "A",
         "attributes": {"debuginfo": null, "data": "A", "guid": "g3"},
         "id": 3, "scope_entry": null, "scope_exit": null},
        {"type": "AccessNode", "label": "B",
         "attributes": {"debuginfo": null, "data": "B", "guid": "g4"},
         "id": 4, "scope_entry": null, "scope_exit": null}
      ],
      "edges": [
        {"type": "MultiConnectorEdge",
         "attributes": {"data": {"type": "Memlet", "attributes": {"volume": "N",
           "subset": {"type": "Range", "ranges": [{"start": "0", "end": "N - 1", "step": "1", "tile": "1"}]},
           "data": "A", "debuginfo": null, "guid": "m0"}}},
         "src": "3", "dst": "0", "dst_connector": "IN_A", "src_connector": null},
        {"type": "MultiConnectorEdge",
         "attributes": {"data": {"type": "Memlet", "attributes": {"volume": "1",
           "subset": {"type": "Range", "ranges": [{"start": "i", "end": "i", "step": "1", "tile": "1"}]},
           "data": "A", "debuginfo": null, "guid": "m1"}}},
         "src": "0", "dst": "2", "dst_connector": "a", "src_connector": "OUT_A"},
        {"type": "MultiConnectorEdge",
         "attributes": {"data": {"type": "Memlet", "attributes": {"volume": "1",
           "subset": {"type": "Range", "ranges": [{"start": "i", "end": "i", "step": "1", "tile": "1"}]},
           "data": "B", "debuginfo": null, "guid": "m2"}}},
         "src": "2", "dst": "1", "dst_connector": "IN_B", "src_connector": "b"},
        {"type": "MultiConnectorEdge",
         "attributes": {"data": {"type": "Memlet", "attributes": {"volume": "N",
           "subset": {"type": "Range", "ranges": [{"start": "0", "end": "N - 1", "step": "1", "tile": "1"}]},
           "data": "B", "debuginfo": null, "guid": "m3"}}},
         "src": "1", "dst": "4", "dst_connector": null, "src_connector": "OUT_B"}
      ],
      "attributes": {"guid": "s0"}
    },
    {
      "type": "SDFGState", "label": "after", "id": 1, "collapsed": false,
      "scope_dict": {"-1": []}, "nodes": [], "edges": [], "attributes": {"guid": "s1"}
    }
  ],
  "edges": [
    {"type": "Edge",
     "attributes": {"data": {"type": "InterstateEdge",
       "attributes": {"assignments": {"z": "N", "a": "z + 1", "m": "a * 2"},
                      "condition": {"string_data": "N > 0", "language": "Python"}, "guid": "e0"},
       "label": "N > 0; z=N,a=z + 1,m=a * 2"}},
     "src": "0", "dst": "1"}
  ],
  "collapsed": false, "label": "", "id": null, "cfg_list_id": 0, "start_block": 0,
  "dace_version": "1.0.2"
})json";

}  // namespace dace::test
