// pmixpp_info's JSON writer: every string, however odd, comes out as valid
// JSON that reads back to the same bytes.
#include "json_mini.h"
#include "bin/pmixpp_info/json_writer.h"

#include <criterion/criterion.h>

// Criterion's Test() macro expands to a C-style cast.
#pragma GCC diagnostic ignored "-Wold-style-cast"

using pmixpp::info::json_escape;
using pmixpp::info::JsonWriter;
using pmixpp::tests::json_parse;
using pmixpp::tests::JsonValue;

// Compared as std::string: Criterion's string macros would keep a pointer
// into the temporary returned by json_escape.
static void expect_escaped(const std::string &raw, const std::string &expected)
{
    const std::string escaped = json_escape(raw);
    cr_assert(escaped == expected, "escaped '%s', expected '%s'", escaped.c_str(), expected.c_str());
}

Test(info_json, escapes_quotes_backslashes_and_controls)
{
    expect_escaped("a\"b\\c", "a\\\"b\\\\c");
    expect_escaped("\n\t\r\b\f", "\\n\\t\\r\\b\\f");
    expect_escaped(std::string("\x01\x1f", 2), "\\u0001\\u001f");
    expect_escaped("/plain/path.so", "/plain/path.so");
}

Test(info_json, nested_document_round_trips)
{
    const std::string awkward = std::string("tab\there \"quoted\" back\\slash \x02 caf\xc3\xa9");
    std::string out;
    JsonWriter json(&out);
    json.begin_object();
    json.member("name", awkward);
    json.member("count", 42);
    json.member("flag", false);
    json.key("empty");
    json.begin_array();
    json.end_array();
    json.key("list");
    json.begin_array();
    json.string("x");
    json.begin_object();
    json.member("inner", true);
    json.end_object();
    json.end_array();
    json.end_object();

    JsonValue doc;
    std::string error;
    cr_assert(json_parse(out, &doc, &error), "invalid JSON (%s):\n%s", error.c_str(), out.c_str());
    cr_assert(doc.member("name")->string == awkward);
    cr_assert_eq(doc.member("count")->number, 42);
    cr_assert_eq(doc.member("flag")->kind, JsonValue::Kind::boolean);
    cr_assert_eq(doc.member("empty")->array.size(), 0u);
    cr_assert_eq(doc.member("list")->array.size(), 2u);
    cr_assert(doc.member("list")->array[1].member("inner")->boolean);
}

Test(info_json, reader_rejects_raw_control_characters)
{
    JsonValue doc;
    std::string error;
    cr_assert_not(json_parse("{\"a\": \"x\ny\"}", &doc, &error));
    cr_assert_not(json_parse("{\"a\": 1,}", &doc, &error));
}
