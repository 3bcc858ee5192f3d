// pmixpp_info: lists the frameworks, the components the core discovers, which
// of them the current environment selects (and why the others are not), the
// parameters with their values and sources, and the loader's warnings.
#include "report.h"

#include "framework/src/component_index.h"

#include "bin/common/command_line.h"

#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace {

enum class Format { text, json };

struct Options {
    Format format = Format::text;
    bool version = false;
    std::string index_directory;  // --write-index
};

// std::nullopt: go on with *options_p; otherwise the exit code.
std::optional<int> parse_options(int argc, char **argv, Options *options_p)
{
    CLI::App cli{"Shows what the pmixpp component core finds and selects under the current environment: the "
                 "core's parameters, component directories and param files; frameworks, components (version, "
                 "priority, file, selected or why not), parameters with value and source, and warnings.",
                 "pmixpp_info"};
    pmixpp::bin::standard_help(cli);
    bool json = false;
    cli.add_flag("--json", json, "print the same as one JSON object");
    cli.add_flag("-V,--version", options_p->version, "print the pmixpp version and the PMIx ABI it provides");
    cli.add_option("--write-index", options_p->index_directory,
                   "write the component index of DIR (" + std::string(pmixpp::framework::component_index_file) +
                       "), which lets every process choose components without loading each one; "
                       "run it again after adding or replacing a component there")
        ->type_name("DIR");
    cli.footer("Environment: PMIX_MCA_<framework>=[^]a,b selects or excludes components,\n"
               "PMIX_MCA_mca_base_component_path adds component directories (':'-separated).");
    if (auto code = pmixpp::bin::parse_command_line(cli, argc, argv)) return code;
    options_p->format = json ? Format::json : Format::text;
    return std::nullopt;
}

int write_index(const std::string &directory)
{
    std::vector<std::string> lines;
    const pmix_status_t rc = pmixpp::framework::write_component_index(directory, &lines);
    for (const auto &line : lines) std::fprintf(stderr, "pmixpp_info: %s\n", line.c_str());
    if (rc == PMIX_ERR_NOT_FOUND) {
        std::fprintf(stderr, "pmixpp_info: %s holds no pmixpp_<framework>_<name>.so file: no index written\n",
                     directory.c_str());
        return 1;
    }
    if (rc != PMIX_SUCCESS) {
        std::fprintf(stderr, "pmixpp_info: cannot write %s/%s (check that the directory is writable)\n",
                     directory.c_str(), pmixpp::framework::component_index_file);
        return 1;
    }
    return 0;
}

int run(const Options &options)
{
    if (!options.index_directory.empty()) return write_index(options.index_directory);
    pmixpp::info::Inventory inventory;
    pmix_status_t rc = pmixpp::framework::inventory(&inventory.frameworks);
    inventory.warnings = pmixpp::framework::warnings();
    if (rc == PMIX_SUCCESS) {
        rc = pmixpp::framework::core_inventory(&inventory.core);
    }
    if (rc != PMIX_SUCCESS) {
        std::fprintf(stderr, "pmixpp_info: component selection failed (PMIx status %d)\n", static_cast<int>(rc));
        for (const auto &line : inventory.warnings) {
            std::fprintf(stderr, "pmixpp_info: %s\n", line.c_str());
        }
        std::fprintf(stderr, "pmixpp_info: check the PMIX_MCA_* variables and component files named above\n");
        return 1;
    }
    const std::string out =
        options.format == Format::json ? pmixpp::info::render_json(inventory) : pmixpp::info::render_text(inventory);
    std::fputs(out.c_str(), stdout);
    return 0;
}

}  // namespace

int main(int argc, char **argv)
{
    Options options;
    if (auto code = parse_options(argc, argv, &options)) return *code;
    if (options.version) {
        std::printf("pmixpp_info %s (PMIx %s ABI)\n", PMIXPP_INFO_VERSION, PMIXPP_INFO_PMIX_VERSION);
        return 0;
    }
    try {
        return run(options);
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "pmixpp_info: out of memory\n");
    }
    return 1;
}
