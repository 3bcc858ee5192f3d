#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite with CTest.
source "$(dirname "$0")/lib/common.sh"
pmixpp_install_packages
pmixpp_build
cd "$PMIXPP_BUILD"
ctest --output-on-failure -j"$(nproc)" "$@"
