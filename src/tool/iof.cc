// PMIx_IOF_pull / _deregister / _push for tools (and clients: a client may
// pull too). The server keeps the registrations and sends the output as
// IofData notifications; client/core/iof_handlers dispatches them to the
// callbacks here registered, formatted as the pull asked. Stdin is pushed
// in chunks of at most wire::kMaxIofChunk bytes; the last carries the end
// of input when PMIX_IOF_COMPLETE is given. PMIX_IOF_PUSH_STDIN starts a
// thread that reads this process's stdin until its end and pushes each read
// (one at a time: at most one chunk of ours in flight), then the end. In
// the host process itself (host mode) a push goes to its own push_stdin
// upcall, as OpenPMIx hands it there, and a pull is registered with its own
// server like a tool's.
#include <pmix_tool.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <thread>

#include <unistd.h>
#include <cerrno>

#include "client/core/host_call.h"
#include "client/core/host_mode.h"
#include "client/core/iof_handlers.h"
#include "client/core/requests.h"

using namespace pmixpp;

namespace {

using PullDone = std::function<void(pmix_status_t, std::shared_ptr<std::size_t>)>;

pmix_status_t iof_session(std::shared_ptr<client::Session> *session_p)
{
    *session_p = client::current_session();
    if (!*session_p) return PMIX_ERR_INIT;
    // A tool without a server (or a singleton) has nobody to ask.
    return (*session_p)->singleton ? PMIX_ERR_UNREACH : PMIX_SUCCESS;
}

pmix_status_t check_pull(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                         pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc)
{
    if (procs == nullptr || nprocs == 0 || cbfunc == nullptr || (directives == nullptr && ndirs > 0)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if ((channel & PMIX_FWD_STDIN_CHANNEL) != 0) return PMIX_ERR_NOT_SUPPORTED;  // stdin is pushed, not pulled
    if (channel == 0 || (channel & ~wire::kIofOutputChannels) != 0) return PMIX_ERR_BAD_PARAM;
    return PMIX_SUCCESS;
}

pmix_status_t start_pull(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                         pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc, PullDone done)
{
    pmix_status_t rc = check_pull(procs, nprocs, directives, ndirs, channel, cbfunc);
    if (rc != PMIX_SUCCESS) return rc;
    const iof::Format format = iof::format_of(directives, ndirs);
    if (client::host_mode()) {
        // The host pulling its own children's output: the server's registry
        // answers, and the handler is in the table before any chunk comes.
        return client::host_iof_pull_nb(
            procs, nprocs, directives, ndirs, static_cast<uint16_t>(channel),
            [done, cbfunc, format](pmix_status_t status, uint64_t id) {
                if (status != PMIX_SUCCESS) return done(status, nullptr);
                done(PMIX_SUCCESS, std::make_shared<std::size_t>(client::add_iof_handler(id, cbfunc, format)));
            });
    }
    std::shared_ptr<client::Session> session;
    rc = iof_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    wire::IofPullRequest request;
    request.procs.assign(procs, procs + nprocs);
    request.channels = channel;
    rc = request.directives.assign_copy(directives, ndirs);
    if (rc != PMIX_SUCCESS) return rc;
    // The handler is in the table before the next frame (the first chunk)
    // is read: this runs on the progress thread as the reply arrives.
    return client::send_message(session, request, client::timeout_of(directives, ndirs),
                                [done, cbfunc, format](pmix_status_t st, const wire::Frame *frame) {
                                    wire::IofPullReply reply;
                                    const pmix_status_t status = client::read_reply(st, frame, &reply);
                                    if (status != PMIX_SUCCESS) return done(status, nullptr);
                                    auto local = std::make_shared<std::size_t>(
                                        client::add_iof_handler(reply.id, cbfunc, format));
                                    done(PMIX_SUCCESS, local);
                                });
}

// Stdin in chunks; done runs once, when the last chunk is answered, with
// the first failure if any.
pmix_status_t start_push(const std::shared_ptr<client::Session> &session, const pmix_proc_t targets[], size_t ntargets,
                         const pmix_byte_object_t *bo, const pmix_info_t directives[], size_t ndirs, bool eof,
                         client::StatusDone done)
{
    const std::size_t size = bo != nullptr ? bo->size : 0;
    const std::size_t chunks = std::max<std::size_t>(1, (size + wire::kMaxIofChunk - 1) / wire::kMaxIofChunk);
    struct Progress {
        std::atomic<std::size_t> left;
        std::atomic<pmix_status_t> first_error{PMIX_SUCCESS};
    };
    auto progress = std::make_shared<Progress>();
    progress->left = chunks;
    for (std::size_t i = 0; i < chunks; ++i) {
        wire::IofPushRequest request;
        request.targets.assign(targets, targets + ntargets);
        pmix_status_t rc = request.directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        const std::size_t at = i * wire::kMaxIofChunk;
        const std::size_t piece = std::min(size - std::min(size, at), wire::kMaxIofChunk);
        if (piece > 0) request.data.assign(bo->bytes + at, bo->bytes + at + piece);
        request.eof = eof && i + 1 == chunks;
        rc = client::send_status_request(session, request, std::chrono::milliseconds{0},
                                         [progress, done](pmix_status_t status) {
                                             pmix_status_t none = PMIX_SUCCESS;
                                             if (status != PMIX_SUCCESS) {
                                                 progress->first_error.compare_exchange_strong(none, status);
                                             }
                                             if (--progress->left == 0) done(progress->first_error.load());
                                         });
        // Chunks already sent still answer; the caller hears this failure.
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

// The stdin reader: blocking pushes from its own thread (never the
// progress thread). It ends at end of input, or when a push fails (the
// session ended, or the host takes no stdin).
void forward_own_stdin(std::vector<pmix_proc_t> targets)
{
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        pmix_byte_object_t bo{buffer, n > 0 ? static_cast<size_t>(n) : 0};
        pmix_info_t done;
        bool yes = true;
        PMIX_INFO_LOAD(&done, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
        const bool end = n <= 0;
        const pmix_status_t rc = PMIx_IOF_push(targets.data(), targets.size(), end ? nullptr : &bo,
                                               end ? &done : nullptr, end ? 1 : 0, nullptr, nullptr);
        if (end || rc != PMIX_SUCCESS) return;
    }
}

pmix_status_t start_stdin_reader(const pmix_proc_t targets[], size_t ntargets)
{
    std::thread reader(forward_own_stdin, std::vector<pmix_proc_t>(targets, targets + ntargets));
    reader.detach();  // it ends with the input (or the session)
    return PMIX_OPERATION_SUCCEEDED;
}

}  // namespace

pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                            pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc, pmix_hdlr_reg_cbfunc_t regcbfunc,
                            void *regcbdata)
{
    try {
        if (regcbfunc != nullptr) {
            return start_pull(procs, nprocs, directives, ndirs, channel, cbfunc,
                              [regcbfunc, regcbdata](pmix_status_t status, std::shared_ptr<std::size_t> local) {
                                  regcbfunc(status, local ? *local : 0, regcbdata);
                              });
        }
        std::shared_ptr<std::size_t> local;
        const pmix_status_t rc = client::wait_for_reply<std::size_t>(
            [&](PullDone done) { return start_pull(procs, nprocs, directives, ndirs, channel, cbfunc, done); }, &local);
        if (rc != PMIX_SUCCESS) return rc;
        // The blocking form returns the handler's id itself (>= 0).
        return local ? static_cast<pmix_status_t>(*local) : PMIX_ERROR;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                                  void *cbdata)
{
    if (directives == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
    std::shared_ptr<client::Session> session;
    pmix_status_t rc = client::host_mode() ? PMIX_SUCCESS : iof_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    try {
        uint64_t server_id = 0;
        if (!session) {
            // The host's own pull: output it handed to PMIx_server_IOF_deliver
            // before this call still reaches the handler, which goes only
            // once the server's progress thread, running those deliveries in
            // order, has taken the pull away.
            if (!client::find_iof_handler(iofhdlr, &server_id)) return PMIX_ERR_NOT_FOUND;
            auto start = [&](client::StatusDone done) {
                return client::host_iof_deregister_nb(server_id, directives, ndirs,
                                                      [iofhdlr, done](pmix_status_t status) {
                                                          uint64_t ignored = 0;
                                                          (void)client::remove_iof_handler(iofhdlr, &ignored);
                                                          done(status);
                                                      });
            };
            if (cbfunc == nullptr) return client::wait_for_status(start);
            return start([cbfunc, cbdata](pmix_status_t status) { cbfunc(status, cbdata); });
        }
        if (!client::remove_iof_handler(iofhdlr, &server_id)) return PMIX_ERR_NOT_FOUND;
        wire::IofDeregisterRequest request;
        request.id = server_id;
        rc = request.directives.assign_copy(directives, ndirs);
        if (rc != PMIX_SUCCESS) return rc;
        auto start = [&](client::StatusDone done) {
            return client::send_status_request(session, request, std::chrono::milliseconds{0}, done);
        };
        if (cbfunc == nullptr) return client::wait_for_status(start);
        return start([cbfunc, cbdata](pmix_status_t status) { cbfunc(status, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets, pmix_byte_object_t *bo,
                            const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if ((targets == nullptr && ntargets > 0) || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
    if (bo != nullptr && bo->bytes == nullptr && bo->size > 0) return PMIX_ERR_BAD_PARAM;
    const bool eof = client::flag_of(directives, ndirs, PMIX_IOF_COMPLETE);
    const bool own_stdin = bo == nullptr && client::flag_of(directives, ndirs, PMIX_IOF_PUSH_STDIN);
    // Nothing to send and no end of input to tell: nothing to do.
    if ((bo == nullptr || bo->size == 0) && !eof && !own_stdin) return PMIX_ERR_BAD_PARAM;
    std::shared_ptr<client::Session> session;
    const pmix_status_t rc = client::host_mode() ? PMIX_SUCCESS : iof_session(&session);
    if (rc != PMIX_SUCCESS) return rc;
    // The end of input for nobody in particular (PRRTE's "close stdin"
    // when its job ends): nothing is waiting for it, as OpenPMIx answers.
    if (ntargets == 0) return eof && (bo == nullptr || bo->size == 0) ? PMIX_OPERATION_SUCCEEDED : PMIX_ERR_BAD_PARAM;
    try {
        if (own_stdin) {
            return start_stdin_reader(targets, ntargets);
        }
        auto start = [&](client::StatusDone done) {
            if (!session) return client::host_iof_push_nb(targets, ntargets, directives, ndirs, bo, eof, done);
            return start_push(session, targets, ntargets, bo, directives, ndirs, eof, done);
        };
        if (cbfunc == nullptr) return client::wait_for_status(start);
        return start([cbfunc, cbdata](pmix_status_t status) { cbfunc(status, cbdata); });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
