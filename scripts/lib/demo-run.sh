#!/usr/bin/env bash
# The demo, on a built tree (scripts/demo.sh builds the pmixpp_demo target
# first). Each step is a heading and a few lines:
#   1. the main job: pmixrun runs examples/hello on 4 ranks;
#   2. the component core: what pmixpp_info finds and selects, and the same
#      job on other components chosen by PMIX_MCA_* variables;
#   3. the installed library: a host of your own (share/examples/hello-job)
#      and a vendor component built out of tree (share/examples/pnet-vendor),
#      loaded from its own directory.
# Every step checks what it shows: a job's tmpdir must be empty afterwards.
set -euo pipefail
PMIXPP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
bin="$PMIXPP_BUILD/bin"

step() { printf '\n== %s\n' "$*"; }
# Runs a command with its output in a log, shown only when it fails.
quiet() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || { cat "$log"; exit 1; }
}
expect_empty() {
  local dir=$1 what=$2
  local left
  left=$(find "$dir" -mindepth 1)
  if [ -n "$left" ]; then
    printf '%s left files behind in %s:\n%s\n' "$what" "$dir" "$left" >&2
    exit 1
  fi
}
# pmixpp_info without parameters and paths: each framework, what it selected,
# and each component's priority and state.
selection_summary() {
  awk '/^framework /{print; next}
       /^  selected:/{print; next}
       /^    [a-z0-9_]+ +[0-9.]+ +priority/{sub(/^    /, "    "); print}'
}

# One framework's lines of selection_summary.
framework_block() { awk -v fw="$1" '$1 == "framework" { on = ($2 == fw) } on'; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pmixpp-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

step "1. pmixrun -n 4 examples/hello: each rank puts a greeting, fences, reads its neighbour's"
mkdir -p "$work/run"
"$bin/pmixrun" --tmpdir "$work/run" -n 4 "$PMIXPP_BUILD/examples/hello"
expect_empty "$work/run" pmixrun
echo "(the job's session directories under --tmpdir are gone again)"

step "2. The component core: what pmixpp_info finds and selects here"
"$bin/pmixpp_info" | selection_summary

step "   The same job on other components: PMIX_MCA_ptl=tcp PMIX_MCA_gds=hash"
PMIX_MCA_ptl=tcp PMIX_MCA_gds=hash "$bin/pmixrun" --tmpdir "$work/run" -n 2 "$PMIXPP_BUILD/examples/hello"
echo "   and a misspelled choice is named, not ignored: PMIX_MCA_gds=hsah"
PMIX_MCA_gds=hsah "$bin/pmixpp_info" 2>&1 | grep -m 1 '^pmixpp:' || true

step "3. The installed library: a host of your own (share/examples/hello-job)"
prefix="$work/prefix"
quiet "$work/install.log" cmake --install "$PMIXPP_BUILD" --prefix "$prefix"
quiet "$work/hello.log" cmake -S "$PMIXPP_ROOT/share/examples/hello-job" -B "$work/hello-job" \
  -DCMAKE_PREFIX_PATH="$prefix"
quiet "$work/hello.log" cmake --build "$work/hello-job"
mkdir -p "$work/tmp"
env -u LD_LIBRARY_PATH -u PMIX_SERVER_TMPDIR TMPDIR="$work/tmp" \
  "$work/hello-job/hello_host" -n 4 "$work/hello-job/hello_client"
expect_empty "$work/tmp" "the hello job"
echo "(its tmpdir is empty again: session dirs, rendezvous files and registered scratch files are gone)"

step "   A vendor's component, built out of tree and found through PMIX_MCA_mca_base_component_path"
quiet "$work/vendor.log" cmake -S "$PMIXPP_ROOT/share/examples/pnet-vendor" -B "$work/pnet-vendor" \
  -DCMAKE_PREFIX_PATH="$prefix"
quiet "$work/vendor.log" cmake --build "$work/pnet-vendor"
PMIX_MCA_mca_base_component_path="$work/pnet-vendor" PMIX_MCA_pnet_vendor_key=site-key-42 \
  env -u LD_LIBRARY_PATH "$prefix/bin/pmixpp_info" | selection_summary | framework_block pnet
echo "   with PMIX_MCA_pnet=^vendor:"
PMIX_MCA_mca_base_component_path="$work/pnet-vendor" PMIX_MCA_pnet='^vendor' \
  env -u LD_LIBRARY_PATH "$prefix/bin/pmixpp_info" | selection_summary | grep -E '^ +vendor'

printf '\nNext: %s\n' "run your own program with build/bin/pmixrun -n 2 <program>, or see README.md for Slurm, Open MPI and components."
