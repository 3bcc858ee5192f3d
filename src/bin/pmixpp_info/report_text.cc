// pmixpp_info's text report: one block per framework, then the warnings.
#include "report.h"

#include <algorithm>
#include <string>

namespace pmixpp::info {
namespace {

std::string join(const std::vector<std::string> &items, const char *separator)
{
    std::string joined;
    for (const auto &item : items) {
        if (!joined.empty()) {
            joined += separator;
        }
        joined += item;
    }
    return joined;
}

std::string padded(const std::string &text, size_t width)
{
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

void append_components(std::string &out, const framework::FrameworkReport &fw)
{
    if (fw.components.empty()) {
        out += "  components: none found\n";
        return;
    }
    size_t name_width = 0;
    for (const auto &component : fw.components) {
        name_width = std::max(name_width, component.name.size());
    }
    out += "  components:\n";
    for (const auto &component : fw.components) {
        // "-" when the descriptor could not be read (an excluded broken file).
        const std::string version = component.version.empty() ? "-" : component.version;
        const std::string reason = component.reason.empty() ? "-" : component.reason;
        out += "    " + padded(component.name, name_width) + "  " + padded(version, 8) + "  priority " +
               padded(std::to_string(component.priority), 4) + "  ";
        out += component.selected ? "selected" : "not selected: " + reason;
        out += "\n      " + component.path + "\n";
    }
}

void append_params(std::string &out, const std::vector<framework::ParamReport> &params)
{
    if (params.empty()) {
        return;
    }
    out += "  params:\n";
    for (const auto &param : params) {
        out += "    " + param.name + " = \"" + param.value + "\"  (" + param.source + ")\n";
        if (!param.help.empty()) {
            out += "      " + param.help + "\n";
        }
    }
}

// Where the core looks: component directories in search order, param files.
void append_core(std::string &out, const framework::CoreReport &core)
{
    out += "\ncore\n";
    out += "  component directories (searched in this order):\n";
    for (const auto &directory : core.component_directories) {
        out += "    " + directory + "\n";
    }
    out += "  param files:\n";
    out += "    system: " + core.system_param_file + "\n";
    out += "    user:   " +
           (core.user_param_file.empty() ? std::string("none ($HOME is not set)") : core.user_param_file) + "\n";
    append_params(out, core.params);
}

}  // namespace

std::string render_text(const Inventory &inventory)
{
    std::string out = "pmixpp " PMIXPP_INFO_VERSION " (libpmix ABI of PMIx " PMIXPP_INFO_PMIX_VERSION ")\n";
    append_core(out, inventory.core);
    for (const auto &fw : inventory.frameworks) {
        out += "\nframework " + fw.name + (fw.multi_select ? " (multi-select)\n" : " (single-select)\n");
        out += "  selected: " + (fw.selected.empty() ? std::string("none") : join(fw.selected, ", ")) + "\n";
        append_components(out, fw);
        append_params(out, fw.params);
    }
    if (!inventory.warnings.empty()) {
        out += "\nwarnings:\n";
        for (const auto &line : inventory.warnings) {
            out += "  " + line + "\n";
        }
    }
    return out;
}

}  // namespace pmixpp::info
