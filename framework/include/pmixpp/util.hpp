/*
 * <pmixpp/util.hpp>: the small helpers that the library and its components
 * both need, kept once here rather than copied into each (a component is its
 * own shared object and may not link the library's internals). Header-only,
 * no dependency but <pmix_common.h> and POSIX, so an out-of-tree vendor
 * component or a host program can use it as well.
 *
 *   key_is, find_info          find an attribute by key in an info array
 *   parse_bool, read_bool      one meaning of "a bool", for values and text
 *   read_unsigned, read_int    integers of any PMIx integer type, range-checked
 *   parse_unsigned             integers given as text
 *   read_string                a PMIX_STRING value
 *   flag_set                   "is this directive given and true?"
 *   UniqueFd                   owns one file descriptor
 *
 * The readers all answer the same way, so a caller can tell the host what was
 * wrong instead of guessing:
 *   PMIX_SUCCESS            *value_p holds the value;
 *   PMIX_ERR_TYPE_MISMATCH  the value's type is not one the reader takes;
 *   PMIX_ERR_BAD_PARAM      the type is right but the value is not usable (a
 *                           NULL string, text that is not a bool or a number,
 *                           a number outside the range asked for).
 * *value_p is written only on success, so it may hold a default beforehand.
 */
#ifndef PMIXPP_UTIL_HPP
#define PMIXPP_UTIL_HPP

#include <pmix_common.h>

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <unistd.h>

