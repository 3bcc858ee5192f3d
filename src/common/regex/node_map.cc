// Node map codec: "n0001,n0002,...,login" <-> "pmixpp1:n[0001-0002],login".
// Grammar and examples: regex.h, docs/regex.md.
#include "common/regex/regex.h"
#include "common/regex/scan.h"

#include <algorithm>
#include <cstdint>
#include <new>

namespace pmixpp::regex {
namespace {

using internal::Cursor;
using internal::refuse;

constexpr std::string_view kNodeFix = "pass the output of PMIx_generate_regex or a plain comma-separated list of names";

// ---- generation ----------------------------------------------------------

struct DigitRun {
    std::size_t begin;
    std::size_t length;
};

// Pads that reproduce `digits` when the number is printed zero-padded: a
// leading zero pins the pad to the exact length, otherwise any pad up to it.
struct WidthRange {
    std::size_t min;
    std::size_t max;
};

WidthRange widths_printing(std::string_view digits)
{
    if (digits.front() == '0') return {digits.size(), digits.size()};
    return {1, digits.size()};
}

std::uint64_t value_of(std::string_view digits)
{
    std::uint64_t value = 0;
    for (const char c : digits) value = value * 10 + static_cast<std::uint64_t>(c - '0');
    return value;
}

// Maximal digit runs short enough to be numbers, so a group's prefix never
// ends and its suffix never starts with a digit.
std::vector<DigitRun> number_candidates(std::string_view name)
{
    std::vector<DigitRun> runs;
    std::size_t i = 0;
    while (i < name.size()) {
        if (!internal::is_digit(name[i])) {
            ++i;
            continue;
        }
        const std::size_t begin = i;
        while (i < name.size() && internal::is_digit(name[i])) ++i;
        if (i - begin <= internal::kMaxDigits) runs.push_back({begin, i - begin});
    }
    return runs;
}

// Consecutive names <prefix><number><suffix>; an empty `numbers` marks a
// name kept literally.
struct NameGroup {
    std::string_view literal;
    std::string_view prefix;
    std::string_view suffix;
    WidthRange width{1, 1};
    std::vector<std::uint64_t> numbers;
};

bool try_add(NameGroup *group_p, std::string_view name)
{
    if (group_p->numbers.empty()) return false;
    const std::size_t fixed = group_p->prefix.size() + group_p->suffix.size();
    if (name.size() <= fixed || !name.starts_with(group_p->prefix) || !name.ends_with(group_p->suffix)) {
        return false;
    }
    const std::string_view digits = name.substr(group_p->prefix.size(), name.size() - fixed);
    if (digits.size() > internal::kMaxDigits) return false;
    for (const char c : digits) {
        if (!internal::is_digit(c)) return false;
    }
    const WidthRange fits = widths_printing(digits);
    const WidthRange both{std::max(fits.min, group_p->width.min), std::min(fits.max, group_p->width.max)};
    if (both.min > both.max) return false;
    group_p->width = both;
    group_p->numbers.push_back(value_of(digits));
    return true;
}

NameGroup group_around(std::string_view name, DigitRun run)
{
    NameGroup group;
    group.literal = name;
    group.prefix = name.substr(0, run.begin);
    group.suffix = name.substr(run.begin + run.length);
    const std::string_view digits = name.substr(run.begin, run.length);
    group.width = widths_printing(digits);
    group.numbers.push_back(value_of(digits));
    return group;
}

// Picks the digit run the next name varies in (e.g. "n1.r3" followed by
// "n2.r3" groups on the first run); by default the last one, as in IPv4.
NameGroup start_group(std::string_view name, const std::string_view *next)
{
    const std::vector<DigitRun> runs = number_candidates(name);
    if (runs.empty()) return NameGroup{name, {}, {}, {1, 1}, {}};
    for (auto it = runs.rbegin(); next != nullptr && it != runs.rend(); ++it) {
        NameGroup trial = group_around(name, *it);
        if (try_add(&trial, *next)) return group_around(name, *it);
    }
    return group_around(name, runs.back());
}

void append_padded(std::uint64_t value, std::size_t width, std::string *out_p)
{
    const std::string digits = std::to_string(value);
    if (digits.size() < width) out_p->append(width - digits.size(), '0');
    *out_p += digits;
}

void append_group(const NameGroup &group, std::string *out_p)
{
    if (group.numbers.size() <= 1) {
        internal::append_escaped(group.literal, out_p);
        return;
    }
    internal::append_escaped(group.prefix, out_p);
    *out_p += '[';
    const std::vector<std::uint64_t> &numbers = group.numbers;
    for (std::size_t i = 0; i < numbers.size();) {
        std::size_t last = i;
        while (last + 1 < numbers.size() && numbers[last + 1] == numbers[last] + 1) ++last;
        if (i > 0) *out_p += ',';
        append_padded(numbers[i], group.width.min, out_p);
        if (last > i) {
            *out_p += '-';
            append_padded(numbers[last], group.width.min, out_p);
        }
        i = last + 1;
    }
    *out_p += ']';
    internal::append_escaped(group.suffix, out_p);
}

pmix_status_t check_name_bytes(std::string_view input, std::size_t pos, std::string_view name)
{
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (!internal::is_allowed_in_name(name[i])) {
            return refuse("control character in a node name", input, pos + i, kNodeFix);
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t split_node_list(std::string_view input, std::vector<std::string_view> *names_p)
{
    std::vector<std::string_view> names = internal::split(input, ',');
    if (names.size() > kMaxNames) {
        return refuse("node list has too many names", input, 0, "split the job");
    }
    std::size_t pos = 0;
    for (const std::string_view name : names) {
        if (name.empty()) return refuse("empty node name in the node list", input, pos, kNodeFix);
        const pmix_status_t rc = check_name_bytes(input, pos, name);
        if (rc != PMIX_SUCCESS) return rc;
        pos += name.size() + 1;
    }
    *names_p = std::move(names);
    return PMIX_SUCCESS;
}

// ---- parsing ---------------------------------------------------------------

struct NumberRange {
    std::uint64_t first;
    std::uint64_t last;
    std::size_t width;
};

// One parsed item: a literal name (no ranges) or prefix[ranges]suffix.
struct MapItem {
    std::string prefix;
    std::vector<NumberRange> ranges;
    std::string suffix;
};

// Counts what the items will expand to, so nothing is expanded before the
// whole map is known to stay within kMaxNames and internal::kMaxNameBytes.
class ExpansionBudget {
public:
    bool take(std::uint64_t count, std::uint64_t bytes_each)
    {
        if (count > kMaxNames - names_) return false;
        if (bytes_each > internal::kMaxNameBytes || count > (internal::kMaxNameBytes - bytes_) / bytes_each) {
            return false;
        }
        names_ += static_cast<std::size_t>(count);
        bytes_ += static_cast<std::size_t>(count * bytes_each);
        return true;
    }
    std::size_t names() const { return names_; }

private:
    std::size_t names_ = 0;
    std::size_t bytes_ = 0;
};

pmix_status_t parse_ranges(Cursor *cursor, std::vector<NumberRange> *ranges_p)
{
    const std::string_view map = cursor->input();
    do {
        NumberRange range{};
        std::string_view digits;
        if (!cursor->read_number(&range.first, &digits)) {
            return refuse("expected a number of at most 18 digits in the node map", map, cursor->pos(), kNodeFix);
        }
        range.width = digits.size();
        range.last = range.first;
        if (cursor->accept('-')) {
            const std::size_t at = cursor->pos();
            if (!cursor->read_number(&range.last, &digits)) {
                return refuse("expected the end of a range in the node map", map, at, kNodeFix);
            }
            if (range.last < range.first) {
                return refuse("descending range in the node map", map, at, kNodeFix);
            }
        }
        ranges_p->push_back(range);
    } while (cursor->accept(','));
    if (!cursor->accept(']')) {
        return refuse("expected ',' or ']' in the node map", map, cursor->pos(), kNodeFix);
    }
    return PMIX_SUCCESS;
}

bool fits_budget(const MapItem &item, ExpansionBudget *budget)
{
    const std::size_t fixed = item.prefix.size() + item.suffix.size() + 1;
    if (item.ranges.empty()) return budget->take(1, fixed);
    for (const NumberRange &range : item.ranges) {
        const std::size_t longest = std::max(range.width, std::to_string(range.last).size());
        if (!budget->take(range.last - range.first + 1, fixed + longest)) return false;
    }
    return true;
}

pmix_status_t parse_item(Cursor *cursor, ExpansionBudget *budget, MapItem *item_p)
{
    const std::string_view map = cursor->input();
    MapItem item;
    if (!cursor->read_text(",[", &item.prefix)) {
        return refuse("bad character or %-escape in a node name", map, cursor->pos(), kNodeFix);
    }
    if (cursor->accept('[')) {
        const pmix_status_t rc = parse_ranges(cursor, &item.ranges);
        if (rc != PMIX_SUCCESS) return rc;
        if (!cursor->read_text(",", &item.suffix)) {
            return refuse("bad character or %-escape after ']' in the node map", map, cursor->pos(), kNodeFix);
        }
    } else if (item.prefix.empty()) {
        return refuse("empty node name in the node map", map, cursor->pos(), kNodeFix);
    }
    if (!fits_budget(item, budget)) {
        return refuse("node map expands to more than 1048576 names or 256 MiB", map, cursor->pos(),
                      "check the ranges; split the job if it is real");
    }
    *item_p = std::move(item);
    return PMIX_SUCCESS;
}

void expand(const MapItem &item, std::vector<std::string> *names_p)
{
    if (item.ranges.empty()) {
        names_p->push_back(item.prefix);
        return;
    }
    for (const NumberRange &range : item.ranges) {
        for (std::uint64_t value = range.first;; ++value) {
            std::string name = item.prefix;
            append_padded(value, range.width, &name);
            name += item.suffix;
            names_p->push_back(std::move(name));
            if (value == range.last) break;
        }
    }
}

pmix_status_t parse_ours(std::string_view map, std::size_t offset, std::vector<std::string> *names_p)
{
    Cursor cursor(map, offset);
    if (cursor.at_end()) return refuse("node map has no names", map, offset, kNodeFix);
    ExpansionBudget budget;
    std::vector<MapItem> items;
    do {
        MapItem item;
        const pmix_status_t rc = parse_item(&cursor, &budget, &item);
        if (rc != PMIX_SUCCESS) return rc;
        items.push_back(std::move(item));
    } while (cursor.accept(','));
    if (!cursor.at_end()) {
        return refuse("unexpected character in the node map", map, cursor.pos(), kNodeFix);
    }
    names_p->reserve(budget.names());
    for (const MapItem &item : items) expand(item, names_p);
    return PMIX_SUCCESS;
}

pmix_status_t parse_plain(std::string_view map, std::size_t offset, std::vector<std::string> *names_p)
{
    std::size_t pos = offset;
    for (const std::string_view name : internal::split(map.substr(offset), ',')) {
        if (name.empty()) return refuse("empty node name in the node list", map, pos, kNodeFix);
        const pmix_status_t rc = check_name_bytes(map, pos, name);
        if (rc != PMIX_SUCCESS) return rc;
        if (names_p->size() == kMaxNames) {
            return refuse("node list has too many names", map, pos, "split the job");
        }
        names_p->emplace_back(name);
        pos += name.size() + 1;
    }
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t generate_node_regex(std::string_view comma_separated_nodes, std::string *regex_p)
{
    if (comma_separated_nodes.empty()) {
        return refuse("empty node list", comma_separated_nodes, 0, kNodeFix);
    }
    try {
        std::vector<std::string_view> names;
        const pmix_status_t rc = split_node_list(comma_separated_nodes, &names);
        if (rc != PMIX_SUCCESS) return rc;
        std::string regex(kFormatTag);
        for (std::size_t i = 0; i < names.size();) {
            const std::string_view *next = i + 1 < names.size() ? &names[i + 1] : nullptr;
            NameGroup group = start_group(names[i], next);
            ++i;
            while (i < names.size() && try_add(&group, names[i])) ++i;
            if (regex.size() > kFormatTag.size()) regex += ',';
            append_group(group, &regex);
        }
        *regex_p = std::move(regex);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t parse_node_map(std::string_view map, std::vector<std::string> *nodes_p)
{
    map = internal::strip_terminators(map);
    if (map.empty()) return refuse("empty node map", map, 0, kNodeFix);
    try {
        internal::MapFormat format{};
        std::size_t offset = 0;
        pmix_status_t rc = internal::classify(map, "node map", &format, &offset);
        if (rc != PMIX_SUCCESS) return rc;
        std::vector<std::string> names;
        rc = format == internal::MapFormat::kOurs ? parse_ours(map, offset, &names) : parse_plain(map, offset, &names);
        if (rc != PMIX_SUCCESS) return rc;
        if (names.empty()) return refuse("node map has no names", map, offset, kNodeFix);
        *nodes_p = std::move(names);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::regex
