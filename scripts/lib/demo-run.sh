#!/usr/bin/env bash
set -euo pipefail
PMIXPP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PMIXPP_BUILD=${PMIXPP_BUILD:-"$PMIXPP_ROOT/build"}
"$PMIXPP_BUILD/bin/pmixpp_info"
