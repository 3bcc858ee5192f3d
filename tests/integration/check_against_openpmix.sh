#!/usr/bin/env bash
# Builds the integration host, clients and tests against Debian's OpenPMIx
# 4.2 (libpmix-dev) instead of pmixpp and runs them: a check of the tests'
# own expectations against the reference implementation. Not part of CTest.
# Known OpenPMIx differences: it derives neither pmix.univ.size nor
# pmix.appnum from minimal registration info, has no pmix.nodeid for
# processes on other nodes, accepts a second connection as an already
# connected rank, reports refusals as PMIX_ERR_UNREACH, and has no
# PMIXPP_SERVER_URIS. A Get of a key of a local peer that finalized
# without committing ends in PMIX_ERR_TIMEOUT there (pmixpp: at once, with
# PMIX_ERR_NOT_FOUND). OpenPMIx's server answers no query itself (namespaces and job
# sizes go to the host), runs upcalls off the host's PMIX_EVENT_BASE thread,
# crashes in PMIx_server_IOF_deliver with bad arguments, and never closes a
# peer that connects and stays silent (its listener then stalls every later
# client until the peer leaves).
#   tests/integration/check_against_openpmix.sh [OUTDIR] [criterion args...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-/tmp/pmixpp-itest-openpmix}"
shift || true
op=/usr/lib/x86_64-linux-gnu/pmix2
mkdir -p "$out/clients"
for client in exchange ompi_pattern events intruder lifecycle twonode query; do
  gcc -std=gnu11 -O1 -Wall -Wextra -I "$op/include" "$here/clients/$client.c" -o "$out/clients/itest_$client" \
    -L"$op/lib" -lpmix -Wl,-rpath,"$op/lib"
done
g++ -std=c++20 -O1 -Wall -Wextra -I "$op/include" -I "$here/.." -DITEST_CLIENT_DIR="\"$out/clients\"" \
  -DITEST_HAVE_MUNGE=1 "$here"/cases/*.cc "$here"/host/*.cc -o "$out/itest" \
  -L"$op/lib" -lpmix -Wl,-rpath,"$op/lib" -lcriterion -lmunge -levent_core -levent_pthreads -lpthread
cd "$out"
env -u LD_LIBRARY_PATH -u PMIX_MCA_ptl PMIX_MCA_psec=native ./itest --jobs=2 --short-filename "$@"
