"""Lists every library-node class DaCe 1.0.2 defines (subclasses of dace.sdfg.nodes.LibraryNode
under dace.libraries), one full class path per line, sorted.

    .venv-dace/bin/python tests/data/library_nodes/generate.py > tests/data/library_nodes/dace_1_0_2_classes.txt
"""
import importlib
import pkgutil
import warnings

warnings.filterwarnings('ignore')
import dace  # noqa: E402
import dace.libraries  # noqa: E402

for info in pkgutil.walk_packages(dace.libraries.__path__, 'dace.libraries.'):
    try:
        importlib.import_module(info.name)
    except Exception:  # libraries whose optional dependencies are missing here
        pass


def subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


names = set()
for cls in subclasses(dace.sdfg.nodes.LibraryNode):
    path = cls.__module__ + '.' + cls.__qualname__
    if path.startswith('dace.libraries.'):
        names.add(path)
print('\n'.join(sorted(names)))
