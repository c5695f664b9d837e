"""Install-time step: record where libdace.so was found, so the installed package loads it
without environment variables (see libdace/_loader.py for the search order).

LIBDACE_LIBRARY (the .so) or LIBDACE_BUILD_DIR (a build folder) pick the library; otherwise
<repository>/build/lib or <repository>/build-*/lib is used when present."""

import glob
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def _find_library():
    env = os.environ.get("LIBDACE_LIBRARY")
    if env:
        return os.path.abspath(env)
    builds = []
    if os.environ.get("LIBDACE_BUILD_DIR"):
        builds.append(os.environ["LIBDACE_BUILD_DIR"])
    repo = os.path.normpath(os.path.join(HERE, "..", ".."))
    builds += [os.path.join(repo, "build")] + sorted(glob.glob(os.path.join(repo, "build-*")))
    for build in builds:
        path = os.path.join(build, "lib", "libdace.so")
        if os.path.exists(path):
            return os.path.abspath(path)
    return None


class BuildWithLibraryPath(build_py):
    def run(self):
        super().run()
        path = _find_library()
        target = os.path.join(self.build_lib, "libdace", "_build_info.py")
        with open(target, "w") as f:
            f.write('"""Written by setup.py at install time."""\n')
            f.write(f"LIBRARY = {path!r}\n")


setup(cmdclass={"build_py": BuildWithLibraryPath})
