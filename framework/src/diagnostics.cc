#include "diagnostics.h"

#include <cstdio>
#include <mutex>

namespace pmixpp::framework {
namespace {

// Bounded so a process that keeps re-selecting cannot grow without limit.
constexpr std::size_t max_recorded_lines = 1000;

constinit std::mutex lines_mutex;
std::vector<std::string> *lines = nullptr;  // created on first use, never destroyed at exit

void print_and_record(std::string_view line)
{
    std::string text = "pmixpp: ";
    text += line;
    text += '\n';
    std::lock_guard lock(lines_mutex);
    // One fputs per line so concurrent writers do not interleave mid-line.
    std::fputs(text.c_str(), stderr);
    try {
        if (lines == nullptr) lines = new std::vector<std::string>;
        if (lines->size() < max_recorded_lines) lines->emplace_back(line);
    } catch (const std::bad_alloc &) {
        // Remembering is a convenience; the line was printed already.
    }
}

}  // namespace

void warn(std::string_view line)
{
    print_and_record(line);
}

void trace(int verbosity, std::string_view line)
{
    if (verbosity > 0) print_and_record(line);
}

void clear_recorded_lines()
{
    std::lock_guard lock(lines_mutex);
    if (lines != nullptr) lines->clear();
}

std::vector<std::string> recorded_lines()
{
    std::lock_guard lock(lines_mutex);
    if (lines == nullptr) return {};
    return *lines;
}

}  // namespace pmixpp::framework
