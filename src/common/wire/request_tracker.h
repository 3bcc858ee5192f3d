// Request/reply correlation for one connection: hands out tags, remembers a
// callback per tag, completes it on the matching REPLY, on its timeout, or
// when the connection drops (fail_all), so no caller is left waiting.
//
//   // on any thread:
//   uint32_t tag = tracker.add(
//       [](pmix_status_t st, const Frame *reply) { ... }, 5000ms);
//   if (conn->send(FrameKind::request, tag, payload) != PMIX_SUCCESS)
//       tracker.forget(tag);   // or fail(tag, ...) on the progress thread
//   // message handler:  if (f.header.kind == FrameKind::reply) tracker.complete(f);
//   // close handler:    tracker.fail_all(PMIX_ERR_LOST_CONNECTION);
//
// Threading: add() and forget() from any thread, so that a caller can send
// its request itself; complete/fail/fail_all on the progress thread, where
// callbacks therefore run (timeouts are engine timers). Each callback runs
// at most once (exactly once unless forgotten), is removed before it runs
// (so it may call add/fail_all), and gets reply == nullptr unless status is
// PMIX_SUCCESS. Call add() before sending, and fail_all() after the
// connection stopped taking sends: then no request is left behind.
#ifndef PMIXPP_COMMON_WIRE_REQUEST_TRACKER_H
#define PMIXPP_COMMON_WIRE_REQUEST_TRACKER_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <pmix_common.h>

#include "common/runtime/progress_engine.h"
#include "common/wire/frame.h"

namespace pmixpp::wire {

class RequestTracker {
public:
    using ReplyCallback = std::function<void(pmix_status_t status, const Frame *reply)>;

    explicit RequestTracker(runtime::ProgressEngine &engine);
    // Pending callbacks are completed with PMIX_ERR_LOST_CONNECTION.
    ~RequestTracker();
    RequestTracker(const RequestTracker &) = delete;
    RequestTracker &operator=(const RequestTracker &) = delete;

    // Registers cb and returns its tag (never kNoTag, never one still
    // pending). timeout 0 means none; on expiry cb gets PMIX_ERR_TIMEOUT and a
    // late reply for that tag is ignored.
    uint32_t add(ReplyCallback cb, std::chrono::milliseconds timeout = std::chrono::milliseconds{0});

    // Runs the callback registered for reply.header.tag with PMIX_SUCCESS.
    // False when no request with that tag is pending (late or bogus reply).
    bool complete(const Frame &reply);
    // Completes one request with an error status. False when not pending.
    bool fail(uint32_t tag, pmix_status_t status);
    // Completes every pending request with status (e.g. LOST_CONNECTION).
    void fail_all(pmix_status_t status);
    // Drops a request without running its callback (its send failed and
    // the caller reports that itself). False when it is no longer pending:
    // then the callback has run or is running.
    bool forget(uint32_t tag);

    size_t pending() const;

    // Tags below `first` are never handed out: OpenPMIx's servers keep 0-99
    // for their own messages (events on 0, output on 2) and answer a
    // request on the tag it came with.
    void reserve_tags_below(uint32_t first);

private:
    struct Pending {
        ReplyCallback callback;
        runtime::Timer timer;
    };

    bool finish(uint32_t tag, pmix_status_t status, const Frame *reply);
    uint32_t next_free_tag();

    runtime::ProgressEngine &engine_;
    mutable std::mutex mutex_;  // guards pending_ and last_tag_
    std::unordered_map<uint32_t, Pending> pending_;
    uint32_t last_tag_ = kNoTag;
    uint32_t first_tag_ = kNoTag + 1;
    // Timers capture this flag, not `this`, so a timer that fires after the
    // tracker is gone does nothing.
    std::shared_ptr<bool> alive_;
};

}  // namespace pmixpp::wire

#endif
