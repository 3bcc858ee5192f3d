#!/usr/bin/env bash
# Installs what is missing, builds what the demo runs (the pmixpp_demo
# target: the library, its components, pmixrun, pmixpp_info, pmixpp_ps and
# examples/hello; not the test suite), and runs it (scripts/lib/demo-run.sh).
# The build prints one progress line; its full output is in build/build.log.
source "$(dirname "$0")/lib/common.sh"
pmixpp_install_packages
pmixpp_build pmixpp_demo
exec "$PMIXPP_ROOT/scripts/lib/demo-run.sh"
