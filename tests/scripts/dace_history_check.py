"""DaCe reads what `dace optimize` writes: for each (input, output, history) triple, DaCe loads
and validates the output, deserializes its transformation_hist into its own transformation
classes, and replays the recorded history on the input: every entry must resolve to the same
elements in DaCe's numbering (cfg_list index, node ids) and pass DaCe's own can_be_applied,
and the replay must end with as many states as our output and the same map scopes (ids,
parameters, ranges, schedules, nesting). The stored original (orig_sdfg, the SDFG before the
first step) must load in DaCe as an SDFG, validate, and have the input's containers, symbols,
states and nodes (hash_sdfg would also compare properties we do not model, such as a state's
`executions`). Exit 1 on any difference.

One liberty: DaCe 1.0.2's LoopLifting adds the loop's body blocks to the new LoopRegion in the
iteration order of a Python set of edges (address order), so block ids inside a freshly lifted
loop differ from one DaCe run to the next. After each LoopLifting entry the check puts the
region's blocks in the order libdace gives them (the former guard, the body blocks in their
former order, the new tail state) before resolving the next entry.

Likewise, DaCe 1.0.2's InlineMultistateSDFG moves the nodes that depend on the call into the
state after it in the iteration order of a Python set (its state_fission_after), and appends
the copies of boundary access nodes in set order too. After each such entry the check puts
the nodes of the states that received the calling state's nodes in the order libdace gives
them: the former nodes in their former order, then the copies, ordered as their originals.

Another: a ScalarToSymbolPromotion entry is replayed on every SDFG of the hierarchy, root
first, as DaCe's SimplifyPass applies that pass (libdace's pass does the same); DaCe's
apply_pass alone would touch the root only."""
import json
import sys
import warnings
from collections import OrderedDict

warnings.filterwarnings('ignore')
import dace  # noqa: E402
from dace import serialize  # noqa: E402
from dace.transformation.pass_pipeline import Pipeline  # noqa: E402
# Importing registers the classes the history names.
from dace.transformation.interstate import InlineMultistateSDFG, InlineSDFG, RefineNestedAccess, StateFusion  # noqa: E402,F401
from dace.transformation.interstate import GPUTransformSDFG  # noqa: E402,F401
from dace.transformation.interstate.loop_lifting import LoopLifting  # noqa: E402,F401
from dace.sdfg.state import LoopRegion  # noqa: E402
from dace.transformation.dataflow import MapCollapse, TrivialMapElimination  # noqa: E402,F401
from dace.transformation.dataflow import MapExpansion, MapInterchange, MapTiling, StripMining  # noqa: E402,F401
# MapFusionHorizontal is not imported: DaCe 1.0.2 has no class of that name.
from dace.transformation.dataflow import AugAssignToWCR, MapCollapse, TrivialMapElimination  # noqa: E402,F401
from dace.transformation.dataflow.local_storage import InLocalStorage, OutLocalStorage  # noqa: E402,F401
from dace.transformation.dataflow.mpi import MPITransformMap  # noqa: E402,F401
from dace.transformation.dataflow.redundant_array import RedundantArray, RedundantSecondArray  # noqa: E402,F401
from dace.transformation.passes.dead_state_elimination import DeadStateElimination  # noqa: E402,F401
from dace.transformation.passes.dead_dataflow_elimination import DeadDataflowElimination  # noqa: E402,F401
from dace.transformation.passes.array_elimination import ArrayElimination  # noqa: E402,F401
from dace.transformation.passes.consolidate_edges import ConsolidateEdges  # noqa: E402,F401
from dace.transformation.passes.prune_symbols import RemoveUnusedSymbols  # noqa: E402,F401
from dace.transformation.passes.scalar_to_symbol import ScalarToSymbolPromotion  # noqa: E402,F401
from dace.transformation.passes.constant_propagation import ConstantPropagation  # noqa: E402,F401
from dace.transformation.passes.fusion_inline import InlineSDFGs  # noqa: E402,F401
from dace.libraries.blas.nodes.matmul import SpecializeMatMul  # noqa: E402,F401
# ExpandGemmPBLAS is not imported: DaCe 1.0.2's class (dace.libraries.blas.nodes.gemm) fails to
# expand (`distr` is never imported there), so no replay of it can succeed.


def owning_sdfg(cfg):
    return cfg if isinstance(cfg, dace.SDFG) else cfg.sdfg


def map_scopes(sdfg):
    """Every map entry and exit: state, node id, label, parameters, ranges, schedule and the
    enclosing map's parameters. Map transformations (MapExpansion, MapInterchange, MapTiling,
    MapCollapse ...) must leave the same maps at the same ids as DaCe's own replay."""
    out = []
    for state in sdfg.all_states():
        for i, n in enumerate(state.nodes()):
            if isinstance(n, dace.nodes.MapEntry):
                parent = state.entry_node(n)
                out.append((state.label, i, n.map.label, tuple(n.map.params), str(n.map.range), str(n.map.schedule),
                            tuple(parent.map.params) if isinstance(parent, dace.nodes.MapEntry) else None))
            elif isinstance(n, dace.nodes.MapExit):
                out.append((state.label, i, 'exit', n.map.label))
    return out


def in_libdace_order(loop, former):
    """Reorders the blocks of a LoopRegion DaCe just lifted: start block first, then the
    blocks in their order in the region they came from, then new blocks."""
    rank = {id(n): i for i, n in enumerate(former)}
    start = loop.start_block
    order = sorted(loop.nodes(), key=lambda n: (n is not start, rank.get(id(n), len(former))))
    loop._nodes = OrderedDict((n, loop._nodes[n]) for n in order)
    edges = loop.edges()
    loop._nx.clear()
    loop._nx.add_nodes_from(order)
    for e in edges:
        loop._nx.add_edge(e.src, e.dst, data=e.data)
    loop.start_block = 0


