// Helpers shared by the regex tests.
#pragma once

#include <criterion/criterion.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/regex/regex.h"

namespace regex_test {

inline std::string join(const std::vector<std::string> &parts, char sep)
{
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0) joined += sep;
        joined += parts[i];
    }
    return joined;
}

// Everything we hand out must print: tag first, then printable ASCII only.
inline void expect_printable_map(const std::string &regex)
{
    cr_expect(regex.starts_with(pmixpp::regex::kFormatTag), "no format tag: %s", regex.c_str());
    for (const char c : regex) {
        const auto byte = static_cast<unsigned char>(c);
        cr_expect(byte >= 0x21 && byte <= 0x7e, "unprintable byte 0x%02x in %s", byte, regex.c_str());
    }
}

inline std::string ranks_text(const std::vector<std::vector<pmix_rank_t>> &nodes)
{
    std::vector<std::string> fields;
    for (const auto &ranks : nodes) {
        std::vector<std::string> items;
        for (const pmix_rank_t rank : ranks) items.push_back(std::to_string(rank));
        fields.push_back(join(items, ','));
    }
    return join(fields, ';');
}

}  // namespace regex_test
