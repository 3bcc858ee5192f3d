// pmixpp_info: lists the frameworks, the components the core discovers, which
// of them the current environment selects (and why the others are not), the
// parameters with their values and sources, and the loader's warnings.
#include "report.h"

#include <cstdio>
#include <cstring>
#include <new>

namespace {

const char usage_text[] =
    "Usage: pmixpp_info [--json] [--help] [--version]\n"
    "\n"
    "Shows what the pmixpp component core finds and selects under the current\n"
    "environment: the core's parameters, component directories and param files;\n"
    "frameworks, components (version, priority, file, selected or\n"
    "why not), parameters with value and source, and warnings.\n"
    "\n"
    "  --json     print the same as one JSON object\n"
    "  --help     print this text\n"
    "  --version  print the pmixpp version and the PMIx ABI it provides\n"
    "\n"
    "Environment: PMIX_MCA_<framework>=[^]a,b selects or excludes components,\n"
    "PMIX_MCA_mca_base_component_path adds component directories (':'-separated).\n";

enum class Format { text, json };

struct Options {
    Format format = Format::text;
    bool help = false;
    bool version = false;
};

// Returns false (after a message on stderr) for an unknown argument.
bool parse_options(int argc, char **argv, Options *options_p)
{
    Options options;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (std::strcmp(arg, "--json") == 0) {
            options.format = Format::json;
        } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
            options.help = true;
        } else if (std::strcmp(arg, "--version") == 0 || std::strcmp(arg, "-V") == 0) {
            options.version = true;
        } else {
            std::fprintf(stderr, "pmixpp_info: unknown argument '%s' (see pmixpp_info --help)\n", arg);
            return false;
        }
    }
    *options_p = options;
    return true;
}

int run(const Options &options)
{
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
    const std::string out = options.format == Format::json ? pmixpp::info::render_json(inventory)
                                                           : pmixpp::info::render_text(inventory);
    std::fputs(out.c_str(), stdout);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    if (!parse_options(argc, argv, &options)) {
        return 2;
    }
    if (options.help) {
        std::fputs(usage_text, stdout);
        return 0;
    }
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
