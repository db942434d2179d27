# Shared by ./run and ./test: install what is missing (Debian packages only), configure, build.
# shellcheck shell=bash

# Packages the build needs: the engine's, then the desktop app's (Qt 6 with its OpenGL widgets,
# Dear ImGui, GLM), what its tests run under (a virtual X display, ffmpeg for video), and
# clang with its fuzzer runtime and OpenMP for the libFuzzer targets (scripts/fuzz.sh), and
# clang-format for the format check (scripts/check-format.sh), Python for the performance
# page's generator (scripts/performance_page.py).
NDEM_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libeigen3-dev nlohmann-json3-dev libhdf5-dev libcli11-dev libfclib-dev libsuitesparse-dev
  libsiconos-numerics-dev
  libgtest-dev libbenchmark-dev
  gnuplot-nox
  qt6-base-dev libqt6opengl6-dev libimgui-dev libglm-dev libgl-dev
  xvfb xauth ffmpeg fonts-dejavu-core
  clang-14 libclang-rt-14-dev libomp-14-dev clang-format-14
  python3
)

ndem_ensure_packages() {
  local missing=()
  for p in "${NDEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ndem_build DIR [extra cmake args...]: configure once (Release, Ninja) and build.
ndem_build() {
  local dir="$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  else
    cmake "$dir" "$@" >/dev/null
  fi
  cmake --build "$dir" --parallel "$(nproc)"
}
