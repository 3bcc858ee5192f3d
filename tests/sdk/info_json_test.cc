// pmixpp_info's JSON (render_json, written with nlohmann/json) read back by
// an independent strict reader (json_mini): every string, however odd,
// comes out as valid JSON that reads back to the same bytes; bytes that are
// not UTF-8 become U+FFFD instead of breaking the document.
#include "json_mini.h"
#include "bin/pmixpp_info/report.h"

#include <criterion/criterion.h>

// Criterion's Test() macro expands to a C-style cast.
#pragma GCC diagnostic ignored "-Wold-style-cast"

using pmixpp::info::Inventory;
using pmixpp::info::render_json;
using pmixpp::tests::json_parse;
using pmixpp::tests::JsonValue;

namespace {

Inventory one_component_named(const std::string &name, const std::string &reason)
{
    Inventory inventory;
    pmixpp::framework::FrameworkReport fw;
    fw.name = "pnet";
    fw.multi_select = true;
    fw.selected = {name};
    fw.components.push_back({name, "1.0.0", 42, "/lib/" + name + ".so", false, reason});
    fw.params.push_back({"PMIX_MCA_pnet", "^" + name, "environment", "help with \"quotes\"\n"});
    inventory.frameworks.push_back(fw);
    inventory.core.component_directories = {"/a", "/b"};
    inventory.warnings = {"line one", "tab\there"};
    return inventory;
}

JsonValue parsed(const std::string &text)
{
    JsonValue doc;
    std::string error;
    cr_assert(json_parse(text, &doc, &error), "invalid JSON (%s):\n%s", error.c_str(), text.c_str());
    return doc;
}

}  // namespace

Test(info_json, awkward_strings_round_trip)
{
    const std::string awkward = std::string("tab\there \"quoted\" back\\slash \x02 caf\xc3\xa9");
    const JsonValue doc = parsed(render_json(one_component_named("vendor", awkward)));
    const JsonValue *frameworks = doc.member("frameworks");
    cr_assert(frameworks != nullptr && frameworks->array.size() == 1u);
    const JsonValue &fw = frameworks->array[0];
    cr_expect(fw.member("multi_select")->boolean);
    const JsonValue &component = fw.member("components")->array.at(0);
    cr_expect(component.member("reason")->string == awkward, "reason '%s'", component.member("reason")->string.c_str());
    cr_expect_eq(component.member("priority")->number, 42);
    cr_expect_eq(component.member("selected")->kind, JsonValue::Kind::boolean);
    cr_expect(fw.member("params")->array.at(0).member("help")->string == "help with \"quotes\"\n");
    cr_expect_eq(doc.member("core")->member("component_directories")->array.size(), 2u);
    cr_expect(doc.member("warnings")->array.at(1).string == "tab\there");
}

Test(info_json, bytes_that_are_not_utf8_become_replacement_characters)
{
    const JsonValue doc = parsed(render_json(one_component_named("vendor", std::string("bad \xff\xfe end"))));
    const std::string reason =
        doc.member("frameworks")->array.at(0).member("components")->array.at(0).member("reason")->string;
    cr_expect(reason == "bad \xef\xbf\xbd\xef\xbf\xbd end", "reason '%s'", reason.c_str());
}

Test(info_json, members_keep_their_documented_order)
{
    const std::string text = render_json(one_component_named("vendor", ""));
    const std::size_t version = text.find("\"version\"");
    const std::size_t core = text.find("\"core\"");
    const std::size_t frameworks = text.find("\"frameworks\"");
    const std::size_t warnings = text.find("\"warnings\"");
    cr_expect(version < core && core < frameworks && frameworks < warnings, "%s", text.c_str());
}

Test(info_json, reader_rejects_raw_control_characters)
{
    JsonValue doc;
    std::string error;
    cr_assert_not(json_parse("{\"a\": \"x\ny\"}", &doc, &error));
    cr_assert_not(json_parse("{\"a\": 1,}", &doc, &error));
}
