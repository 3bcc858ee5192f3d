// PMIx_Log / PMIx_Log_nb: the channels a process can serve itself -
// PMIX_LOG_STDERR, PMIX_LOG_STDOUT and (local) syslog via PMIX_LOG_SYSLOG /
// PMIX_LOG_LOCAL_SYSLOG - are written here, honouring PMIX_LOG_ONCE,
// PMIX_LOG_SYSLOG_PRI and PMIX_LOG_GENERATE_TIMESTAMP / PMIX_LOG_TIMESTAMP.
// Channels only a host can serve (global syslog, email, job record, ...)
// go to the server in one log request, which hands them to its host's log
// upcall. Outcome: PMIX_SUCCESS when every request was served (or one,
// with PMIX_LOG_ONCE), PMIX_ERR_PARTIAL_SUCCESS when some were,
// PMIX_ERR_NOT_SUPPORTED when none could be.
#include <pmix.h>
#include <pmixpp/util.hpp>

#include <syslog.h>
#include <unistd.h>

#include <ctime>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"
#include "common/runtime/progress_engine.h"

using namespace pmixpp;

namespace {

using util::key_is;

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

// What the process served itself, and what is left for the host.
struct LocalOutcome {
    size_t served = 0;
    bool done = false;  // everything asked for is served (PMIX_LOG_ONCE: one is enough)
    wire::InfoArray left;
};

pmix_status_t log_locally(const pmix_info_t data[], size_t ndata, const pmix_info_t dirs[], size_t ndirs,
                          LocalOutcome *outcome_p)
{
    if (data == nullptr || ndata == 0 || (dirs == nullptr && ndirs > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    Directives d = read_directives(dirs, ndirs);
    std::vector<const pmix_info_t *> left;
    for (size_t i = 0; i < ndata; ++i) {
        if (!serve_locally(data[i], d)) {
            left.push_back(&data[i]);
            continue;
        }
        ++outcome_p->served;
        if (d.once) {
            outcome_p->done = true;
            return PMIX_SUCCESS;
        }
    }
    outcome_p->done = left.empty();
    pmix_status_t rc = outcome_p->left.allocate(left.size());
    for (size_t i = 0; i < left.size() && rc == PMIX_SUCCESS; ++i) rc = PMIx_Info_xfer(&outcome_p->left[i], left[i]);
    return rc;
}

// The call's status once the host answered `host_status` for what was left.
pmix_status_t combined(const LocalOutcome &local, pmix_status_t host_status)
{
    if (local.done || host_status == PMIX_SUCCESS) return PMIX_SUCCESS;
    if (local.served > 0 || host_status == PMIX_ERR_PARTIAL_SUCCESS) return PMIX_ERR_PARTIAL_SUCCESS;
    return PMIX_ERR_NOT_SUPPORTED;
}

// Sends what is left to the host; done(host status) on the progress thread.
// A host process hands it to its own log upcall.
pmix_status_t ask_host(LocalOutcome &local, const pmix_info_t dirs[], size_t ndirs,
                       std::function<void(pmix_status_t)> done)
{
    std::shared_ptr<client::Session> session = client::current_session();
    if (!session && client::host_mode())
        return client::host_log_nb(std::move(local.left), dirs, ndirs, std::move(done));
    if (!session) return PMIX_ERR_NOT_SUPPORTED;
    wire::LogRequest request;
    request.data = std::move(local.left);
    pmix_status_t rc = request.directives.assign_copy(dirs, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    return client::send_message(session, request, client::timeout_of(dirs, ndirs),
                                [done](pmix_status_t st, const wire::Frame *frame) {
                                    wire::StatusReply reply;
                                    done(client::read_reply(st, frame, &reply));
                                });
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
        LocalOutcome local;
        pmix_status_t rc = log_locally(data, ndata, directives, ndirs, &local);
        if (rc != PMIX_SUCCESS || local.done) return rc;
        if (runtime::ProgressEngine::process().on_progress_thread()) return combined(local, PMIX_ERR_NOT_SUPPORTED);
        auto latch = std::make_shared<runtime::Latch<>>();
        rc = ask_host(local, directives, ndirs, [latch](pmix_status_t st) { latch->complete(st); });
        return combined(local, rc == PMIX_SUCCESS ? latch->wait() : rc);
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
        auto local = std::make_shared<LocalOutcome>();
        pmix_status_t rc = log_locally(data, ndata, directives, ndirs, local.get());
        if (rc != PMIX_SUCCESS || cbfunc == nullptr) {
            return rc;
        }
        auto finish = [cbfunc, cbdata, local](pmix_status_t host_status) {
            cbfunc(combined(*local, host_status), cbdata);
        };
        if (!local->done && ask_host(*local, directives, ndirs, finish) == PMIX_SUCCESS) return PMIX_SUCCESS;
        return runtime::ProgressEngine::process().post([finish] { finish(PMIX_ERR_NOT_SUPPORTED); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
