#include "server/iof/local_output.h"

#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "common/runtime/log.h"

namespace pmixpp::server::iof {

// What waits for the writer thread. Shared so that the thread can outlive
// the server (a write blocked on a full pipe must not hold up finalize).
struct LocalOutput::Queue {
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::pair<int, std::string>> items;
    std::size_t bytes = 0;
    uint64_t dropped = 0;
    bool writing = false;
    bool closed = false;
    bool thread_started = false;
};

namespace {

void write_all(int fd, const std::string &text)
{
    std::size_t at = 0;
    while (at < text.size()) {
        const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // a closed stdout: nothing more can be shown
        at += static_cast<std::size_t>(n);
    }
}

void run_writer(std::shared_ptr<LocalOutput::Queue> queue)
{
    std::unique_lock lock(queue->mutex);
    for (;;) {
        queue->changed.wait(lock, [&] { return !queue->items.empty() || queue->closed; });
        if (queue->items.empty()) return;
        auto [fd, text] = std::move(queue->items.front());
        queue->items.pop_front();
        queue->writing = true;
        lock.unlock();
        write_all(fd, text);
        lock.lock();
        queue->bytes -= text.size();
        queue->writing = false;
        queue->changed.notify_all();
    }
}

bool flag_value(const pmix_info_t &info)
{
    return info.value.type != PMIX_BOOL || info.value.data.flag;
}

// A tool that started the host shows the output itself.
bool default_from_environment()
{
    return std::getenv("PMIX_LAUNCHER_RNDZ_URI") == nullptr && std::getenv("PMIX_KEEPALIVE_PIPE") == nullptr;
}

}  // namespace

LocalOutput::LocalOutput() : by_default_(default_from_environment()), queue_(std::make_shared<Queue>()) {}

LocalOutput::~LocalOutput()
{
    std::lock_guard lock(queue_->mutex);
    queue_->closed = true;
    queue_->changed.notify_all();
}

void LocalOutput::configure(const pmix_info_t info[], std::size_t ninfo)
{
    for (std::size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_IOF_LOCAL_OUTPUT)) by_default_ = flag_value(info[i]);
    }
}

void LocalOutput::namespace_registered(const std::string &nspace, const pmix_info_t info[], std::size_t ninfo)
{
    JobSettings settings;
    settings.format = ::pmixpp::iof::format_of(info, ninfo);
    for (std::size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_IOF_LOCAL_OUTPUT)) settings.local = flag_value(info[i]);
        // Both names: PRRTE registers its jobs with the older one.
        if (PMIX_CHECK_KEY(&info[i], PMIX_IOF_MERGE_STDERR_STDOUT) || PMIX_CHECK_KEY(&info[i], "pmix.mergeerrout")) {
            settings.merge = flag_value(info[i]);
        }
    }
    jobs_[nspace] = settings;
}

void LocalOutput::namespace_deregistered(const std::string &nspace)
{
    jobs_.erase(nspace);
}

void LocalOutput::write(const pmix_proc_t &source, uint16_t channel, const uint8_t *data, std::size_t size)
{
    if (size == 0) return;
    const auto job = jobs_.find(std::string(source.nspace, strnlen(source.nspace, PMIX_MAX_NSLEN)));
    const JobSettings settings = job != jobs_.end() ? job->second : JobSettings{};
    if (!settings.local.value_or(by_default_)) return;
    const int fd = channel == PMIX_FWD_STDOUT_CHANNEL || settings.merge ? STDOUT_FILENO : STDERR_FILENO;
    std::string text =
        ::pmixpp::iof::apply(settings.format, source, channel, std::string(reinterpret_cast<const char *>(data), size));
    std::lock_guard lock(queue_->mutex);
    if (queue_->bytes + text.size() > kMaxQueued) {
        if (queue_->dropped == 0) {
            runtime::log_warning("server", "the host's stdout or stderr is not read: its children's output is "
                                           "dropped until it is (PMIX_IOF_LOCAL_OUTPUT)");
        }
        queue_->dropped += text.size();
        return;
    }
    queue_->bytes += text.size();
    queue_->items.emplace_back(fd, std::move(text));
    if (!queue_->thread_started) {
        queue_->thread_started = true;
        std::thread(run_writer, queue_).detach();
    }
    queue_->changed.notify_all();
}

void LocalOutput::flush(std::chrono::milliseconds limit)
{
    std::unique_lock lock(queue_->mutex);
    queue_->changed.wait_for(lock, limit, [&] { return queue_->items.empty() && !queue_->writing; });
}

}  // namespace pmixpp::server::iof
