#include "server/state/event_cache.h"

#include "common/runtime/log.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace pmixpp::server {

namespace {

constexpr std::size_t kDefaultMaxEvents = 512;
constexpr std::size_t kMaxCachedBytes = 4u << 20;
constexpr long kDefaultEvictionSeconds = 120;

long number_from_environment(const char *variable, long fallback, long most)
{
    const char *text = std::getenv(variable);
    if (text == nullptr || *text == '\0') return fallback;
    char *end = nullptr;
    errno = 0;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || value < 0 || value > most) {
        runtime::log_warning("server", std::string(variable) + "='" + text + "' is not a number in [0, " +
                                           std::to_string(most) + "] (using the default of " +
                                           std::to_string(fallback) + ")");
        return fallback;
    }
    return value;
}

}  // namespace

EventCache::EventCache()
    : max_events_(static_cast<std::size_t>(number_from_environment(kMaxEventsEnv, kDefaultMaxEvents, 1 << 20))),
      max_bytes_(kMaxCachedBytes),
      max_age_(number_from_environment(kEventEvictionTimeEnv, kDefaultEvictionSeconds, 86400))
{}

void EventCache::add(Entry entry)
{
    if (max_events_ == 0 || max_age_.count() == 0 || !entry.encoded) return;
    if (entry.encoded->size() > max_bytes_) return;
    bytes_ += entry.encoded->size();
    entries_.push_back(std::move(entry));
    evict(Clock::now());
}

std::deque<EventCache::Entry> &EventCache::live()
{
    evict(Clock::now());
    return entries_;
}

void EventCache::forget(const std::function<bool(const wire::Event &event)> &stale)
{
    std::erase_if(entries_, [&](const Entry &entry) {
        if (!stale(entry.event)) return false;
        bytes_ -= entry.encoded->size();
        return true;
    });
}

void EventCache::evict(Clock::time_point now)
{
    while (!entries_.empty() &&
           (entries_.size() > max_events_ || bytes_ > max_bytes_ || now - entries_.front().raised > max_age_)) {
        bytes_ -= entries_.front().encoded->size();
        entries_.pop_front();
    }
}

}  // namespace pmixpp::server
