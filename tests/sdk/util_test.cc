// <pmixpp/util.hpp>: each meaning the helpers promise, and each refusal, since
// the library and every component now read attributes through them.
#include <pmixpp/util.hpp>

#include <criterion/criterion.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

using pmixpp::util::find_info;
using pmixpp::util::flag_set;
using pmixpp::util::key_is;
using pmixpp::util::parse_bool;
using pmixpp::util::parse_unsigned;
using pmixpp::util::read_bool;
using pmixpp::util::read_int;
using pmixpp::util::read_string;
using pmixpp::util::read_unsigned;
using pmixpp::util::UniqueFd;

namespace {

pmix_info_t info_with(const char *key, pmix_data_type_t type)
{
    pmix_info_t info{};
    std::snprintf(info.key, sizeof(info.key), "%s", key);
    info.value.type = type;
    return info;
}

pmix_value_t value_of(pmix_data_type_t type)
{
    pmix_value_t value{};
    value.type = type;
    return value;
}

pmix_value_t string_value(const char *text)
{
    pmix_value_t value = value_of(PMIX_STRING);
    value.data.string = const_cast<char *>(text);
    return value;
}

pmix_value_t bool_value(bool flag)
{
    pmix_value_t value = value_of(PMIX_BOOL);
    value.data.flag = flag;
    return value;
}

bool is_open(int fd)
{
    return fcntl(fd, F_GETFD) != -1;
}

struct Pipe {
    int read_end = -1;
    int write_end = -1;
    Pipe()
    {
        int fds[2];
        cr_assert_eq(pipe(fds), 0);
        read_end = fds[0];
        write_end = fds[1];
    }
};

}  // namespace

// ---- keys ----

Test(sdk_util, key_is_compares_the_whole_key)
{
    const pmix_info_t info = info_with("pmix.coll.data", PMIX_BOOL);
    cr_expect(key_is(info, "pmix.coll.data"));
    cr_expect_not(key_is(info, "pmix.coll"), "a prefix is another key");
    cr_expect_not(key_is(info, "pmix.coll.data.more"), "a longer key is another key");
    cr_expect_not(key_is(info, nullptr));
}

Test(sdk_util, key_is_reads_at_most_the_key_field)
{
    pmix_info_t info{};
    std::memset(info.key, 'k', PMIX_MAX_KEYLEN);
    info.key[PMIX_MAX_KEYLEN] = '\0';
    const std::string longer(PMIX_MAX_KEYLEN + 5, 'k');
    cr_expect(key_is(info, longer.c_str()), "keys compare as PMIX_CHECK_KEY does: PMIX_MAX_KEYLEN characters");
}

Test(sdk_util, find_info_returns_the_first_match_or_null)
{
    pmix_info_t infos[3] = {info_with("a", PMIX_BOOL), info_with("b", PMIX_INT), info_with("b", PMIX_STRING)};
    cr_expect_eq(find_info(infos, 3, "a"), &infos[0]);
    cr_expect_eq(find_info(infos, 3, "b"), &infos[1], "the first of two");
    cr_expect_null(find_info(infos, 3, "c"));
    cr_expect_null(find_info(infos, 1, "b"), "looks no further than ninfo");
    cr_expect_null(find_info(nullptr, 5, "a"), "a NULL array is empty");
    cr_expect_null(find_info(infos, 3, nullptr));
}

Test(sdk_util, find_info_in_a_vector_and_a_data_array)
{
    std::vector<pmix_info_t> infos = {info_with("x", PMIX_BOOL), info_with("y", PMIX_BOOL)};
    cr_expect_eq(find_info(infos, "y"), &infos[1]);
    cr_expect_null(find_info(infos, "z"));

    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = infos.size();
    array.array = infos.data();
    cr_expect_eq(find_info(array, "x"), &infos[0]);
    cr_expect_null(find_info(array, "z"));
    array.type = PMIX_STRING;
    cr_expect_null(find_info(array, "x"), "an array of other things holds no attributes");
    array.type = PMIX_INFO;
    array.array = nullptr;
    cr_expect_null(find_info(array, "x"), "a NULL array is empty");
}

// ---- bools ----

Test(sdk_util, parse_bool_takes_eight_words_in_any_case)
{
    for (const char *yes : {"1", "true", "TRUE", "True", "tRuE", "yes", "Yes", "YES", "on", "On", "ON"}) {
        bool flag = false;
        cr_expect_eq(parse_bool(yes, &flag), PMIX_SUCCESS, "'%s'", yes);
        cr_expect(flag, "'%s' is true", yes);
    }
    for (const char *no : {"0", "false", "FALSE", "False", "no", "No", "NO", "off", "Off", "OFF", "oFf"}) {
        bool flag = true;
        cr_expect_eq(parse_bool(no, &flag), PMIX_SUCCESS, "'%s'", no);
        cr_expect_not(flag, "'%s' is false", no);
    }
}