def nodes_in_former_order(state, former):
    """Reorders a state's nodes: nodes of `former` (the calling state's nodes before an
    InlineMultistateSDFG) by their former index, then copies of former access nodes, each
    ranked as the first former access node of its container."""
    rank = {id(n): i for i, n in enumerate(former)}
    by_data = {}
    for i, n in enumerate(former):
        if isinstance(n, dace.nodes.AccessNode):
            by_data.setdefault(n.data, i)
    if not any(id(n) in rank for n in state.nodes()):
        return
    key = lambda n: (id(n) not in rank, rank.get(id(n), by_data.get(getattr(n, 'data', None), len(former))))
    order = sorted(state.nodes(), key=key)
    state._nodes = OrderedDict((n, state._nodes[n]) for n in order)
    old = state._nx
    state._nx = type(old)()
    state._nx.add_nodes_from(order)
    state._nx.add_edges_from(old.edges(keys=True, data=True))


def shape_of(sdfg):
    """Containers, symbols, and per state (in order) the node types, of every nested SDFG."""
    return [(sorted(s.arrays), sorted(s.symbols), [sorted(type(n).__name__ for n in st.nodes()) for st in s.states()])
            for s in sdfg.all_sdfgs_recursive()]


def check(raw_path, out_path, hist_path):
    ours = dace.SDFG.from_file(out_path)
    ours.validate()
    history = json.load(open(hist_path))
    names = [type(t).__name__ for t in ours.transformation_hist]
    assert names[-len(history):] == [e['transformation'] for e in history] if history else True, names
    g = dace.SDFG.from_file(raw_path)
    if history:
        assert ours.orig_sdfg is not None, f'{out_path}: DaCe reads no orig_sdfg'
        ours.orig_sdfg.validate()
        assert shape_of(ours.orig_sdfg) == shape_of(g), f'{out_path}: orig_sdfg differs from {raw_path} in DaCe'
    for i, e in enumerate(history):
        t = serialize.from_json(e)
        if e['type'] == 'Pass':
            # A pipeline runs the analyses a pass depends on (ArrayElimination needs them).
            # ScalarToSymbolPromotion runs on every SDFG of the hierarchy, root first, as
            # DaCe's SimplifyPass applies it (and libdace's pass does).
            targets = list(g.all_sdfgs_recursive()) if isinstance(t, ScalarToSymbolPromotion) else [g]
            for sd in targets:
                Pipeline([t]).apply_pass(sd, {})
        else:
            cfg = g.cfg_list[e['cfg_id']]
            graph = cfg if e['state_id'] < 0 else cfg.node(e['state_id'])
            # The pattern from the entry itself: from_json's setup_match without an SDFG is
            # skipped by DaCe's blocksafe wrapper for some classes (InlineSDFG), leaving none.
            expr = type(t).expressions()[e.get('expr_index', 0)]
            pattern = {expr.node(int(k)): int(v) for k, v in e['_subgraph'].items()}
            t.setup_match(g, e['cfg_id'], e['state_id'], pattern, e.get('expr_index', 0))
            if not t.can_be_applied(graph, e.get('expr_index', 0), owning_sdfg(cfg)):
                raise AssertionError(f'{out_path}: DaCe refuses history entry {i}: {e}')
            former = list(graph.nodes())
            # DaCe 1.0.2's memlet propagation handles only state machines of states; its own
            # pattern passes apply without it, so once loops are lifted, so does the replay.
            t.apply_pattern(annotate=not (g.using_experimental_blocks or isinstance(t, LoopLifting)))
            if isinstance(t, InlineMultistateSDFG):
                for st in owning_sdfg(cfg).states():
                    nodes_in_former_order(st, former)
            if isinstance(t, LoopLifting):
                lifted = [n for n in graph.nodes() if isinstance(n, LoopRegion) and all(n is not f for f in former)]
                assert len(lifted) == 1, f'{out_path}: history entry {i} lifted {len(lifted)} loops'
                in_libdace_order(lifted[0], former)
        g.reset_cfg_list()  # ids of the next entry are those of the SDFG as it is now
    n_dace, n_ours = len(list(g.all_states())), len(list(ours.all_states()))
    assert n_dace == n_ours, f'{out_path}: DaCe replay has {n_dace} states, ours {n_ours}'
    theirs, mine = map_scopes(g), map_scopes(ours)
    diff = [(a, b) for a, b in zip(theirs, mine) if a != b]
    assert len(theirs) == len(mine) and not diff, f'{out_path}: maps differ from DaCe replay: {diff[:3]}'
    loops = lambda sdfg: sum(isinstance(r, LoopRegion) for r in sdfg.all_control_flow_regions(recursive=True))
    assert loops(g) == loops(ours), f'{out_path}: DaCe replay has {loops(g)} loops, ours {loops(ours)}'
    print(f'ok {out_path}: {len(history)} entries replayed by DaCe')


if __name__ == '__main__':
    args = sys.argv[1:]
    if len(args) % 3:
        sys.exit('usage: dace_history_check.py (RAW OUT HIST)...')
    try:
        for k in range(0, len(args), 3):
            check(*args[k:k + 3])
    except AssertionError as ex:
        print('FAIL', ex)
        sys.exit(1)
