// Shared pieces of the node-map and proc-map codecs: a bounds-checked cursor,
// number reading, %-escaping of names, recognising which format a map is in,
// and the one-line refusal message.
#pragma once

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::regex::internal {

// Longest digit string we treat as a number: 18 digits always fit in 63 bits.
inline constexpr std::size_t kMaxDigits = 18;
// Cap on the summed length of expanded node names (bytes), so a long prefix
// times many numbers cannot exhaust memory either.
inline constexpr std::size_t kMaxNameBytes = std::size_t{256} << 20;

enum class MapFormat { kOurs, kPlain };

// Logs "pmixpp: regex: <what> at byte <pos> near "<snippet>" (<fix>)" and
// returns PMIX_ERR_BAD_PARAM, so callers can `return refuse(...)`.
pmix_status_t refuse(std::string_view what, std::string_view input, std::size_t pos, std::string_view fix);

// Drops the NUL terminators a PMIX_REGEX byte object carries in its size.
std::string_view strip_terminators(std::string_view map);

// Our tag -> kOurs; "raw:" or no tag -> kPlain; another version of our format
// or OpenPMIx's own encodings -> refused. body_offset_p: where the list starts.
pmix_status_t classify(std::string_view map, std::string_view kind, MapFormat *format_p, std::size_t *body_offset_p);

// Splits on `sep`, keeping empty fields (callers refuse them with a position).
std::vector<std::string_view> split(std::string_view text, char sep);

bool is_digit(char c);
// Bytes a node name may hold at all: no control characters (they break logs
// and host tools) and no ',' (the list separator).
bool is_allowed_in_name(char c);
// True for the bytes written as themselves in names; all others are %XX.
bool is_name_char(char c);
void append_escaped(std::string_view text, std::string *out_p);

// Reads input[pos...] as it goes; never reads past the end.
class Cursor {
public:
    explicit Cursor(std::string_view input, std::size_t offset = 0) : input_(input), pos_(offset) {}
    bool at_end() const { return pos_ >= input_.size(); }
    char peek() const { return at_end() ? '\0' : input_[pos_]; }
    bool accept(char c);
    std::size_t pos() const { return pos_; }
    std::string_view input() const { return input_; }
    // 1..kMaxDigits decimal digits; digits_p receives them as written.
    bool read_number(std::uint64_t *value_p, std::string_view *digits_p);
    // Name text up to one of `stops` (or the end), %XX decoded. False on a
    // bad escape (left at the '%') or a byte that must have been escaped.
    bool read_text(std::string_view stops, std::string *text_p);

private:
    std::string_view input_;
    std::size_t pos_;
};

}  // namespace pmixpp::regex::internal
