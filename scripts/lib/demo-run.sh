#!/usr/bin/env bash
# The demo: pmixrun runs the hello example (4 processes, a fence, a peer's
# data); pmixpp_info on the build tree; then the installed library at work —
# install into a temporary prefix; build the hello job (share/examples/hello-job:
# a minimal host and its client) against it and run it in a fresh tmpdir, which
# must be empty afterwards; build the out-of-tree vendor component
# (share/examples/pnet-vendor) and show the installed pmixpp_info loading and
# selecting it from the vendor's own directory.
set -euo pipefail
PMIXPP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}

step() { printf '\n== %s\n' "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pmixpp-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

step "pmixrun -n 4 examples/hello: ranks, a fence, a peer's data"
run_tmp="$work/pmixrun-tmp"
mkdir -p "$run_tmp"
"$PMIXPP_BUILD/bin/pmixrun" --tmpdir "$run_tmp" -n 4 "$PMIXPP_BUILD/examples/hello"
left=$(find "$run_tmp" -mindepth 1)
if [ -n "$left" ]; then
  printf 'pmixrun left files behind in %s:\n%s\n' "$run_tmp" "$left" >&2
  exit 1
fi
echo "the job's session directories under $run_tmp are gone"

step "pmixpp_info (build tree)"
"$PMIXPP_BUILD/bin/pmixpp_info"
prefix="$work/prefix"
vendor_build="$work/pnet-vendor"

step "install into a temporary prefix"
cmake --install "$PMIXPP_BUILD" --prefix "$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; exit 1; }
(cd "$prefix" && ls -d bin/pmixpp_info lib/libpmix.so* lib/pkgconfig/pmix.pc lib/cmake/pmixpp include/pmixpp)

step "the hello job: 4 processes under a minimal host (share/examples/hello-job)"
hello_build="$work/hello-job"
{
  cmake -S "$PMIXPP_ROOT/share/examples/hello-job" -B "$hello_build" -DCMAKE_PREFIX_PATH="$prefix" \
    && cmake --build "$hello_build"
} >"$work/hello.log" 2>&1 || { cat "$work/hello.log"; exit 1; }
job_tmp="$work/tmp"
mkdir -p "$job_tmp"
env -u LD_LIBRARY_PATH -u PMIX_SERVER_TMPDIR TMPDIR="$job_tmp" \
  "$hello_build/hello_host" -n 4 "$hello_build/hello_client"
left=$(find "$job_tmp" -mindepth 1)
if [ -n "$left" ]; then
  printf 'the job left files behind in %s:\n%s\n' "$job_tmp" "$left" >&2
  exit 1
fi
echo "tmpdir $job_tmp is empty again: session dirs, rendezvous files and registered scratch files are gone"

step "build the vendor component out of tree (find_package(pmixpp) + pmixpp_add_component)"
{
  cmake -S "$PMIXPP_ROOT/share/examples/pnet-vendor" -B "$vendor_build" -DCMAKE_PREFIX_PATH="$prefix" \
    && cmake --build "$vendor_build"
} >"$work/vendor.log" 2>&1 || { cat "$work/vendor.log"; exit 1; }
ls "$vendor_build"/*.so

# Only the pnet block of the report, to keep the output short.
pnet_block() { sed -n '/^framework pnet/,/^$/p'; }

step "installed pmixpp_info with PMIX_MCA_mca_base_component_path=<vendor build dir>"
PMIX_MCA_mca_base_component_path="$vendor_build" PMIX_MCA_pnet_vendor_key=site-key-42 \
  env -u LD_LIBRARY_PATH "$prefix/bin/pmixpp_info" | pnet_block

step "same, with PMIX_MCA_pnet=^vendor"
PMIX_MCA_mca_base_component_path="$vendor_build" PMIX_MCA_pnet='^vendor' \
  env -u LD_LIBRARY_PATH "$prefix/bin/pmixpp_info" | pnet_block
