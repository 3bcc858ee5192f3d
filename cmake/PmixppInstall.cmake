# Install rules, pkg-config file and the CMake package (owned by the SDK work).
