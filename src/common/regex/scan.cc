#include "common/regex/scan.h"

#include "common/regex/regex.h"

#include <cstdio>

namespace pmixpp::regex::internal {
namespace {

constexpr std::size_t kSnippetLength = 24;
constexpr std::string_view kRawTag = "raw:";
constexpr char kHexDigits[] = "0123456789ABCDEF";

int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

// The snippet goes into a log line: keep it printable whatever the input holds.
std::string printable_snippet(std::string_view input, std::size_t pos)
{
    std::string snippet;
    const std::size_t begin = pos < input.size() ? pos : input.size();
    const std::string_view tail = input.substr(begin, kSnippetLength);
    for (const char c : tail) {
        const auto byte = static_cast<unsigned char>(c);
        snippet += (byte >= 0x20 && byte < 0x7f && c != '"') ? c : '?';
    }
    if (input.size() - begin > kSnippetLength) snippet += "...";
    return snippet;
}

bool has_version_tag_of_ours(std::string_view map)
{
    constexpr std::string_view kFamily = "pmixpp";
    if (!map.starts_with(kFamily)) return false;
    std::size_t i = kFamily.size();
    const std::size_t digits_begin = i;
    while (i < map.size() && is_digit(map[i])) ++i;
    return i > digits_begin && i < map.size() && map[i] == ':';
}

}  // namespace

pmix_status_t refuse(std::string_view what, std::string_view input, std::size_t pos, std::string_view fix)
{
    const std::string snippet = printable_snippet(input, pos);
    std::fprintf(stderr, "pmixpp: regex: %.*s at byte %zu near \"%s\" (%.*s)\n", static_cast<int>(what.size()),
                 what.data(), pos, snippet.c_str(), static_cast<int>(fix.size()), fix.data());
    return PMIX_ERR_BAD_PARAM;
}

std::string_view strip_terminators(std::string_view map)
{
    while (!map.empty() && map.back() == '\0') map.remove_suffix(1);
    return map;
}

pmix_status_t classify(std::string_view map, std::string_view kind, MapFormat *format_p, std::size_t *body_offset_p)
{
    if (map.starts_with(kFormatTag)) {
        *format_p = MapFormat::kOurs;
        *body_offset_p = kFormatTag.size();
        return PMIX_SUCCESS;
    }
    if (has_version_tag_of_ours(map)) {
        return refuse(std::string(kind) + " uses an unknown pmixpp format version", map, 0,
                      "generate it with this library's PMIx_generate_regex/PMIx_generate_ppn");
    }
    if (map.starts_with("pmix[") || map.starts_with("blob:")) {
        return refuse(std::string(kind) + " is in an OpenPMIx-specific encoding", map, 0,
                      "pass a plain comma/semicolon list or this library's regex");
    }
    *format_p = MapFormat::kPlain;
    *body_offset_p = map.starts_with(kRawTag) ? kRawTag.size() : 0;
    return PMIX_SUCCESS;
}

std::vector<std::string_view> split(std::string_view text, char sep)
{
    std::vector<std::string_view> fields;
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = text.find(sep, begin);
        if (end == std::string_view::npos) {
            fields.push_back(text.substr(begin));
            return fields;
        }
        fields.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
}

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

bool is_allowed_in_name(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte != 0x7f && c != ',';
}

bool is_name_char(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '_' || c == '-';
}

void append_escaped(std::string_view text, std::string *out_p)
{
    for (const char c : text) {
        if (is_name_char(c)) {
            *out_p += c;
            continue;
        }
        const auto byte = static_cast<unsigned char>(c);
        *out_p += '%';
        *out_p += kHexDigits[byte >> 4];
        *out_p += kHexDigits[byte & 0xf];
    }
}

bool Cursor::accept(char c)
{
    if (at_end() || input_[pos_] != c) return false;
    ++pos_;
    return true;
}

bool Cursor::read_number(std::uint64_t *value_p, std::string_view *digits_p)
{
    std::size_t end = pos_;
    std::uint64_t value = 0;
    while (end < input_.size() && is_digit(input_[end])) {
        if (end - pos_ == kMaxDigits) return false;
        value = value * 10 + static_cast<std::uint64_t>(input_[end] - '0');
        ++end;
    }
    if (end == pos_) return false;
    *digits_p = input_.substr(pos_, end - pos_);
    *value_p = value;
    pos_ = end;
    return true;
}

bool Cursor::read_text(std::string_view stops, std::string *text_p)
{
    std::string text;
    while (!at_end() && stops.find(input_[pos_]) == std::string_view::npos) {
        const char c = input_[pos_];
        if (c != '%') {
            if (!is_name_char(c)) return false;
            text += c;
            ++pos_;
            continue;
        }
        if (input_.size() - pos_ < 3) return false;
        const int high = hex_value(input_[pos_ + 1]);
        const int low = hex_value(input_[pos_ + 2]);
        if (high < 0 || low < 0) return false;
        const auto decoded = static_cast<char>(high * 16 + low);
        if (!is_allowed_in_name(decoded)) return false;
        text += decoded;
        pos_ += 3;
    }
    *text_p = std::move(text);
    return true;
}

}  // namespace pmixpp::regex::internal