Test(sdk_util, parse_bool_refuses_anything_else_and_leaves_the_output)
{
    for (const char *bad : {"", "2", "y", "n", "t", "truee", " true", "true ", "enable", "-1", "00", "0x1"}) {
        bool flag = true;
        cr_expect_eq(parse_bool(bad, &flag), PMIX_ERR_BAD_PARAM, "'%s' is not a bool", bad);
        cr_expect(flag, "'%s' changed the output", bad);
    }
}

Test(sdk_util, read_bool_of_each_type)
{
    bool flag = false;
    cr_expect_eq(read_bool(bool_value(true), &flag), PMIX_SUCCESS);
    cr_expect(flag);
    cr_expect_eq(read_bool(bool_value(false), &flag), PMIX_SUCCESS);
    cr_expect_not(flag);

    flag = false;
    cr_expect_eq(read_bool(value_of(PMIX_UNDEF), &flag), PMIX_SUCCESS, "an attribute with no value");
    cr_expect(flag, "with no value a flag is set");

    flag = false;
    cr_expect_eq(read_bool(string_value("Yes"), &flag), PMIX_SUCCESS);
    cr_expect(flag);
    cr_expect_eq(read_bool(string_value("OFF"), &flag), PMIX_SUCCESS);
    cr_expect_not(flag);
}

