// Small text files (parameter files, the component index) read and written
// with POSIX calls instead of iostreams. The library and every component
// carry their own copy of the C++ runtime (static), and one stream links in
// libstdc++'s locale machinery (some 500 KB) and sets it up in every
// process that reads a file at start-up.
#ifndef PMIXPP_FRAMEWORK_TEXT_FILE_H
#define PMIXPP_FRAMEWORK_TEXT_FILE_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::framework {

// The whole file into *text_p; false when it cannot be opened or read, or
// is longer than `limit` bytes.
bool read_text_file(const std::string &path, std::string *text_p, std::size_t limit = 1 << 20);

// `text` into `path` through a temporary file renamed over it, so a reader
// sees the old file or the new one, never half of one. False on any error
// (the temporary is removed).
bool replace_text_file(const std::string &path, std::string_view text);

// The lines of `text`, without their '\n'.
std::vector<std::string_view> lines_of(std::string_view text);

// The first `count` whitespace-separated fields of `line`, and in *rest_p
// what follows them with leading blanks dropped; false when fewer.
bool split_fields(std::string_view line, std::size_t count, std::vector<std::string_view> *fields_p,
                  std::string_view *rest_p);

}  // namespace pmixpp::framework

#endif
