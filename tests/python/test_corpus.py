"""Every runnable SDFG of ../shared/sdfg-corpus, loaded and called from Python with its stored
inputs, must reproduce its stored outputs (computed by NumPy, checked with DaCe 1.0.2)."""

import glob
import json
import os

import numpy as np
import pytest

import libdace
from conftest import CORPUS


def _cases():
    out = []
    for case in sorted(glob.glob(os.path.join(CORPUS, "*", "case.json"))):
        folder = os.path.dirname(case)
        kernel = os.path.basename(folder)
        for kind in ("simp", "raw"):
            path = os.path.join(folder, f"{kernel}.{kind}.sdfg")
            if os.path.exists(path):
                out.append(pytest.param(path, case, id=f"{kernel}.{kind}"))
        for path in sorted(glob.glob(os.path.join(CORPUS, "dialects", "dace-2.0a5", f"{kernel}.*.sdfg"))):
            out.append(pytest.param(path, case, id=f"2.0a5/{os.path.basename(path)}"))
    return out


def _close(got, expected, rtol, atol):
    got = np.asarray(got)
    if expected.ndim == 0 and got.size == 1:
        got = got.reshape(())  # DaCe returns a scalar as a one-element array
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("path,case_file", _cases())
def test_corpus_sdfg_matches_stored_outputs(path, case_file):
    folder = os.path.dirname(case_file)
    with open(case_file) as f:
        case = json.load(f)
    with libdace.SDFG.from_file(path) as sdfg:
        free = set(sdfg.free_symbols())
        with sdfg.compile(opt_level=1) as prog:
            kwargs = {}
            for name, rel in case["inputs"].items():
                value = np.load(os.path.join(folder, rel))
                kwargs[name] = value.item() if value.ndim == 0 and (name in free or name not in sdfg.arrays) \
                    else value
            for name, value in case.get("symbols", {}).items():
                if name in {a.name for a in prog.arguments}:
                    kwargs.setdefault(name, value)
            result = prog(**kwargs)
            returns = prog.return_names
            if len(returns) == 1:
                result = {returns[0]: result}
            elif returns:
                assert isinstance(result, tuple)
                result = dict(zip(returns, result))
            else:
                assert result is None
                result = {}
            for name, rel in case["expected_outputs"].items():
                expected = np.load(os.path.join(folder, rel))
                got = result[name] if name.startswith("__return") else kwargs[name]
                _close(got, expected, case["rtol"], case["atol"])
