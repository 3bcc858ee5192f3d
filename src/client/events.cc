// Event handler registration and notification. Handlers live on the
// progress thread (core/events.h); the server is told which codes we want so
// it forwards them, and raised events go both to our own handlers and to the
// server (which must not echo them back to us). A host (no session, its own
// server running) keeps its handlers in core/host_mode.h's event home.
#include <pmix.h>

#include <cstring>
#include <memory>
#include <new>

#include "client/core/events.h"
#include "client/core/host_mode.h"
#include "client/core/requests.h"
#include "client/core/session.h"
#include "common/runtime/latch.h"

using namespace pmixpp;

namespace {

using RegDone = std::function<void(pmix_status_t status, size_t reference)>;
using OpDone = std::function<void(pmix_status_t status)>;

// Tells the server; done runs when it answered (or could not be reached).
void register_with_server(const std::shared_ptr<client::Session> &session, const client::EventHandler &handler,
                          const pmix_info_t info[], size_t ninfo, RegDone done)
{
    size_t reference = handler.reference;
    wire::RegisterEventsRequest request;
    request.codes = handler.codes;
    if (request.info.assign_copy(info, ninfo) != PMIX_SUCCESS) {
        done(PMIX_SUCCESS, reference);
        return;
    }
    pmix_status_t rc =
        client::send_message(session, request, std::chrono::milliseconds{0},
                             [session, reference, done](pmix_status_t st, const wire::Frame *frame) {
                                 wire::RegisterEventsReply reply;
                                 if (client::read_reply(st, frame, &reply) == PMIX_SUCCESS && session->events) {
                                     session->events->set_server_reference(reference, reply.reference);
                                 }
                                 // Local delivery works whatever the server said.
                                 done(PMIX_SUCCESS, reference);
                             });
    if (rc != PMIX_SUCCESS) {
        done(PMIX_SUCCESS, reference);
    }
}

pmix_status_t start_register(const std::shared_ptr<client::Session> &session, client::EventHandler handler,
                             wire::InfoArray info, RegDone done)
{
    auto shared_info = std::make_shared<wire::InfoArray>(std::move(info));
    return session->engine->post([session, handler = std::move(handler), shared_info, done]() mutable {
        if (!session->events || session->finalizing.load()) {
            done(PMIX_ERR_INIT, 0);
            return;
        }
        size_t reference = session->events->add(handler);
        handler.reference = reference;
        if (session->singleton) {
            done(PMIX_SUCCESS, reference);
            return;
        }
        register_with_server(session, handler, shared_info->data(), shared_info->size(), done);
    });
}

pmix_status_t start_deregister(const std::shared_ptr<client::Session> &session, size_t reference, OpDone done)
{
    return session->engine->post([session, reference, done] {
        client::EventHandler removed;
        if (!session->events || !session->events->remove(reference, &removed)) {
            done(PMIX_ERR_NOT_FOUND);
            return;
        }
        if (!removed.server_reference || session->singleton) {
            done(PMIX_SUCCESS);
            return;
        }
        wire::DeregisterEventsRequest request;
        request.reference = *removed.server_reference;
        pmix_status_t rc = client::send_message(session, request, std::chrono::milliseconds{0},
                                                [done](pmix_status_t, const wire::Frame *) { done(PMIX_SUCCESS); });
        if (rc != PMIX_SUCCESS) {
            done(PMIX_SUCCESS);
        }
    });
}

// PMIx_Register_event_handler of a host (no client session).
pmix_status_t host_register(const pmix_status_t codes[], size_t ncodes, const pmix_info_t info[], size_t ninfo,
                            pmix_notification_fn_t evhdlr, pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata)
{
    try {
        if (cbfunc != nullptr) {
            return client::host_register_handler(
                codes, ncodes, info, ninfo, evhdlr,
                [cbfunc, cbdata](pmix_status_t st, size_t ref) { cbfunc(st, ref, cbdata); });
        }
        if (runtime::ProgressEngine::process().on_progress_thread()) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        auto latch = std::make_shared<runtime::Latch<size_t>>();
        pmix_status_t rc = client::host_register_handler(
            codes, ncodes, info, ninfo, evhdlr, [latch](pmix_status_t st, size_t ref) { latch->complete(st, ref); });
        if (rc == PMIX_SUCCESS) {
            rc = latch->wait();
        }
        return rc != PMIX_SUCCESS ? rc : static_cast<pmix_status_t>(latch->payload());
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace

// With cbfunc NULL the call blocks and returns the handler's reference (>= 0)
// or a negative error, as the standard says.
pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes, pmix_info_t info[], size_t ninfo,
                                          pmix_notification_fn_t evhdlr, pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    if (!session) {
        return client::host_mode() ? host_register(codes, ncodes, info, ninfo, evhdlr, cbfunc, cbdata) : PMIX_ERR_INIT;
    }
    try {
        client::EventHandler handler;
        pmix_status_t rc = client::EventRegistry::describe(codes, ncodes, info, ninfo, evhdlr, &handler);
        wire::InfoArray info_copy;
        if (rc == PMIX_SUCCESS) {
            rc = info_copy.assign_copy(info, ninfo);
        }
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        if (cbfunc != nullptr) {
            return start_register(session, std::move(handler), std::move(info_copy),
                                  [cbfunc, cbdata](pmix_status_t st, size_t ref) { cbfunc(st, ref, cbdata); });
        }
        if (client::check_may_block(*session) != PMIX_SUCCESS) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        using RefLatch = runtime::Latch<size_t>;
        auto latch = std::make_shared<RefLatch>();
        rc = start_register(session, std::move(handler), std::move(info_copy),
                            [latch](pmix_status_t st, size_t ref) { latch->complete(st, ref); });
        if (rc == PMIX_SUCCESS) {
            rc = latch->wait();
        }
        return rc != PMIX_SUCCESS ? rc : static_cast<pmix_status_t>(latch->payload());
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    try {
        auto start = [&](OpDone done) {
            return session ? start_deregister(session, evhdlr_ref, std::move(done))
                           : client::host_deregister_handler(evhdlr_ref, std::move(done));
        };
        if (cbfunc != nullptr) {
            return start([cbfunc, cbdata](pmix_status_t st) { cbfunc(st, cbdata); });
        }
        if (runtime::ProgressEngine::process().on_progress_thread()) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        auto latch = std::make_shared<runtime::Latch<>>();
        pmix_status_t rc = start([latch](pmix_status_t st) { latch->complete(st); });
        return rc != PMIX_SUCCESS ? rc : latch->wait();
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t PMIx_Notify_event(pmix_status_t status, const pmix_proc_t *source, pmix_data_range_t range,
                                const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    auto session = client::current_session();
    if (!session && !client::host_mode()) {
        return PMIX_ERR_INIT;
    }
    if (info == nullptr && ninfo > 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        if (!session) {
            return client::host_notify(status, source, range, info, ninfo, [cbfunc, cbdata](pmix_status_t st) {
                if (cbfunc != nullptr) {
                    cbfunc(st, cbdata);
                }
            });
        }
        wire::Event event;
        event.status = status;
        event.source = source != nullptr ? *source : session->self;
        event.range = range;
        pmix_status_t rc = event.info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        wire::NotifyEventRequest request;
        request.event.status = status;
        request.event.source = event.source;
        request.event.range = range;
        rc = request.event.info.assign_copy(info, ninfo);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        auto shared_event = std::make_shared<wire::Event>(std::move(event));
        bool to_server = !session->singleton && range != PMIX_RANGE_PROC_LOCAL;
        OpDone done = [cbfunc, cbdata](pmix_status_t st) {
            if (cbfunc != nullptr) {
                cbfunc(st, cbdata);
            }
        };
        // Sent from the caller's thread, as every request is, so that it
        // goes out before anything the caller sends next (a finalize).
        if (to_server) {
            pmix_status_t sent = client::send_message(session, request, std::chrono::milliseconds{0},
                                                      [done](pmix_status_t st, const wire::Frame *frame) {
                                                          wire::StatusReply reply;
                                                          done(client::read_reply(st, frame, &reply));
                                                      });
            if (sent != PMIX_SUCCESS) return sent;
        }
        return session->engine->post([session, shared_event, to_server, done] {
            client::deliver_event(session, std::move(*shared_event));
            if (!to_server) done(PMIX_SUCCESS);
        });
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}
