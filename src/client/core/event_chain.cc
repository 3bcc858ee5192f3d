// Chained delivery of one event through the matching handlers.
//
// Ownership: the chain is shared. While a handler holds the event, the only
// owner is the Step its callback data points to (through a small Ticket),
// so a handler that never calls back would keep it for ever. A timer on
// the progress thread therefore takes the chain away from a Step that is
// still open after handler_timeout() and moves on; the handler's late call
// then finds an empty Step and only frees its Ticket. A Ticket whose handler
// never calls back at all stays allocated (a few bytes, nothing else).
#include <mutex>
#include <new>
#include <string>

#include <pmix.h>

#include "client/core/events.h"
#include "client/core/params.h"
#include "common/runtime/log.h"
#include "common/values/value_ops.h"

namespace pmixpp::client {

namespace {

struct Chain {
    std::shared_ptr<EventHome> home;
    std::vector<EventHandler> handlers;
    size_t next = 0;
    wire::Event event;
    wire::InfoArray delivered;            // what the running handler was given
    wire::InfoArray results;              // what the handlers so far returned
    pmix_status_t status = PMIX_SUCCESS;  // the last handler's; PMIX_GROUP_CONSTRUCT_ABORT sticks
};
using ChainPtr = std::shared_ptr<Chain>;

// One handler's turn. Whoever takes `chain` first (the handler's callback
// or the timeout) continues the chain.
struct Step {
    std::mutex mutex;
    ChainPtr chain;
    runtime::Timer timer;
    std::string handler_name;

    ChainPtr take()
    {
        std::lock_guard lock(mutex);
        return std::move(chain);
    }
};

struct Ticket {
    std::shared_ptr<Step> step;
};

void run_next(ChainPtr chain);

// Appends copies of src[0..n) to *array_p.
pmix_status_t append_infos(wire::InfoArray *array_p, const pmix_info_t *src, size_t n)
{
    if (src == nullptr || n == 0) {
        return PMIX_SUCCESS;
    }
    wire::InfoArray merged;
    pmix_status_t rc = merged.allocate(array_p->size() + n);
    for (size_t i = 0; rc == PMIX_SUCCESS && i < array_p->size(); ++i) {
        rc = values::info_xfer(&merged[i], &(*array_p)[i]);
    }
    for (size_t i = 0; rc == PMIX_SUCCESS && i < n; ++i) {
        rc = values::info_xfer(&merged[array_p->size() + i], &src[i]);
    }
    if (rc == PMIX_SUCCESS) {
        *array_p = std::move(merged);
    }
    return rc;
}

void step_done(pmix_status_t status, pmix_info_t *results, size_t nresults, pmix_op_cbfunc_t cbfunc, void *thiscbdata,
               void *notification_cbdata)
{
    std::shared_ptr<Step> step;
    {
        std::unique_ptr<Ticket> ticket(static_cast<Ticket *>(notification_cbdata));
        if (ticket) {
            step = std::move(ticket->step);
        }
    }
    auto copied = std::make_shared<wire::InfoArray>();
    if (results != nullptr && nresults > 0) {
        (void)copied->assign_copy(results, nresults);
    }
    // The handler may release its results once we hold our copy.
    if (cbfunc != nullptr) {
        cbfunc(PMIX_SUCCESS, thiscbdata);
    }
    ChainPtr chain = step ? step->take() : nullptr;
    if (!chain) {
        return;  // too late: the timeout moved the chain on
    }
    (void)step->timer.cancel();
    (void)chain->home->engine->post([chain, status, copied] {
        (void)append_infos(&chain->results, copied->data(), copied->size());
        if (chain->status != PMIX_GROUP_CONSTRUCT_ABORT) {
            chain->status = status;
        }
        if (status != PMIX_EVENT_ACTION_COMPLETE) {
            run_next(chain);
        } else {
            answer_group_event(chain->event, chain->status, chain->results);
        }
    });
}

void on_handler_timeout(const std::weak_ptr<Step> &weak)
{
    auto step = weak.lock();
    ChainPtr chain = step ? step->take() : nullptr;
    if (!chain) {
        return;
    }
    runtime::log_warning("client", "event handler '" + step->handler_name + "' did not finish with event " +
                                       PMIx_Error_string(chain->event.status) +
                                       " in time; the event goes on to the next handler (raise " +
                                       kEventHandlerTimeoutParam + " if it needs longer)");
    run_next(std::move(chain));
}

// The event's info plus the handler's return object.
void prepare_info(Chain &chain, const EventHandler &handler)
{
    wire::InfoArray info;
    size_t extra = handler.has_return_object ? 1 : 0;
    if (info.allocate(chain.event.info.size() + extra) == PMIX_SUCCESS) {
        for (size_t i = 0; i < chain.event.info.size(); ++i) {
            (void)values::info_xfer(&info[i], &chain.event.info[i]);
        }
        if (extra != 0) {
            (void)values::info_load(&info[info.size() - 1], PMIX_EVENT_RETURN_OBJECT, handler.return_object,
                                    PMIX_POINTER);
        }
    }
    chain.delivered = std::move(info);
}

void run_next(ChainPtr chain)
{
    if (chain->home->finalizing.load()) {
        return;
    }
    if (chain->next >= chain->handlers.size()) {
        answer_group_event(chain->event, chain->status, chain->results);
        return;
    }
    const EventHandler &handler = chain->handlers[chain->next++];
    prepare_info(*chain, handler);
    auto step = std::make_shared<Step>();
    auto *ticket = new (std::nothrow) Ticket{step};
    if (ticket == nullptr) {
        return;
    }
    step->chain = chain;
    step->handler_name = handler.name.empty() ? "#" + std::to_string(handler.reference) : handler.name;
    auto timeout = handler_timeout();
    if (timeout.count() > 0) {
        std::weak_ptr<Step> weak = step;
        step->timer = chain->home->engine->add_timer(timeout, [weak] { on_handler_timeout(weak); });
    }
    // `chain` stays held until the handler returns (it may complete inline);
    // after that only the Step (or what it posted) holds it.
    handler.function(handler.reference, chain->event.status, &chain->event.source, chain->delivered.data(),
                     chain->delivered.size(), chain->results.data(), chain->results.size(), step_done, ticket);
}

}  // namespace

std::chrono::milliseconds handler_timeout()
{
    return seconds_param(kEventHandlerTimeoutParam, kDefaultEventHandlerTimeout);
}

void deliver_event(const std::shared_ptr<EventHome> &home, wire::Event event)
{
    if (!home->events || home->finalizing.load()) {
        return;
    }
    auto handlers = home->events->matching(event, *home);
    if (handlers.empty()) {
        // Nobody here takes a new lead (the server waits for each answer).
        answer_group_event(event, PMIX_SUCCESS, {});
        return;
    }
    auto chain = std::make_shared<Chain>();
    chain->home = home;
    chain->handlers = std::move(handlers);
    chain->event = std::move(event);
    run_next(std::move(chain));
}

}  // namespace pmixpp::client
