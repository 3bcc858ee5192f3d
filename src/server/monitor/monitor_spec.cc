#include "server/monitor/monitor_spec.h"

#include "server/state/info_read.h"

#include <pmixpp/util.hpp>

#include <cstring>

namespace pmixpp::server::monitor {

namespace {

using util::key_is;

std::string key_of(const pmix_info_t &info)
{
    return std::string(info.key, strnlen(info.key, PMIX_MAX_KEYLEN + 1));
}

// PMIX_MONITOR_FILE_ACCESS / _MODIFY are declared char* in the headers
// but read as bool by OpenPMIx: both spellings mean "watch it". So any
// string is "watch it" here, not only the SDK's bool words: a host that
// follows the header passes whatever text it likes.
bool criterion_set(const pmix_value_t &value)
{
    if (value.type == PMIX_STRING) return value.data.string != nullptr;
    bool flag = false;
    return read_bool(value, &flag) == PMIX_SUCCESS && flag;
}

// "PMIX_MONITOR_HEARTBEAT_TIME (pmix.monitor.btime)": the name people
// write and the key the wire carries.
std::string label(const char *key)
{
    struct Name {
        const char *key;
        const char *name;
    };
    static constexpr Name kNames[] = {
        {PMIX_MONITOR_HEARTBEAT_TIME, "PMIX_MONITOR_HEARTBEAT_TIME"},
        {PMIX_MONITOR_HEARTBEAT_DROPS, "PMIX_MONITOR_HEARTBEAT_DROPS"},
        {PMIX_MONITOR_FILE_CHECK_TIME, "PMIX_MONITOR_FILE_CHECK_TIME"},
        {PMIX_MONITOR_FILE_DROPS, "PMIX_MONITOR_FILE_DROPS"},
    };
    for (const Name &entry : kNames) {
        if (std::strcmp(entry.key, key) == 0) return std::string(entry.name) + " (" + key + ")";
    }
    return key;
}

pmix_status_t bad(std::string *reason_p, std::string text)
{
    *reason_p = std::move(text);
    return PMIX_ERR_BAD_PARAM;
}

// A uint32 directive; absent leaves *out_p as it is.
pmix_status_t read_count(const pmix_info_t dirs[], std::size_t ndirs, const char *key, uint32_t *out_p,
                         std::string *reason_p)
{
    const pmix_info_t *item = find_info(dirs, ndirs, key);
    if (item == nullptr) return PMIX_SUCCESS;
    if (read_u32(item->value, out_p) == PMIX_SUCCESS) return PMIX_SUCCESS;
    return bad(reason_p, label(key) + " must be a non-negative integer (uint32)");
}

pmix_status_t read_common(const pmix_info_t dirs[], std::size_t ndirs, Spec &spec, std::string *reason_p)
{
    if (const pmix_info_t *item = find_info(dirs, ndirs, PMIX_MONITOR_ID)) {
        if (read_string(item->value, &spec.id) != PMIX_SUCCESS) {
            return bad(reason_p, "PMIX_MONITOR_ID must be a string");
        }
    }
    if (const pmix_info_t *item = find_info(dirs, ndirs, PMIX_RANGE)) {
        if (item->value.type != PMIX_DATA_RANGE) return bad(reason_p, "PMIX_RANGE must be a pmix_data_range_t");
        spec.range = item->value.data.range;
    }
    return PMIX_SUCCESS;
}

// A required period and an optional drop count, both at least 1.
pmix_status_t read_timing(const pmix_info_t dirs[], std::size_t ndirs, const char *period_key, const char *drops_key,
                          Spec &spec, std::string *reason_p)
{
    pmix_status_t rc = read_count(dirs, ndirs, period_key, &spec.period_s, reason_p);
    if (rc == PMIX_SUCCESS) rc = read_count(dirs, ndirs, drops_key, &spec.drops, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    if (spec.period_s == 0) {
        return bad(reason_p, "the directive " + label(period_key) + " (seconds, uint32, at least 1) is required");
    }
    if (spec.drops == 0) return bad(reason_p, label(drops_key) + " must be at least 1");
    return PMIX_SUCCESS;
}

pmix_status_t read_file_spec(const pmix_info_t &monitor, const pmix_info_t dirs[], std::size_t ndirs, Spec &spec,
                             std::string *reason_p)
{
    if (read_string(monitor.value, &spec.path) != PMIX_SUCCESS || spec.path.empty()) {
        return bad(reason_p, "PMIX_MONITOR_FILE must name the file to watch (a non-empty string)");
    }
    const pmix_status_t rc =
        read_timing(dirs, ndirs, PMIX_MONITOR_FILE_CHECK_TIME, PMIX_MONITOR_FILE_DROPS, spec, reason_p);
    if (rc != PMIX_SUCCESS) return rc;
    for (std::size_t i = 0; dirs != nullptr && i < ndirs; ++i) {
        if (key_is(dirs[i], PMIX_MONITOR_FILE_SIZE)) spec.watch_size = criterion_set(dirs[i].value);
        if (key_is(dirs[i], PMIX_MONITOR_FILE_ACCESS)) spec.watch_access = criterion_set(dirs[i].value);
        if (key_is(dirs[i], PMIX_MONITOR_FILE_MODIFY)) spec.watch_modify = criterion_set(dirs[i].value);
    }
    if (!spec.watch_size && !spec.watch_access && !spec.watch_modify) {
        return bad(reason_p, "a file monitor needs at least one of PMIX_MONITOR_FILE_SIZE, PMIX_MONITOR_FILE_ACCESS "
                             "or PMIX_MONITOR_FILE_MODIFY set to true");
    }
    return PMIX_SUCCESS;
}

// The id to cancel: a string names one monitor (PMIX_MONITOR_ID); no value,
// NULL or "" cancels every monitor of the requester.
pmix_status_t read_cancel(const pmix_value_t &value, Spec &spec, std::string *reason_p)
{
    spec.kind = Kind::cancel;
    if (value.type == PMIX_STRING && value.data.string != nullptr && *value.data.string != '\0') {
        spec.id = value.data.string;
        return PMIX_SUCCESS;
    }
    if (value.type == PMIX_STRING || value.type == PMIX_UNDEF) {
        spec.cancel_all = true;
        return PMIX_SUCCESS;
    }
    return bad(reason_p, "PMIX_MONITOR_CANCEL must be the PMIX_MONITOR_ID of the monitor to stop (a string)");
}

}  // namespace

pmix_status_t read_spec(const pmix_info_t &monitor, const pmix_info_t directives[], std::size_t ndirs, Spec *spec_p,
                        std::string *reason_p)
{
    if (directives == nullptr) ndirs = 0;
    Spec spec;
    pmix_status_t rc = PMIX_SUCCESS;
    // A cancel directive wins over the monitor it comes with.
    if (const pmix_info_t *cancel = find_info(directives, ndirs, PMIX_MONITOR_CANCEL)) {
        rc = read_cancel(cancel->value, spec, reason_p);
    } else if (key_is(monitor, PMIX_MONITOR_CANCEL)) {
        rc = read_cancel(monitor.value, spec, reason_p);
    } else if (key_is(monitor, PMIX_MONITOR_HEARTBEAT)) {
        spec.kind = Kind::heartbeat;
        rc = read_common(directives, ndirs, spec, reason_p);
        if (rc == PMIX_SUCCESS) {
            rc = read_timing(directives, ndirs, PMIX_MONITOR_HEARTBEAT_TIME, PMIX_MONITOR_HEARTBEAT_DROPS, spec,
                             reason_p);
        }
    } else if (key_is(monitor, PMIX_MONITOR_FILE)) {
        spec.kind = Kind::file;
        rc = read_common(directives, ndirs, spec, reason_p);
        if (rc == PMIX_SUCCESS) rc = read_file_spec(monitor, directives, ndirs, spec, reason_p);
    } else {
        *reason_p = "the server runs no monitor of type '" + key_of(monitor) +
                    "' itself (it knows PMIX_MONITOR_HEARTBEAT and PMIX_MONITOR_FILE) and the host offers none";
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (rc == PMIX_SUCCESS) *spec_p = std::move(spec);
    return rc;
}

}  // namespace pmixpp::server::monitor
