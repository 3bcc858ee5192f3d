#include "common/wire/request_tracker.h"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "common/runtime/log.h"

namespace pmixpp::wire {

RequestTracker::RequestTracker(runtime::ProgressEngine &engine) : engine_(engine), alive_(std::make_shared<bool>(true))
{}

RequestTracker::~RequestTracker()
{
    alive_.reset();
    fail_all(PMIX_ERR_LOST_CONNECTION);
}

uint32_t RequestTracker::next_free_tag()
{
    // Tags wrap after 2^32 requests; skip kNoTag, reserved tags and tags
    // still in flight.
    do {
        ++last_tag_;
    } while (last_tag_ == kNoTag || last_tag_ < first_tag_ || pending_.contains(last_tag_));
    return last_tag_;
}

void RequestTracker::reserve_tags_below(uint32_t first)
{
    std::lock_guard lock(mutex_);
    first_tag_ = first;
}

uint32_t RequestTracker::add(ReplyCallback cb, std::chrono::milliseconds timeout)
{
    uint32_t tag = kNoTag;
    {
        std::lock_guard lock(mutex_);
        tag = next_free_tag();
        pending_[tag].callback = std::move(cb);
    }
    if (timeout.count() <= 0) {
        return tag;
    }
    std::weak_ptr<bool> alive = alive_;
    runtime::Timer timer = engine_.add_timer(timeout, [this, alive, tag] {
        if (alive.lock()) {
            fail(tag, PMIX_ERR_TIMEOUT);
        }
    });
    std::lock_guard lock(mutex_);
    auto it = pending_.find(tag);
    if (it != pending_.end()) {
        it->second.timer = std::move(timer);
    } else {
        timer.cancel();  // failed meanwhile (the connection dropped)
    }
    return tag;
}

bool RequestTracker::finish(uint32_t tag, pmix_status_t status, const Frame *reply)
{
    Pending entry;
    {
        std::lock_guard lock(mutex_);
        auto it = pending_.find(tag);
        if (it == pending_.end()) {
            return false;
        }
        entry = std::move(it->second);
        pending_.erase(it);
    }
    entry.timer.cancel();
    if (!entry.callback) {
        return true;
    }
    try {
        entry.callback(status, reply);
    } catch (const std::exception &e) {
        runtime::log_warning("wire", std::string("reply callback threw: ") + e.what());
    } catch (...) {
        runtime::log_warning("wire", "reply callback threw an unknown exception");
    }
    return true;
}

bool RequestTracker::complete(const Frame &reply)
{
    return finish(reply.header.tag, PMIX_SUCCESS, &reply);
}

bool RequestTracker::fail(uint32_t tag, pmix_status_t status)
{
    return finish(tag, status, nullptr);
}

void RequestTracker::fail_all(pmix_status_t status)
{
    // Callbacks may add new requests; those are not failed by this call.
    std::vector<uint32_t> tags;
    {
        std::lock_guard lock(mutex_);
        tags.reserve(pending_.size());
        for (const auto &entry : pending_) {
            tags.push_back(entry.first);
        }
    }
    for (uint32_t tag : tags) {
        fail(tag, status);
    }
}

bool RequestTracker::forget(uint32_t tag)
{
    Pending entry;
    {
        std::lock_guard lock(mutex_);
        auto it = pending_.find(tag);
        if (it == pending_.end()) {
            return false;
        }
        entry = std::move(it->second);
        pending_.erase(it);
    }
    entry.timer.cancel();
    return true;  // entry (and what its callback captured) is released here, unlocked
}

size_t RequestTracker::pending() const
{
    std::lock_guard lock(mutex_);
    return pending_.size();
}

}  // namespace pmixpp::wire
