#!/usr/bin/env bash
# Installs the Debian packages kinevo needs (only those missing), then configures and builds
# Release into build/: the kinevo executable and its libraries. The tests (and the Python module
# they use) are built by `ctest --test-dir build` itself, before it runs them (docs/build.md).
# Idempotent: a second run with nothing changed only checks and returns.
#   ./setup.sh            build
#   ./setup.sh --python   also build the Python module into build/python
#   ./setup.sh --bench    also build the benchmarks (bench/) and install the optional comparison
#                         libraries (pagmo2, MuJoCo) and jq (bench/cec2006_kinevo.sh reads
#                         kinevo's JSON with it)
#   BUILD_DIR=... CMAKE_ARGS=... ./setup.sh   another build folder or extra CMake options
set -euo pipefail
cd "$(dirname "$0")"

# ccache: a rebuild after a small change, or another clone of the same sources, reuses the
# objects compiled before (used when present, never required: cmake/compile_speed.cmake).
# libsundials-dev: SUNDIALS IDA integrates the qtz-reduced formulation's DAE (Del Citto et al.,
# eq. 46) with variable-order BDF and its own error control, instead of a Radau code of our own.
# clang: kinevo is compiled with clang++ (Debian 12's clang 14) when CXX is not set: the same
# sources compile in about two thirds of GCC 12's CPU time (the default target 459 s against
# 729 s, the tests about 400 s against 740 s), into a kinevo whose outputs are byte-identical and
# whose run times are the same within the noise (docs/build.md). CXX=g++ ./setup.sh builds with GCC.
# libclang-rt-dev: clang's sanitizer runtimes (ASan, UBSan, LSan) for the CI's second build; only
# recommended by clang, so --no-install-recommends would leave it out.
# libomp-dev: SUNDIALS' CMake package asks for OpenMP (find_dependency), which clang finds only
# with LLVM's libomp; without it SUNDIALS, and so the qtz-reduced formulation, would not be found.
# chromium: the animation test (tests/cli/test_cli_animate.cpp) loads kinevo animate's HTML page
# in headless Chromium and checks the positions it drew against the CSV.
# chromium-headless-shell: the same browser without its desktop UI; the page tests start it in
# about a third of the time of chromium --headless (tests/cli/headless_browser.hpp).
# libjs-three: three.js, inlined into the 3D viewer page of `kinevo animate` (read at run time
# from /usr/share/javascript/three; without it the page is the 2D SVG one, with a warning).
# libpng-dev: the 3D viewer's Chromium test reads the pixels of its screenshots.
# pybind11-dev, python3-dev, python3-numpy, python3-pytest: the Python module `kinevo` (python/,
# built against Debian's /usr/bin/python3) and its pytest suite.
# libsuitesparse-dev: SuiteSparseQR, the sparse rank-revealing QR of `model info --rank` on large
# models (linear in a chain's links where Eigen's SparseQR is quadratic: docs/kinematics.md),
# and KLU, the sparse LU of coordinate partitioning's [Phi_q; B] (docs/formulations.md).
# help2man: the man page kinevo(1) from `kinevo --help` (optional for CMake: without it, no page).
packages=(build-essential clang libclang-rt-dev libomp-dev cmake ninja-build pkg-config ccache libeigen3-dev libopenmpi-dev openmpi-bin
  libboost-random-dev libcli11-dev libgtest-dev libgmock-dev libginac-dev libcln-dev
  libtomlplusplus-dev libfmt-dev libbenchmark-dev nlohmann-json3-dev libsundials-dev
  librsvg2-bin  # rsvg-convert: the cli_figures_render test renders every figure
  libjs-three libpng-dev pybind11-dev python3-dev python3-numpy python3-pytest help2man
  libsuitesparse-dev)
# The browsers only the page tests start, at run time (no CMake check looks for them): on a fresh
# machine they are most of the download and unpacking (chromium pulls GTK, PulseAudio, codecs), so
# they are installed in the background while kinevo compiles, and setup.sh waits for them before
# it returns (docs/build.md: about 40 s of a fresh clone's first run).
browser_packages=(chromium chromium-headless-shell)
bench_args=()
if [[ " $* " == *" --bench "* ]]; then
  packages+=(libpagmo-dev libmujoco-dev jq)
  bench_args=(-DKINEVO_BUILD_BENCH=ON)
fi

missing_of() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}
mapfile -t missing < <(missing_of "${packages[@]}")
mapfile -t missing_browsers < <(missing_of "${browser_packages[@]}")
if ((${#missing[@]} + ${#missing_browsers[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup.sh: missing packages and not root; run as root or install:" \
      "${missing[*]} ${missing_browsers[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
fi
# dpkg without an fsync per unpacked file (as Debian's own container images configure it): a
# machine that crashes mid-install reinstalls, and the unpacking is most of the apt phase.
apt_speed=(-o Dpkg::Options::=--force-unsafe-io)
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}" >&2
  apt-get install -y -qq --no-install-recommends "${apt_speed[@]}" "${missing[@]}" >/dev/null
fi
browser_pid=
browser_log=
if ((${#missing_browsers[@]})); then
  echo "setup.sh: installing ${missing_browsers[*]} in the background (for the tests)" >&2
  browser_log=$(mktemp)
  apt-get install -y -qq --no-install-recommends "${apt_speed[@]}" "${missing_browsers[@]}" \
    >"$browser_log" 2>&1 &
  browser_pid=$!
fi
# Waits for the browsers' install: setup.sh never returns with apt still holding the package
# database, also when the build fails (the trap). Its failure is setup.sh's, with apt's own words.
wait_for_browsers() {
  [[ -n "$browser_pid" ]] || return 0
  local pid=$browser_pid
  browser_pid=
  if ! wait "$pid"; then
    echo "setup.sh: installing ${missing_browsers[*]} failed:" >&2
    cat "$browser_log" >&2
    rm -f "$browser_log"
    return 1
  fi
  rm -f "$browser_log"
}
trap 'wait_for_browsers || true' EXIT

build_dir=${BUILD_DIR:-build}
# clang++ unless the caller chose a compiler (CXX, or CMAKE_CXX_COMPILER in CMAKE_ARGS). Only at the
# first configure of a build folder: CMake fixes the compiler there.
compiler_args=()
if [[ -z "${CXX:-}" && "${CMAKE_ARGS:-}" != *CMAKE_CXX_COMPILER* && ! -f "$build_dir/CMakeCache.txt" ]]; then
  compiler_args=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
fi
# Configure when there is no build yet, when packages were just installed or when --bench is
# given: find_package() results are cached, so a build configured before pagmo2/MuJoCo were
# installed would never build the comparison programs. A run with nothing to do stays quick.
if [[ ! -f "$build_dir/build.ninja" ]] || ((${#missing[@]})) || [[ " $* " == *" --bench "* ]]; then
  # shellcheck disable=SC2086
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler_args[@]}" "${bench_args[@]}" ${CMAKE_ARGS:-}
fi
# The default target: the executable and the libraries (no tests, no Python module, no
# benchmarks unless --bench). One job per core: each heavy translation unit needs ~1 GiB.
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}"
if [[ " $* " == *" --python "* ]]; then
  cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target kinevo_python
fi
wait_for_browsers
