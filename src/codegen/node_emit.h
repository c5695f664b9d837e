// Per-node lowering entry points used by the state emitter (one file each).
#pragma once
#include "codegen/state_emit.h"

namespace dace::codegen {

Status emit_access_node(StateEmitter& se, int node);    // copy_emit.cpp: views and copies
// Views are bound before the nodes of their scope are emitted (a producer may write through
// a view that comes later in dependency order).
bool is_view_node(StateEmitter& se, int node);
Status bind_view(StateEmitter& se, int node);
Status emit_tasklet(StateEmitter& se, int node);        // tasklet_emit.cpp
Status emit_map(StateEmitter& se, int entry);           // map_emit.cpp
Status emit_consume(StateEmitter& se, int entry);       // consume_emit.cpp
Status emit_nested_sdfg(StateEmitter& se, int node);    // nested_sdfg.cpp
Status emit_library_node(StateEmitter& se, int node);   // library_nodes.cpp

}  // namespace dace::codegen
