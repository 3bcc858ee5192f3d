// framework/src/text_file.h: the POSIX reading and writing of small text
// files that replaced iostreams in the library.
#include "framework/src/text_file.h"

#include "scratch_directory.h"

#include <criterion/criterion.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

using namespace pmixpp::framework;

TestSuite(text_file, .fini = scratch::remove_made);

Test(text_file, written_then_read_back_whole)
{
    const std::string path = scratch::fresh("text") + "/file";
    std::string text(10000, 'x');
    text += "\nlast line without newline";
    cr_assert(replace_text_file(path, text));
    std::string read;
    cr_assert(read_text_file(path, &read));
    cr_expect(read == text, "read %zu bytes, wrote %zu", read.size(), text.size());
    cr_expect_not(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())), "temporary left behind");
}

Test(text_file, a_missing_or_too_long_file_is_refused)
{
    const std::string directory = scratch::fresh("text");
    std::string read = "unchanged";
    cr_expect_not(read_text_file(directory + "/absent", &read));
    cr_assert(replace_text_file(directory + "/long", std::string(5000, 'y')));
    cr_expect_not(read_text_file(directory + "/long", &read, 4096), "5000 bytes past a 4096-byte limit");
    cr_expect(read == "unchanged", "a refused read leaves the output alone");
}

Test(text_file, a_write_that_cannot_happen_leaves_nothing)
{
    const std::string directory = scratch::fresh("text");
    cr_expect_not(replace_text_file(directory + "/no/such/dir/file", "text"));
    cr_expect(std::filesystem::is_empty(directory), "something was left in %s", directory.c_str());
}

Test(text_file, lines_and_fields)
{
    const std::vector<std::string_view> lines = lines_of("one\n\nthree\n");
    cr_assert_eq(lines.size(), 3u);
    cr_expect(lines[0] == "one" && lines[1].empty() && lines[2] == "three");

    std::vector<std::string_view> fields;
    std::string_view rest;
    cr_assert(split_fields("  gds\tshmem 30   the rest of it ", 3, &fields, &rest));
    cr_expect(fields[0] == "gds" && fields[1] == "shmem" && fields[2] == "30");
    cr_expect(rest == "the rest of it ", "rest '%.*s'", static_cast<int>(rest.size()), rest.data());
    cr_expect_not(split_fields("only two", 3, &fields, &rest), "fewer fields than asked");
}
