// How every pmixpp program reads its command line with CLI11: --help (-h)
// prints the options to stdout and exits 0; an error is one line on stderr
// that names the option and where to look, with exit code 2 (CLI11's own
// codes would differ per error). pmixrun splits its MPMD command line first
// and uses the same conventions.
#ifndef PMIXPP_BIN_COMMON_COMMAND_LINE_H
#define PMIXPP_BIN_COMMON_COMMAND_LINE_H

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>

namespace pmixpp::bin {

inline constexpr int kUsageExit = 2;

// One line for a command-line error, pointing at --help.
inline int usage_error(const std::string &program, const std::string &what)
{
    std::fprintf(stderr, "%s: %s (%s --help lists the options)\n", program.c_str(), what.c_str(), program.c_str());
    return kUsageExit;
}

// The same -h,--help wording in every program.
inline void standard_help(CLI::App &cli)
{
    cli.set_help_flag("-h,--help", "print this help and exit");
}

// std::nullopt: go on; otherwise the exit code (help printed, or an error).
inline std::optional<int> parse_command_line(CLI::App &cli, int argc, char **argv)
{
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp &) {
        std::fputs(cli.help().c_str(), stdout);
        return 0;
    } catch (const CLI::ParseError &e) {
        return usage_error(cli.get_name(), e.what());
    }
    return std::nullopt;
}

}  // namespace pmixpp::bin

#endif