namespace pmixpp::util {

// ---- finding an attribute by key ----

// Compares as PMIX_CHECK_KEY does: a key field holds at most PMIX_MAX_KEYLEN
// characters and need not end in NUL when it is full.
// A namespace as a std::string: a pmix_nspace_t may fill all its bytes
// with no terminating NUL, so the length is bounded, never strlen's.
inline std::string nspace_string(const char *nspace)
{
    return nspace == nullptr ? std::string() : std::string(nspace, strnlen(nspace, PMIX_MAX_NSLEN));
}

inline std::string nspace_of(const pmix_proc_t &proc)
{
    return nspace_string(proc.nspace);
}

// The same proc: namespace and rank equal (no wildcard matching).
inline bool same_proc(const pmix_proc_t &a, const pmix_proc_t &b) noexcept
{
    return a.rank == b.rank && std::strncmp(a.nspace, b.nspace, PMIX_MAX_NSLEN) == 0;
}

// A namespace or key a caller may pass: not NULL, not empty, and fits its
// fixed-size field with the terminating NUL.
inline bool valid_nspace(const char *nspace) noexcept
{
    return nspace != nullptr && nspace[0] != '\0' && strnlen(nspace, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

inline bool valid_key(const char *key) noexcept
{
    return key != nullptr && key[0] != '\0' && strnlen(key, PMIX_MAX_KEYLEN + 1) <= PMIX_MAX_KEYLEN;
}

inline bool key_is(const pmix_info_t &info, const char *key) noexcept
{
    return key != nullptr && std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

// The first attribute named `key`, or nullptr. A NULL array is an empty one,
// as PMIx calls pass (NULL, 0) for "no attributes".
inline const pmix_info_t *find_info(const pmix_info_t *info, std::size_t ninfo, const char *key) noexcept
{
    for (std::size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (key_is(info[i], key)) return &info[i];
    }
    return nullptr;
}

inline const pmix_info_t *find_info(std::span<const pmix_info_t> info, const char *key) noexcept
{
    return find_info(info.data(), info.size(), key);
}

// In the info array a PMIX_DATA_ARRAY value carries (PMIX_PROC_DATA, fabric
// device fields, ...). An array of any other type holds no attributes.
inline const pmix_info_t *find_info(const pmix_data_array_t &array, const char *key) noexcept
{
    if (array.type != PMIX_INFO) return nullptr;
    return find_info(static_cast<const pmix_info_t *>(array.array), array.size, key);
}

// ---- bools ----

namespace detail {

inline bool same_ignoring_case(std::string_view text, std::string_view word) noexcept
{
    if (text.size() != word.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != word[i]) return false;
    }
    return true;
}

}  // namespace detail

// The words people write in environment variables, param files and command
// lines, in any case: 1/true/yes/on and 0/false/no/off. Anything else, the
// empty text included, is PMIX_ERR_BAD_PARAM: a typo must reach the user
// rather than quietly turn a feature off.
inline pmix_status_t parse_bool(std::string_view text, bool *value_p) noexcept
{
    for (const std::string_view word : {"1", "true", "yes", "on"}) {
        if (detail::same_ignoring_case(text, word)) {
            *value_p = true;
            return PMIX_SUCCESS;
        }
    }
    for (const std::string_view word : {"0", "false", "no", "off"}) {
        if (detail::same_ignoring_case(text, word)) {
            *value_p = false;
            return PMIX_SUCCESS;
        }
    }
    return PMIX_ERR_BAD_PARAM;
}

// PMIX_BOOL as given; PMIX_STRING by parse_bool, since hosts pass settings
// they read from text as strings. An attribute with no value (PMIX_UNDEF) is
// true: the standard makes a flag's presence mean "set", and PMIX_INFO_TRUE
// reads it so too.
inline pmix_status_t read_bool(const pmix_value_t &value, bool *value_p) noexcept
{
    switch (value.type) {
    case PMIX_UNDEF: *value_p = true; return PMIX_SUCCESS;
    case PMIX_BOOL: *value_p = value.data.flag; return PMIX_SUCCESS;
    case PMIX_STRING:
        if (value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
        return parse_bool(value.data.string, value_p);
    default: return PMIX_ERR_TYPE_MISMATCH;
    }
}

// A directive's flag: true only when `key` is given and reads as true. Absent
// or malformed is false, because directives are hints a call may ignore.
inline bool flag_set(const pmix_info_t *info, std::size_t ninfo, const char *key) noexcept
{
    const pmix_info_t *item = find_info(info, ninfo, key);
    bool flag = false;
    return item != nullptr && read_bool(item->value, &flag) == PMIX_SUCCESS && flag;
}

// ---- integers ----

namespace detail {

// Any PMIx integer as sign and bits, so one range check serves every type.
struct Integer {
    bool is_signed = false;
    int64_t signed_value = 0;
    uint64_t unsigned_value = 0;
};

// pid_t and pmix_rank_t count as integers: hosts pass ids and counts in them
// (PMIX_SERVER_PIDINFO, PMIX_SERVER_RANK) as readily as in PMIX_UINT32.
inline bool integer_of(const pmix_value_t &value, Integer *integer_p) noexcept
{
    const auto from_signed = [integer_p](int64_t v) {
        *integer_p = Integer{true, v, 0};
        return true;
    };
    const auto from_unsigned = [integer_p](uint64_t v) {
        *integer_p = Integer{false, 0, v};
        return true;
    };
    switch (value.type) {
    case PMIX_INT: return from_signed(value.data.integer);
    case PMIX_INT8: return from_signed(value.data.int8);
    case PMIX_INT16: return from_signed(value.data.int16);
    case PMIX_INT32: return from_signed(value.data.int32);
    case PMIX_INT64: return from_signed(value.data.int64);
    case PMIX_PID: return from_signed(value.data.pid);
    case PMIX_UINT: return from_unsigned(value.data.uint);
    case PMIX_UINT8: return from_unsigned(value.data.uint8);
    case PMIX_UINT16: return from_unsigned(value.data.uint16);
    case PMIX_UINT32: return from_unsigned(value.data.uint32);
    case PMIX_UINT64: return from_unsigned(value.data.uint64);
    case PMIX_SIZE: return from_unsigned(value.data.size);
    case PMIX_PROC_RANK: return from_unsigned(value.data.rank);
    default: return false;
    }
}

}  // namespace detail

// A non-negative integer of any integer type, at most `max`.
inline pmix_status_t read_unsigned(const pmix_value_t &value, uint64_t max, uint64_t *value_p) noexcept
{
    detail::Integer n;
    if (!detail::integer_of(value, &n)) return PMIX_ERR_TYPE_MISMATCH;
    if (n.is_signed) {
        if (n.signed_value < 0) return PMIX_ERR_BAD_PARAM;
        n.unsigned_value = static_cast<uint64_t>(n.signed_value);
    }
    if (n.unsigned_value > max) return PMIX_ERR_BAD_PARAM;
    *value_p = n.unsigned_value;
    return PMIX_SUCCESS;
}

// The same, into an unsigned type of the caller's, whose range is the limit.
template <std::unsigned_integral T>
requires(!std::same_as<T, bool>) pmix_status_t read_unsigned(const pmix_value_t &value, T *value_p)
noexcept
{
    uint64_t wide = 0;
    const pmix_status_t rc = read_unsigned(value, std::numeric_limits<T>::max(), &wide);
    if (rc == PMIX_SUCCESS) *value_p = static_cast<T>(wide);
    return rc;
}

// An integer of any integer type within [min, max].
inline pmix_status_t read_int(const pmix_value_t &value, int64_t min, int64_t max, int64_t *value_p) noexcept
{
    detail::Integer n;
    if (!detail::integer_of(value, &n)) return PMIX_ERR_TYPE_MISMATCH;
    if (!n.is_signed) {
        if (n.unsigned_value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return PMIX_ERR_BAD_PARAM;
        n.signed_value = static_cast<int64_t>(n.unsigned_value);
    }
    if (n.signed_value < min || n.signed_value > max) return PMIX_ERR_BAD_PARAM;
    *value_p = n.signed_value;
    return PMIX_SUCCESS;
}

// The same, into a signed type of the caller's, whose range is the limit.
template <std::signed_integral T> pmix_status_t read_int(const pmix_value_t &value, T *value_p) noexcept
{
    int64_t wide = 0;
    const pmix_status_t rc = read_int(value, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), &wide);
    if (rc == PMIX_SUCCESS) *value_p = static_cast<T>(wide);
    return rc;
}

// Digits only, no sign or blanks, at most `max`. Base 0 reads a C literal's
// prefix as strtoul does ("0660" octal, "0x1b6" hex), which file modes need.
inline pmix_status_t parse_unsigned(std::string_view text, uint64_t max, int base, uint64_t *value_p) noexcept
{
    if (base == 0) {
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
            base = 16;
            text.remove_prefix(2);
        } else if (text.size() > 1 && text[0] == '0') {
            base = 8;
            text.remove_prefix(1);
        } else {
            base = 10;
        }
    }
    if (text.empty() || base < 2 || base > 36) return PMIX_ERR_BAD_PARAM;
    uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size() || value > max) return PMIX_ERR_BAD_PARAM;
    *value_p = value;
    return PMIX_SUCCESS;
}

// ---- strings ----

// A PMIX_STRING's text. NULL is PMIX_ERR_BAD_PARAM: a caller that has a
// meaning for "no string" checks for it before. May throw std::bad_alloc.
inline pmix_status_t read_string(const pmix_value_t &value, std::string *value_p)
{
    if (value.type != PMIX_STRING) return PMIX_ERR_TYPE_MISMATCH;
    if (value.data.string == nullptr) return PMIX_ERR_BAD_PARAM;
    *value_p = value.data.string;
    return PMIX_SUCCESS;
}

// ---- file descriptors ----

// Owns one descriptor and closes it when it goes, so that no early return
// leaks one: a server runs for weeks and a slow leak ends in EMFILE. -1 is
// "none". Move-only: two owners would close the same number twice, and the
// second close could hit a descriptor another thread has opened since.
class UniqueFd {
public:
    UniqueFd() noexcept = default;
    explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    UniqueFd(UniqueFd &&other) noexcept : fd_(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept
    {
        if (this != &other) reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }

    int get() const noexcept { return fd_; }
    explicit operator bool() const noexcept { return fd_ >= 0; }

    // Gives the descriptor up without closing it (to a caller, libevent, ...).
    [[nodiscard]] int release() noexcept { return std::exchange(fd_, -1); }

    // Closes what it holds and takes `fd` instead.
    void reset(int fd = -1) noexcept
    {
        const int old = std::exchange(fd_, fd);
        if (old >= 0 && old != fd) (void)::close(old);
    }

    // Closes now and returns what close() returned (0, or -1 with errno): a
    // file just written may report a failed write only here (NFS, quotas).
    // Never retried, not even on EINTR: Linux has released the number by then,
    // and a second close could close a descriptor another thread just got.
    int close() noexcept
    {
        const int fd = std::exchange(fd_, -1);
        return fd >= 0 ? ::close(fd) : 0;
    }

private:
    int fd_ = -1;
};

}  // namespace pmixpp::util

#endif /* PMIXPP_UTIL_HPP */
