#!/usr/bin/env bash
# Installs every dependency of libdace from Debian's registry. Idempotent: packages already
# present are skipped, so a second run costs one dpkg query.
set -euo pipefail
PACKAGES=(
  cmake ninja-build ccache pkg-config g++ gfortran
  llvm-19-dev libomp-19-dev clang-19 libclang-rt-19-dev
  libopenblas-dev liblapacke-dev
  libopenmpi-dev openmpi-bin libscalapack-openmpi-dev
  libffi-dev libisl-dev nlohmann-json3-dev zlib1g-dev libgtest-dev
  python3-numpy python3-pytest python3-venv python3-pip python3-setuptools python3-wheel
  libgraphviz-dev chromium-headless-shell fonts-dejavu-core
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Optional: DaCe 1.0.2 in a virtual environment, used by interop tests and benchmarks.
# Failing to get it only makes those tests skip with a reason. networkx is pinned: with
# networkx >= 3.5 DaCe 1.0.2's code generator fails (KeyError in its dominator-tree walk).
# SciPy computes reference results of NPBench kernels that use it (spmv) and of LAPACK nodes.
DACE_REQUIREMENTS=("dace==1.0.2" "networkx==3.3" "scipy")
if [[ "${LIBDACE_WITH_DACE:-1}" == "1" ]]; then
  if [[ ! -x .venv-dace/bin/python ]]; then
    ( /usr/bin/python3 -m venv .venv-dace && .venv-dace/bin/pip install -q "${DACE_REQUIREMENTS[@]}" ) \
      || { echo "setup: DaCe 1.0.2 not installed; interop tests will skip" >&2; rm -rf .venv-dace; }
  elif ! .venv-dace/bin/python -c 'import networkx, scipy, sys; sys.exit(networkx.__version__ != "3.3")' 2>/dev/null; then
    .venv-dace/bin/pip install -q "${DACE_REQUIREMENTS[@]}" \
      || echo "setup: could not pin networkx in .venv-dace; DaCe comparisons may fail" >&2
  fi
fi
# Optional: mpi4py in the same venv lets DaCe run distributed SDFGs next to libdace
# (bench/mpi_scaling.py). A binary wheel (it finds Open MPI's libmpi at run time; nothing is
# compiled); without it that benchmark leaves DaCe out.
if [[ -x .venv-dace/bin/python ]] && ! .venv-dace/bin/python -c 'import mpi4py' 2>/dev/null; then
  .venv-dace/bin/pip install -q --only-binary=:all: "mpi4py==4.1.2" \
    || echo "setup: mpi4py not installed; bench/mpi_scaling.py leaves DaCe out" >&2
fi
