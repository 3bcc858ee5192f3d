// PMIx_Log / PMIx_Log_nb: the channels a process can serve itself -
// PMIX_LOG_STDERR, PMIX_LOG_STDOUT and (local) syslog via PMIX_LOG_SYSLOG /
// PMIX_LOG_LOCAL_SYSLOG - are written here, honouring PMIX_LOG_ONCE,
// PMIX_LOG_SYSLOG_PRI and PMIX_LOG_GENERATE_TIMESTAMP / PMIX_LOG_TIMESTAMP.
// Channels only a host can serve (global syslog, email, job record, ...)
// need a log request to the server, which the wire protocol does not have
// yet: they count as not handled. Outcome: PMIX_SUCCESS when every request
// was served (or one, with PMIX_LOG_ONCE), PMIX_ERR_PARTIAL_SUCCESS when
// some were, PMIX_ERR_NOT_SUPPORTED when none could be.
#include <pmix.h>

#include <syslog.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <memory>
#include <new>
#include <string>

#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"

using namespace pmixpp;

namespace {

bool key_is(const pmix_info_t &info, const char *key)
{
    return std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

struct Directives {
    bool once = false;
    int syslog_priority = LOG_INFO;
    std::string prefix;  // a timestamp, when asked for
};

std::string timestamp(time_t when)
{
    char text[64] = {};
    struct tm parts {};
    if (localtime_r(&when, &parts) == nullptr || std::strftime(text, sizeof text, "%F %T", &parts) == 0) {
        return {};
    }
    return std::string("[") + text + "] ";
}

Directives read_directives(const pmix_info_t dirs[], size_t ndirs)
{
    Directives d;
    for (size_t i = 0; dirs != nullptr && i < ndirs; ++i) {
        const pmix_info_t &item = dirs[i];
        if (key_is(item, PMIX_LOG_ONCE)) {
            d.once = PMIX_INFO_TRUE(&item);
        } else if (key_is(item, PMIX_LOG_SYSLOG_PRI) && item.value.type == PMIX_INT) {
            d.syslog_priority = item.value.data.integer;
        } else if (key_is(item, PMIX_LOG_TIMESTAMP) && item.value.type == PMIX_TIME) {
            d.prefix = timestamp(item.value.data.time);
        } else if (key_is(item, PMIX_LOG_GENERATE_TIMESTAMP) && PMIX_INFO_TRUE(&item) && d.prefix.empty()) {
            d.prefix = timestamp(std::time(nullptr));
        }
    }
    return d;
}

bool write_line(int fd, const std::string &prefix, const char *message)
{
    std::string line = prefix + message;
    if (line.empty() || line.back() != '\n') {
        line += '\n';
    }
    return ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
}

// Serves one log request locally; false when this process cannot.
bool serve_locally(const pmix_info_t &item, const Directives &d)
{
    if (item.value.type != PMIX_STRING || item.value.data.string == nullptr) {
        return false;
    }
    const char *message = item.value.data.string;
    if (key_is(item, PMIX_LOG_STDERR)) {
        return write_line(STDERR_FILENO, d.prefix, message);
    }
    if (key_is(item, PMIX_LOG_STDOUT)) {
        return write_line(STDOUT_FILENO, d.prefix, message);
    }
    if (key_is(item, PMIX_LOG_SYSLOG) || key_is(item, PMIX_LOG_LOCAL_SYSLOG)) {
        syslog(d.syslog_priority, "%s%s", d.prefix.c_str(), message);
        return true;
    }
    return false;
}

pmix_status_t log_locally(const pmix_info_t data[], size_t ndata, const pmix_info_t dirs[], size_t ndirs)
{
    if (data == nullptr || ndata == 0 || (dirs == nullptr && ndirs > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    Directives d = read_directives(dirs, ndirs);
    size_t served = 0;
    for (size_t i = 0; i < ndata; ++i) {
        if (serve_locally(data[i], d)) {
            ++served;
            if (d.once) {
                return PMIX_SUCCESS;
            }
        }
    }
    if (served == ndata) {
        return PMIX_SUCCESS;
    }
    return served == 0 ? PMIX_ERR_NOT_SUPPORTED : PMIX_ERR_PARTIAL_SUCCESS;
}

bool ready()
{
    return client::current_session() != nullptr || client::host_mode();
}

}  // namespace

pmix_status_t PMIx_Log(const pmix_info_t data[], size_t ndata, const pmix_info_t directives[], size_t ndirs)
{
    if (!ready()) {
        return PMIX_ERR_INIT;
    }
    try {
        return log_locally(data, ndata, directives, ndirs);
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

// The outcome goes to cbfunc on the progress thread, after this returns.
pmix_status_t PMIx_Log_nb(const pmix_info_t data[], size_t ndata, const pmix_info_t directives[], size_t ndirs,
                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (!ready()) {
        return PMIX_ERR_INIT;
    }
    try {
        pmix_status_t rc = log_locally(data, ndata, directives, ndirs);
        if (rc == PMIX_ERR_BAD_PARAM || cbfunc == nullptr) {
            return rc;
        }
        return runtime::ProgressEngine::process().post([cbfunc, cbdata, rc] { cbfunc(rc, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
