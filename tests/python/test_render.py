"""SDFG.render (docs/render.md): the picture through the C API's dace_sdfg_render.

The reference is the .sdfg file itself, read here with the json module: every dataflow node
of every state (in every control-flow region, conditional branch and nested SDFG) must be
drawn exactly once, in the box of its state (found by the state's label) under its node id
(b<block>n<node>, regions and nested SDFGs adding a prefix) and with the class of its kind,
and nothing else may be drawn as a node. The HTML page must embed the same SVG and list the same nodes. The bytes must equal
what `dace render` writes for the same file (another process: determinism)."""
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

import libdace
from conftest import CORPUS

CASES = [
    "gemm/gemm.opt.sdfg",                   # library node, CPU maps
    "softmax/softmax.gpu.sdfg",             # nested SDFGs inside GPU maps
    "mandelbrot1/mandelbrot1.simp.sdfg",    # nested SDFG, many states
    "dialects/dace-2.0a5/crc16.simp.sdfg",  # loop regions and conditional blocks
]
CLASS_OF_TYPE = {
    "AccessNode": "sdfg-access", "Tasklet": "sdfg-tasklet", "MapEntry": "sdfg-scope-entry",
    "MapExit": "sdfg-scope-exit", "ConsumeEntry": "sdfg-scope-entry", "ConsumeExit": "sdfg-scope-exit",
    "NestedSDFG": "sdfg-nested",
}
SVG_NS = "{http://www.w3.org/2000/svg}"


def _expected_nodes(region, outer, out):
    """(state label, node id) path -> class of every dataflow node below `region` (an SDFG or
    a control-flow region). States are named by their labels because libdace numbers blocks
    SDFG-wide, where DaCe 2's JSON numbers them per region; nested SDFGs extend the path."""
    for block in region.get("nodes", []):
        kind = block.get("type")
        if kind == "SDFGState":
            for node in block.get("nodes", []):
                key = outer + ((block["label"], node["id"]),)
                out[key] = CLASS_OF_TYPE.get(node["type"], "sdfg-library")
                if node["type"] == "NestedSDFG":
                    _expected_nodes(node["attributes"]["sdfg"], key, out)
        elif kind == "ConditionalBlock":
            for _, body in block.get("branches", []):
                if body:
                    _expected_nodes(body, outer, out)
        else:  # LoopRegion, ControlFlowRegion
            _expected_nodes(block, outer, out)
    return out


def _drawn_nodes(svg):
    """The same paths for the drawn nodes. A node's id is <prefix>b<state>n<node>, its state's
    box is the cluster <prefix>b<state> titled with the state's label, and the prefix is
    made of region boxes (b<id>_, b<id>c<k>_) and nested-SDFG nodes (b<state>n<node>_)."""
    root = ET.fromstring(svg)
    titles, drawn = {}, {}
    for g in root.iter(SVG_NS + "g"):
        classes = g.get("class", "").split()
        if "cluster" in classes and "sdfg-block" in classes:
            text = g.find(SVG_NS + "text")
            titles[g.get("id")] = text.text if text is not None else ""
    for g in root.iter(SVG_NS + "g"):
        classes = g.get("class", "").split()
        if "sdfg-node" not in classes:
            continue
        node_id, key, done = g.get("id"), (), ""
        for part in node_id.split("_"):
            m = re.fullmatch(r"(b\d+)n(\d+)", part)
            if m:
                key += ((titles[done + m.group(1)], int(m.group(2))),)
            done += part + "_"
        assert key not in drawn, f"{node_id} drawn twice"
        drawn[key] = [c for c in classes if c.startswith("sdfg-") and c != "sdfg-node"][0]
    return drawn


def _render_or_skip(g, **kw):
    try:
        return g.render(**kw)
    except libdace.errors.UnsupportedError as e:
        pytest.skip(f"no renderer in this build (libdace_render.so, Graphviz): {e}")


def _cli():
    """The `dace` tool of the build whose libdace.so is loaded (build/lib -> build/bin)."""
    lib = libdace.library_path()
    cli = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(lib))), "bin", "dace")
    return cli if os.access(cli, os.X_OK) else None


@pytest.mark.parametrize("case", CASES)
def test_render_draws_every_node_of_the_json_like_the_cli(case, tmp_path):
    path = os.path.join(CORPUS, case)
    if not os.path.exists(path):
        pytest.skip(f"corpus file not found: {path}")
    g = libdace.SDFG.from_file(path)
    svg = _render_or_skip(g)
    assert svg.startswith("<?xml") and svg.rstrip().endswith("</svg>")
    with open(path, encoding="utf-8") as f:
        expected = _expected_nodes(json.load(f), (), {})
    assert len(expected) > 5
    assert _drawn_nodes(svg) == expected

    html = g.render(format="html")
    assert html.startswith("<!DOCTYPE html>")
    assert svg[svg.index("<svg"):] in html, "the page embeds the SVG as it is"
    listed = json.loads(re.search(r'id="sdfg-elements">(.*?)</script>', html, re.S).group(1))
    svg_ids = {g.get("id") for g in ET.fromstring(svg).iter(SVG_NS + "g") if "sdfg-node" in g.get("class", "")}
    assert {e["id"] for e in listed if e["kind"] == "node"} == svg_ids and len(svg_ids) == len(expected)

    cli = _cli()
    if cli is None:
        pytest.skip(f"no dace CLI next to {libdace.library_path()}: byte comparison left out")
    for fmt, text in (("svg", svg), ("html", html)):
        out = tmp_path / f"cli.{fmt}"
        r = subprocess.run([cli, "render", path, "-o", str(out)], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        assert out.read_bytes() == text.encode("utf-8"), f"{fmt}: C API and `dace render` differ"


def test_render_writes_files_by_extension(tmp_path):
    path = os.path.join(CORPUS, CASES[0])
    if not os.path.exists(path):
        pytest.skip(f"corpus file not found: {path}")
    g = libdace.SDFG.from_file(path)
    svg = _render_or_skip(g)
    assert g._repr_svg_() == svg
    page = tmp_path / "gemm.html"
    assert g.render(page) == page
    assert page.read_text(encoding="utf-8") == g.render(format="html")
    picture = tmp_path / "gemm.picture"
    g.render(picture, format="svg")
    assert picture.read_text(encoding="utf-8") == svg
    upper = tmp_path / "GEMM.SVG"  # extensions are matched without regard to case
    assert g.render(upper) == upper
    assert upper.read_text(encoding="utf-8") == svg


def test_render_refuses_an_unknown_format_and_writes_nothing(tmp_path):
    g = libdace.SDFG("tiny")
    g.add_state("s0")
    with pytest.raises(libdace.errors.InvalidArgumentError, match="png"):
        g.render(format="png")
    target = tmp_path / "tiny.png"
    for kw in ({"format": "png"}, {}):  # told, or told by the extension
        with pytest.raises(libdace.errors.InvalidArgumentError, match="png"):
            g.render(target, **kw)
        assert not target.exists()
