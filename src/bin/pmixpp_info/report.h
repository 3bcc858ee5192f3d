// What pmixpp_info prints, rendered as text for people or JSON for scripts.
#ifndef PMIXPP_INFO_REPORT_H
#define PMIXPP_INFO_REPORT_H

#include "framework/src/inventory.h"

#include <string>
#include <vector>

namespace pmixpp::info {

struct Inventory {
    framework::CoreReport core;
    std::vector<framework::FrameworkReport> frameworks;
    std::vector<std::string> warnings;
};

std::string render_text(const Inventory &inventory);
std::string render_json(const Inventory &inventory);

}  // namespace pmixpp::info

#endif
