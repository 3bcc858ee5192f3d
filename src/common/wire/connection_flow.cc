// Flow control of a Connection (flow_limits.h): what a peer may have
// queued, pausing and resuming its reads for its own queue, holding them
// for others' queues, and the bytes of a read kept back meanwhile. The I/O
// itself is in connection_io.cc.
#include <event2/event.h>

#include <string>
#include <vector>

#include "common/runtime/log.h"
#include "common/wire/connection_impl.h"

namespace pmixpp::wire {

bool Connection::Impl::queue_locked(Queued frame, std::string *reason_p)
{
    if (flow.hard_limit > 0 && queued_bytes >= flow.hard_limit) {
        *reason_p = std::to_string(queued_bytes) + " bytes wait to be sent to it, over " + kHardLimitEnv + "=" +
                    std::to_string(flow.hard_limit) + " (it stopped reading its socket)";
        return false;
    }
    queued_bytes += frame.size();
    outgoing.push_back(std::move(frame));
    return true;
}

void Connection::Impl::pause_reading()
{
    if (closed || reading_paused) {
        return;
    }
    {
        std::lock_guard lock(out_mutex);
        if (queued_bytes <= flow.low_water) {
            pause_requested = false;  // drained meanwhile
            return;
        }
    }
    reading_paused = true;
    if (read_event != nullptr) {
        event_del(read_event);
    }
    runtime::log_trace(kPtlVerboseEnv, "wire", "not reading " + description + " until it reads its replies");
}

void Connection::Impl::resume_reading()
{
    if (closed || !reading_paused) {
        return;
    }
    reading_paused = false;
    {
        std::lock_guard lock(out_mutex);
        pause_requested = false;
    }
    rearm_reading();
    runtime::log_trace(kPtlVerboseEnv, "wire", "reading " + description + " again");
}

void Connection::Impl::rearm_reading()
{
    if (closed || reading_paused || reading_held || read_event == nullptr || close_after_send) {
        return;
    }
    event_add(read_event, nullptr);
    // What was held back is handed over on the next turn, even if the
    // socket stays silent.
    if (!held.empty()) {
        event_active(read_event, EV_READ, 0);
    }
}

void Connection::Impl::hold_reading(std::chrono::milliseconds at_most)
{
    if (closed || reading_held || !started) {
        return;
    }
    reading_held = true;
    if (read_event != nullptr) {
        event_del(read_event);
    }
    hold_timer = engine.add_timer(at_most, [weak = weak_self] {
        if (auto conn = weak.lock()) {
            conn->impl_->end_hold();
        }
    });
}

void Connection::Impl::end_hold()
{
    reading_held = false;
    rearm_reading();
}

bool Connection::Impl::should_stop_reading() const
{
    return reading_paused || reading_held ||
           (flow.frames_per_wakeup > 0 && frames_this_wakeup >= flow.frames_per_wakeup);
}

bool Connection::Impl::release_held()
{
    if (held.empty()) {
        return true;
    }
    std::vector<uint8_t> bytes = std::move(held);
    held.clear();
    return consume(bytes.data(), bytes.size());
}

}  // namespace pmixpp::wire
