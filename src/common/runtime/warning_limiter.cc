#include "common/runtime/warning_limiter.h"

#include "common/runtime/log.h"

#include <cstdio>

namespace pmixpp::runtime {

WarningLimiter::WarningLimiter(ProgressEngine &engine, std::string area, std::chrono::milliseconds window)
    : engine_(engine), area_(std::move(area)), window_(window), alive_(std::make_shared<bool>(true))
{}

WarningLimiter::~WarningLimiter()
{
    *alive_ = false;
    // What was swallowed is still told: a summary is owed for each cause.
    for (auto &[cause, state] : causes_) {
        state.window_end.cancel();
        if (state.swallowed > 0) {
            log_warning(area_, state.last_text + " (" + std::to_string(state.swallowed) + " more like it)");
        }
    }
}

void WarningLimiter::note(const std::string &cause, const std::string &text)
{
    auto [entry, first] = causes_.try_emplace(cause);
    Cause &state = entry->second;
    if (!first && state.window_end.pending()) {
        ++state.swallowed;
        ++swallowed_total_;
        state.last_text = text;
        return;
    }
    log_warning(area_, text);
    ++printed_;
    std::weak_ptr<bool> alive = alive_;
    state.window_end = engine_.add_timer(window_, [this, alive, cause] {
        if (alive.lock()) close_window(cause);
    });
}

void WarningLimiter::close_window(const std::string &cause)
{
    auto found = causes_.find(cause);
    if (found == causes_.end()) return;
    Cause &state = found->second;
    if (state.swallowed == 0) {
        causes_.erase(found);  // quiet now: the next one prints at once
        return;
    }
    const double seconds = static_cast<double>(window_.count()) / 1000.0;
    char span[32];
    std::snprintf(span, sizeof(span), "%g", seconds);
    log_warning(area_,
                state.last_text + " (" + std::to_string(state.swallowed) + " more like it in the last " + span + " s)");
    ++printed_;
    state.swallowed = 0;
    std::weak_ptr<bool> alive = alive_;
    state.window_end = engine_.add_timer(window_, [this, alive, cause] {
        if (alive.lock()) close_window(cause);
    });
}

}  // namespace pmixpp::runtime
