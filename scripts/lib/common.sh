# Shared by scripts/demo.sh and scripts/test.sh: install what is missing from
# Debian, then configure and build. Sourced, not run.
set -euo pipefail

PMIXPP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}

# Build and test dependencies, all from Debian 12. ninja-build, ccache and
# mold only make the build faster (scripts/lib/build.sh, docs/building.md).
# libpmix-dev (OpenPMIx) is here for the tests only: the ABI test compares our headers with its ones,
# and tests/examples builds its example programs and runs them on our library
# and on its libpmix.so.2 (libpmix2, which it pulls in).
PMIXPP_PACKAGES=(
  build-essential cmake pkg-config ninja-build ccache mold
  libltdl-dev libevent-dev libhwloc-dev zlib1g-dev
  libcli11-dev nlohmann-json3-dev
  libmunge-dev munge libcriterion-dev
  libpmix-dev binutils python3
)

# Only the test suite needs these: the real consumers of tests/compat/ (Open
# MPI 4.1, Debian's python3-pmix and Slurm 22.05, all built against OpenPMIx;
# OpenPMIx's own tools pps, pquery, pattrs, pevent, plookup from libpmix-bin)
# and iproute2 for the network namespaces that play the other hosts.
PMIXPP_COMPAT_PACKAGES=(
  openmpi-bin libopenmpi-dev python3-pmix libpmix-bin iproute2 slurm-wlm
)

# The reliability stages of the test suite: clang and its libFuzzer and
# sanitizer runtimes for the fuzz targets (tests/fuzz); clang-format 14 for
# the check that the sources match .clang-format (source_format).
PMIXPP_RELIABILITY_PACKAGES=(
  clang-14 libclang-rt-14-dev clang-format-14
)

pmixpp_log() { printf '[pmixpp] %s\n' "$*"; }

# pmixpp_install_packages [extra packages...]
pmixpp_install_packages() {
  local missing=()
  local pkg
  for pkg in "${PMIXPP_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    pmixpp_log "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})"
    exit 1
  fi
  pmixpp_log "installing ${#missing[@]} Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  mkdir -p "$PMIXPP_BUILD"
  local log="$PMIXPP_BUILD/apt.log" start=$SECONDS
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    >"$log" 2>&1 </dev/null; then
    tail -n 20 "$log"
    pmixpp_log "installing the packages failed; full output: $log"
    exit 1
  fi
  pmixpp_log "installed them in $((SECONDS - start)) s"
}

# shellcheck source=build.sh
source "$PMIXPP_ROOT/scripts/lib/build.sh"

# pmixpp_build [targets...]: configure build/ and build the targets (all when
# none are named). CI turns warnings into errors.
pmixpp_build() {
  local werror=OFF
  [ "${CI:-}" = "true" ] && werror=ON
  pmixpp_configure "$PMIXPP_BUILD" -DPMIXPP_WERROR="${PMIXPP_WERROR:-$werror}" || return
  pmixpp_build_quietly "${1:-everything}" "$PMIXPP_BUILD" "$@"
}