Test(sdk_util, read_bool_errors)
{
    bool flag = true;
    cr_expect_eq(read_bool(string_value("maybe"), &flag), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(read_bool(string_value(""), &flag), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(read_bool(string_value(nullptr), &flag), PMIX_ERR_BAD_PARAM);
    pmix_value_t number = value_of(PMIX_INT);
    number.data.integer = 0;
    cr_expect_eq(read_bool(number, &flag), PMIX_ERR_TYPE_MISMATCH, "a number is not a bool");
    cr_expect_eq(read_bool(value_of(PMIX_BYTE_OBJECT), &flag), PMIX_ERR_TYPE_MISMATCH);
    cr_expect(flag, "a failed read changed the output");
}

Test(sdk_util, flag_set_is_true_only_for_a_given_true_flag)
{
    pmix_info_t infos[5] = {info_with("on", PMIX_BOOL), info_with("off", PMIX_BOOL), info_with("bare", PMIX_UNDEF),
                            info_with("text", PMIX_STRING), info_with("number", PMIX_INT)};
    infos[0].value.data.flag = true;
    infos[1].value.data.flag = false;
    infos[3].value.data.string = const_cast<char *>("perhaps");
    infos[4].value.data.integer = 1;
    cr_expect(flag_set(infos, 5, "on"));
    cr_expect_not(flag_set(infos, 5, "off"));
    cr_expect(flag_set(infos, 5, "bare"));
    cr_expect_not(flag_set(infos, 5, "text"), "not a bool: a hint is ignored");
    cr_expect_not(flag_set(infos, 5, "number"), "not a bool: a hint is ignored");
    cr_expect_not(flag_set(infos, 5, "absent"));
    cr_expect_not(flag_set(nullptr, 0, "on"));
}

// ---- integers ----

Test(sdk_util, read_unsigned_of_each_integer_type)
{
    struct Case {
        pmix_data_type_t type;
        void (*load)(pmix_value_t &);
    };
    const Case cases[] = {
        {PMIX_INT, [](pmix_value_t &v) { v.data.integer = 7; }},
        {PMIX_INT8, [](pmix_value_t &v) { v.data.int8 = 7; }},
        {PMIX_INT16, [](pmix_value_t &v) { v.data.int16 = 7; }},
        {PMIX_INT32, [](pmix_value_t &v) { v.data.int32 = 7; }},
        {PMIX_INT64, [](pmix_value_t &v) { v.data.int64 = 7; }},
        {PMIX_PID, [](pmix_value_t &v) { v.data.pid = 7; }},
        {PMIX_UINT, [](pmix_value_t &v) { v.data.uint = 7; }},
        {PMIX_UINT8, [](pmix_value_t &v) { v.data.uint8 = 7; }},
        {PMIX_UINT16, [](pmix_value_t &v) { v.data.uint16 = 7; }},
        {PMIX_UINT32, [](pmix_value_t &v) { v.data.uint32 = 7; }},
        {PMIX_UINT64, [](pmix_value_t &v) { v.data.uint64 = 7; }},
        {PMIX_SIZE, [](pmix_value_t &v) { v.data.size = 7; }},
        {PMIX_PROC_RANK, [](pmix_value_t &v) { v.data.rank = 7; }},
    };
    for (const Case &c : cases) {
        pmix_value_t value = value_of(c.type);
        c.load(value);
        uint64_t number = 0;
        cr_expect_eq(read_unsigned(value, 100, &number), PMIX_SUCCESS, "type %d", c.type);
        cr_expect_eq(number, 7u, "type %d", c.type);
        int64_t signed_number = 0;
        cr_expect_eq(read_int(value, -100, 100, &signed_number), PMIX_SUCCESS, "type %d", c.type);
        cr_expect_eq(signed_number, 7, "type %d", c.type);
    }
}

Test(sdk_util, read_unsigned_errors)
{
    uint64_t number = 42;
    pmix_value_t negative = value_of(PMIX_INT8);
    negative.data.int8 = -1;
    cr_expect_eq(read_unsigned(negative, 100, &number), PMIX_ERR_BAD_PARAM, "negative");
    pmix_value_t big = value_of(PMIX_UINT32);
    big.data.uint32 = 101;
    cr_expect_eq(read_unsigned(big, 100, &number), PMIX_ERR_BAD_PARAM, "above max");
    cr_expect_eq(read_unsigned(string_value("7"), 100, &number), PMIX_ERR_TYPE_MISMATCH, "text is not a number");
    cr_expect_eq(read_unsigned(bool_value(true), 100, &number), PMIX_ERR_TYPE_MISMATCH);
    cr_expect_eq(read_unsigned(value_of(PMIX_UNDEF), 100, &number), PMIX_ERR_TYPE_MISMATCH);
    cr_expect_eq(number, 42u, "a failed read changed the output");

    big.data.uint32 = 100;
    cr_expect_eq(read_unsigned(big, 100, &number), PMIX_SUCCESS, "max itself fits");
    cr_expect_eq(number, 100u);
}

Test(sdk_util, read_unsigned_into_a_narrow_type)
{
    pmix_value_t value = value_of(PMIX_UINT32);
    value.data.uint32 = 70000;
    uint16_t narrow = 3;
    cr_expect_eq(read_unsigned(value, &narrow), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(narrow, 3);
    value.data.uint32 = 65535;
    cr_expect_eq(read_unsigned(value, &narrow), PMIX_SUCCESS);
    cr_expect_eq(narrow, 65535);

    pmix_value_t widest = value_of(PMIX_UINT64);
    widest.data.uint64 = std::numeric_limits<uint64_t>::max();
    uint64_t wide = 0;
    cr_expect_eq(read_unsigned(widest, &wide), PMIX_SUCCESS);
    cr_expect_eq(wide, std::numeric_limits<uint64_t>::max());
    uint32_t rank = 0;
    cr_expect_eq(read_unsigned(widest, &rank), PMIX_ERR_BAD_PARAM);
}

Test(sdk_util, read_int_ranges)
{
    int64_t number = 5;
    pmix_value_t negative = value_of(PMIX_INT64);
    negative.data.int64 = -20;
    cr_expect_eq(read_int(negative, -10, 10, &number), PMIX_ERR_BAD_PARAM, "below min");
    cr_expect_eq(read_int(negative, -20, 10, &number), PMIX_SUCCESS);
    cr_expect_eq(number, -20);

    pmix_value_t huge = value_of(PMIX_UINT64);
    huge.data.uint64 = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1;
    number = 5;
    cr_expect_eq(read_int(huge, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), &number),
                 PMIX_ERR_BAD_PARAM, "beyond int64");
    cr_expect_eq(read_int(string_value("1"), 0, 10, &number), PMIX_ERR_TYPE_MISMATCH);
    cr_expect_eq(number, 5);

    pmix_value_t byte = value_of(PMIX_UINT16);
    byte.data.uint16 = 200;
    int8_t small = 1;
    cr_expect_eq(read_int(byte, &small), PMIX_ERR_BAD_PARAM, "200 is no int8");
    cr_expect_eq(small, 1);
    byte.data.uint16 = 127;
    cr_expect_eq(read_int(byte, &small), PMIX_SUCCESS);
    cr_expect_eq(small, 127);
}

Test(sdk_util, parse_unsigned_bases)
{
    uint64_t number = 0;
    cr_expect_eq(parse_unsigned("0660", 0777, 0, &number), PMIX_SUCCESS);
    cr_expect_eq(number, 0660u);
    cr_expect_eq(parse_unsigned("0x1b6", 0777, 0, &number), PMIX_SUCCESS);
    cr_expect_eq(number, 0x1b6u);
    cr_expect_eq(parse_unsigned("438", 0777, 0, &number), PMIX_SUCCESS);
    cr_expect_eq(number, 438u);
    cr_expect_eq(parse_unsigned("0", 0777, 0, &number), PMIX_SUCCESS);
    cr_expect_eq(number, 0u);
    cr_expect_eq(parse_unsigned("0660", 65535, 10, &number), PMIX_SUCCESS, "base 10 reads a leading 0 as decimal");
    cr_expect_eq(number, 660u);
}

Test(sdk_util, parse_unsigned_errors)
{
    uint64_t number = 9;
    for (const char *bad : {"", "-1", "+1", " 1", "1 ", "12a", "0x", "08", "1000"}) {
        cr_expect_eq(parse_unsigned(bad, 0777, 0, &number), PMIX_ERR_BAD_PARAM, "'%s'", bad);
    }
    cr_expect_eq(parse_unsigned("65536", 65535, 10, &number), PMIX_ERR_BAD_PARAM, "above max");
    cr_expect_eq(parse_unsigned("99999999999999999999999", UINT64_MAX, 10, &number), PMIX_ERR_BAD_PARAM,
                 "beyond 64 bits");
    cr_expect_eq(number, 9u, "a failed parse changed the output");
}

// ---- strings ----

Test(sdk_util, read_string_cases)
{
    std::string text = "kept";
    cr_expect_eq(read_string(value_of(PMIX_INT), &text), PMIX_ERR_TYPE_MISMATCH);
    cr_expect_eq(read_string(string_value(nullptr), &text), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(text, "kept");
    cr_expect_eq(read_string(string_value(""), &text), PMIX_SUCCESS, "the empty string is a string");
    cr_expect_eq(text, "");
    cr_expect_eq(read_string(string_value("/tmp/x"), &text), PMIX_SUCCESS);
    cr_expect_eq(text, "/tmp/x");
}

// ---- UniqueFd ----

Test(sdk_util, unique_fd_closes_when_it_goes)
{
    const Pipe p;
    {
        const UniqueFd owner(p.read_end);
        cr_expect_eq(owner.get(), p.read_end);
        cr_expect(static_cast<bool>(owner));
    }
    cr_expect_not(is_open(p.read_end), "not closed at the end of its scope");
    UniqueFd(p.write_end).reset();
    cr_expect_not(is_open(p.write_end));
}

Test(sdk_util, unique_fd_empty)
{
    UniqueFd none;
    cr_expect_eq(none.get(), -1);
    cr_expect_not(static_cast<bool>(none));
    cr_expect_eq(none.close(), 0, "closing nothing is no error");
    none.reset();
    cr_expect_eq(none.release(), -1);
}

Test(sdk_util, unique_fd_release_gives_up_ownership)
{
    const Pipe p;
    int kept = -1;
    {
        UniqueFd owner(p.read_end);
        kept = owner.release();
        cr_expect_eq(owner.get(), -1);
        cr_expect_not(static_cast<bool>(owner));
    }
    cr_expect_eq(kept, p.read_end);
    cr_expect(is_open(kept), "release closed it");
    close(kept);
    close(p.write_end);
}

Test(sdk_util, unique_fd_reset_closes_the_old_one)
{
    const Pipe p;
    UniqueFd owner(p.read_end);
    owner.reset(p.write_end);
    cr_expect_not(is_open(p.read_end));
    cr_expect(is_open(p.write_end));
    owner.reset(p.write_end);
    cr_expect(is_open(p.write_end), "resetting to the same descriptor closed it");
    owner.reset();
    cr_expect_not(is_open(p.write_end));
    cr_expect_eq(owner.get(), -1);
}

Test(sdk_util, unique_fd_moves)
{
    const Pipe p;
    UniqueFd first(p.read_end);
    UniqueFd second(std::move(first));
    cr_expect_eq(first.get(), -1, "a moved-from owner holds nothing");
    cr_expect_eq(second.get(), p.read_end);

    UniqueFd third(p.write_end);
    third = std::move(second);
    cr_expect_not(is_open(p.write_end), "assignment closed nothing it replaced");
    cr_expect_eq(third.get(), p.read_end);
    cr_expect(is_open(p.read_end));
}

Test(sdk_util, unique_fd_close_reports_the_result)
{
    const Pipe p;
    UniqueFd owner(p.read_end);
    cr_expect_eq(owner.close(), 0);
    cr_expect_eq(owner.get(), -1);
    cr_expect_not(is_open(p.read_end));
    close(p.write_end);

    UniqueFd stale(p.write_end);  // already closed above
    errno = 0;
    cr_expect_eq(stale.close(), -1);
    cr_expect_eq(errno, EBADF);
    cr_expect_eq(stale.get(), -1, "a failed close still gives the number up");
}
