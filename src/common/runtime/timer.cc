#include "common/runtime/engine_loop.h"
#include "common/runtime/progress_engine.h"

namespace pmixpp::runtime {

bool Timer::cancel()
{
    if (!state_) {
        return false;
    }
    int expected = TimerState::kPending;
    if (!state_->state.compare_exchange_strong(expected, TimerState::kCancelled)) {
        return false;
    }
    // Unregister promptly so a long timeout does not linger in the base. The
    // loop outlives the work queued on it, hence the raw pointer.
    if (auto loop = state_->loop.lock()) {
        if (loop->on_loop_thread()) {
            loop->drop_timer(state_);
        } else {
            EngineLoop *raw = loop.get();
            (void)loop->post([raw, state = state_] { raw->drop_timer(state); });
        }
    }
    return true;
}

bool Timer::pending() const
{
    return state_ && state_->state.load() == TimerState::kPending;
}

}  // namespace pmixpp::runtime
