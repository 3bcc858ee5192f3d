// A shared library holding install_layout.cc, the way libpmix.so.2 holds the
// core, so the test can see what the layout code derives from a library's
// location (<prefix>/<libdir>/x.so) rather than from a program's.
#include "framework/src/install_layout.h"

#include <string>

namespace {
std::string answer;  // one caller at a time (the test)
}  // namespace

extern "C" __attribute__((visibility("default"))) const char *layout_probe_system_param_file()
{
    answer = pmixpp::framework::system_param_file();
    return answer.c_str();
}

extern "C" __attribute__((visibility("default"))) const char *layout_probe_component_directory()
{
    answer = pmixpp::framework::default_component_directory();
    return answer.c_str();
}
