#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite with CTest.
source "$(dirname "$0")/lib/common.sh"
pmixpp_install_packages "${PMIXPP_COMPAT_PACKAGES[@]}"
pmixpp_build
# psec/munge tests run against a real munged; with this set they fail (not
# skip) when it cannot be reached.
source "$(dirname "$0")/lib/munge.sh"
pmixpp_ensure_munged
export PMIXPP_REQUIRE_MUNGE=1
cd "$PMIXPP_BUILD"
ctest --output-on-failure -j"$(nproc)" "$@"
