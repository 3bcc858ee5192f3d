// pmixrun's reading of Open MPI's help messages (open_mpi_log.h): the text
// of a well-formed one, and a clear "no" for anything else a client logs as
// bytes (truncated, extra bytes, wrong counts, no NUL, no text). The real
// thing is checked in compat_open_mpi (MPI_Abort under pmixrun).
#include "bin/pmixrun/open_mpi_log.h"

#include <criterion/criterion.h>

#include <cstdint>
#include <string>

using pmixrun::open_mpi_help_text;

namespace {

void u32(std::string &out, uint32_t value)
{
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xff));
}

void packed_string(std::string &out, const std::string &text)
{
    u32(out, 1);
    u32(out, static_cast<uint32_t>(text.size() + 1));
    out += text;
    out.push_back('\0');
}

std::string help_message(const std::string &text)
{
    std::string out;
    packed_string(out, "help-mpi-api.txt");
    packed_string(out, "mpi-abort");
    u32(out, 1);
    out.push_back(1);
    packed_string(out, text);
    return out;
}

bool decode(std::string bytes, std::string *text_p)
{
    pmix_byte_object_t bo{bytes.data(), bytes.size()};
    return open_mpi_help_text(bo, text_p);
}

}  // namespace

Test(pmixrun_open_mpi_log, a_help_message_gives_its_text)
{
    std::string text;
    cr_assert(decode(help_message("MPI_ABORT was invoked\non rank 1\n"), &text));
    cr_expect_eq(text, "MPI_ABORT was invoked\non rank 1\n");
}

Test(pmixrun_open_mpi_log, anything_else_is_not_one)
{
    std::string text;
    const std::string good = help_message("text");
    cr_expect(!decode("", &text));
    cr_expect(!decode("plain words logged as bytes", &text));
    for (std::size_t cut = 0; cut < good.size(); ++cut) {
        cr_expect(!decode(good.substr(0, cut), &text), "cut at %zu accepted", cut);
    }
    cr_expect(!decode(good + "x", &text), "trailing bytes accepted");
    std::string two = good;
    two[3] = 2;  // a count of 2 values in the first pack call
    cr_expect(!decode(two, &text));
    std::string no_nul = good;
    no_nul[8 + 16] = 'x';  // the file name's NUL
    cr_expect(!decode(no_nul, &text));
    std::string huge = good;
    huge[4] = '\x7f';  // a length past the end
    cr_expect(!decode(huge, &text));
    std::string no_text;
    packed_string(no_text, "help-mpi-api.txt");
    packed_string(no_text, "mpi-abort");
    u32(no_text, 1);
    no_text.push_back(0);
    cr_expect(!decode(no_text, &text), "a message without text accepted");
    cr_expect(!open_mpi_help_text(pmix_byte_object_t{nullptr, 12}, &text));
}
