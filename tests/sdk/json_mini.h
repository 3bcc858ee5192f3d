// A small strict JSON reader for the SDK tests: enough to check that
// pmixpp_info --json is valid JSON and to look values up in it.
#ifndef PMIXPP_TESTS_SDK_JSON_MINI_H
#define PMIXPP_TESTS_SDK_JSON_MINI_H

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::tests {

struct JsonValue {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<JsonValue> array;
    std::map<std::string, JsonValue> object;

    // nullptr when this is not an object or has no such member.
    const JsonValue *member(const std::string &name) const;
};

// Parses exactly one JSON value (surrounding whitespace allowed). Returns
// false and sets *error_p on malformed input.
bool json_parse(std::string_view text, JsonValue *value_p, std::string *error_p);

}  // namespace pmixpp::tests

#endif
