// Formatters of scalars, strings, byte objects and the named enums.
#include <sys/time.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <pmix.h>

#include "common/buffer/print_format.h"

namespace pmixpp::buffer {

std::string format_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[128];
    va_list again;
    va_copy(again, ap);
    int n = std::vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    std::string text;
    if (n < 0) {
        va_end(again);
        return text;
    }
    if (static_cast<size_t>(n) < sizeof small) {
        text.assign(small, static_cast<size_t>(n));
    } else {
        text.resize(static_cast<size_t>(n) + 1);
        std::vsnprintf(text.data(), text.size(), fmt, again);
        text.resize(static_cast<size_t>(n));
    }
    va_end(again);
    return text;
}

namespace {

// Reads an element of type T (storage need not be aligned).
template <typename T> T load(const void *element)
{
    T v;
    std::memcpy(&v, element, sizeof v);
    return v;
}

template <typename T> void format_signed(Printer &pr, const void *element)
{
    pr.out += format_text("%" PRId64, static_cast<int64_t>(load<T>(element)));
}

template <typename T> void format_unsigned(Printer &pr, const void *element)
{
    pr.out += format_text("%" PRIu64, static_cast<uint64_t>(load<T>(element)));
}

template <typename T> void format_hex(Printer &pr, const void *element)
{
    pr.out += format_text("0x%" PRIx64, static_cast<uint64_t>(load<T>(element)));
}

// A named enum: "NAME (number)".
template <typename T, const char *(*Name)(T)> void format_named(Printer &pr, const void *element)
{
    T v = load<T>(element);
    pr.out += format_text("%s (%" PRId64 ")", Name(v), static_cast<int64_t>(v));
}

void format_bool(Printer &pr, const void *element)
{
    pr.out += load<bool>(element) ? "true" : "false";
}

void format_float(Printer &pr, const void *element)
{
    pr.out += format_text("%g", static_cast<double>(load<float>(element)));
}

void format_double(Printer &pr, const void *element)
{
    pr.out += format_text("%g", load<double>(element));
}

void format_timeval(Printer &pr, const void *element)
{
    auto tv = load<struct timeval>(element);
    pr.out +=
        format_text("%" PRId64 ".%06" PRId64 " s", static_cast<int64_t>(tv.tv_sec), static_cast<int64_t>(tv.tv_usec));
}

void format_string(Printer &pr, const void *element)
{
    const char *s = load<const char *>(element);
    pr.out += s == nullptr ? "NULL" : s;
}

void format_nspace(Printer &pr, const void *element)
{
    const auto *ns = static_cast<const char *>(element);
    pr.out.append(ns, strnlen(ns, PMIX_MAX_NSLEN + 1));
}

void format_byte_object(Printer &pr, const void *element)
{
    auto bo = load<pmix_byte_object_t>(element);
    pr.out += format_text("%zu bytes", bo.size);
}

void format_status(Printer &pr, const void *element)
{
    auto status = load<pmix_status_t>(element);
    pr.out += format_text("%s (%d)", PMIx_Error_string(status), status);
}

void format_rank(Printer &pr, const void *element)
{
    auto rank = load<pmix_rank_t>(element);
    if (rank == PMIX_RANK_WILDCARD) {
        pr.out += "WILDCARD";
    } else if (rank == PMIX_RANK_UNDEF) {
        pr.out += "UNDEF";
    } else if (rank == PMIX_RANK_LOCAL_NODE) {
        pr.out += "LOCAL_NODE";
    } else {
        pr.out += format_text("%u", rank);
    }
}

void format_directives(Printer &pr, const void *element)
{
    char *names = PMIx_Info_directives_string(load<pmix_info_directives_t>(element));
    pr.out += names == nullptr ? "NONE" : names;
    std::free(names);
}

void format_data_type(Printer &pr, const void *element)
{
    pr.out += PMIx_Data_type_string(load<pmix_data_type_t>(element));
}

void format_pointer(Printer &pr, const void *element)
{
    pr.out += format_text("%p", load<void *>(element));
}

constexpr Formatter kScalarFormatters[] = {
    {PMIX_BOOL, format_bool},
    {PMIX_BYTE, format_hex<uint8_t>},
    {PMIX_STRING, format_string},
    {PMIX_SIZE, format_unsigned<size_t>},
    {PMIX_PID, format_signed<pid_t>},
    {PMIX_INT, format_signed<int>},
    {PMIX_INT8, format_signed<int8_t>},
    {PMIX_INT16, format_signed<int16_t>},
    {PMIX_INT32, format_signed<int32_t>},
    {PMIX_INT64, format_signed<int64_t>},
    {PMIX_UINT, format_unsigned<unsigned int>},
    {PMIX_UINT8, format_unsigned<uint8_t>},
    {PMIX_UINT16, format_unsigned<uint16_t>},
    {PMIX_UINT32, format_unsigned<uint32_t>},
    {PMIX_UINT64, format_unsigned<uint64_t>},
    {PMIX_FLOAT, format_float},
    {PMIX_DOUBLE, format_double},
    {PMIX_TIMEVAL, format_timeval},
    {PMIX_TIME, format_signed<time_t>},
    {PMIX_STATUS, format_status},
    {PMIX_BYTE_OBJECT, format_byte_object},
    {PMIX_PERSIST, format_named<pmix_persistence_t, PMIx_Persistence_string>},
    {PMIX_POINTER, format_pointer},
    {PMIX_SCOPE, format_named<pmix_scope_t, PMIx_Scope_string>},
    {PMIX_DATA_RANGE, format_named<pmix_data_range_t, PMIx_Data_range_string>},
    {PMIX_COMMAND, format_unsigned<uint8_t>},
    {PMIX_INFO_DIRECTIVES, format_directives},
    {PMIX_DATA_TYPE, format_data_type},
    {PMIX_PROC_STATE, format_named<pmix_proc_state_t, PMIx_Proc_state_string>},
    {PMIX_PROC_RANK, format_rank},
    {PMIX_COMPRESSED_STRING, format_byte_object},
    {PMIX_ALLOC_DIRECTIVE, format_named<pmix_alloc_directive_t, PMIx_Alloc_directive_string>},
    {PMIX_IOF_CHANNEL, format_named<pmix_iof_channel_t, PMIx_IOF_channel_string>},
    {PMIX_REGEX, format_byte_object},
    {PMIX_JOB_STATE, format_named<pmix_job_state_t, PMIx_Job_state_string>},
    {PMIX_LINK_STATE, format_named<pmix_link_state_t, PMIx_Link_state_string>},
    {PMIX_DEVTYPE, format_named<pmix_device_type_t, PMIx_Device_type_string>},
    {PMIX_LOCTYPE, format_hex<pmix_locality_t>},
    {PMIX_COMPRESSED_BYTE_OBJECT, format_byte_object},
    {PMIX_PROC_NSPACE, format_nspace},
    {PMIX_STOR_MEDIUM, format_hex<pmix_storage_medium_t>},
    {PMIX_STOR_ACCESS, format_hex<pmix_storage_accessibility_t>},
    {PMIX_STOR_PERSIST, format_hex<pmix_storage_persistence_t>},
    {PMIX_STOR_ACCESS_TYPE, format_hex<pmix_storage_access_type_t>},
};

}  // namespace

FormatterSpan scalar_formatters()
{
    return {kScalarFormatters, sizeof kScalarFormatters / sizeof kScalarFormatters[0]};
}

}  // namespace pmixpp::buffer
