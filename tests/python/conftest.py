"""Makes the in-tree package importable and skips everything when libdace.so is absent."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPUS = os.environ.get("LIBDACE_CORPUS_DIR", os.path.normpath(os.path.join(REPO, "..", "shared", "sdfg-corpus")))

try:
    import libdace  # noqa: F401 - an installed package wins
except ImportError:
    sys.path.insert(0, os.path.join(REPO, "bindings", "python"))

try:
    import libdace  # noqa: F401,F811

    _SKIP = None
except ImportError as err:  # no library or no generated _capi.py: say why and skip
    _SKIP = f"libdace Python package unusable: {err}"


def pytest_collection_modifyitems(config, items):
    if _SKIP:
        marker = pytest.mark.skip(reason=_SKIP)
        for item in items:
            item.add_marker(marker)


@pytest.fixture
def corpus_dir():
    if not os.path.isdir(CORPUS):
        pytest.skip(f"SDFG corpus not found at {CORPUS}")
    return CORPUS
