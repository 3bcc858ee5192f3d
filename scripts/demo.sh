#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo: pmixrun -n 4
# examples/hello (ranks, a fence, a peer's data), then the component core at
# work: pmixpp_info lists the frameworks and the components it discovered, the
# installed library runs the hello job of a minimal host, and the vendor example
# is loaded from its own directory through PMIX_MCA_mca_base_component_path.
source "$(dirname "$0")/lib/common.sh"
pmixpp_install_packages
pmixpp_build
exec "$PMIXPP_ROOT/scripts/lib/demo-run.sh"
