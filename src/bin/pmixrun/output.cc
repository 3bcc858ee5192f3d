#include "output.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include <pmix_server.h>

namespace pmixrun {

OutputStream::~OutputStream()
{
    if (target_ > STDERR_FILENO) ::close(target_);
}

std::string OutputStream::prefix() const
{
    if (!format_.timestamp) return format_.tag;
    char when[64] = {};
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    std::strftime(when, sizeof when, "%a %b %e %H:%M:%S %Y ", &local);
    return when + format_.tag;
}

void OutputStream::write_all(const char *data, std::size_t size) const
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(target_, data + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // our own output is gone: nothing to do about it
        done += static_cast<std::size_t>(n);
    }
}

void OutputStream::feed(const char *data, std::size_t size)
{
    if (channel_ != 0) {
        // Copied before it returns; a full puller loses chunks, never stalls us.
        pmix_byte_object_t bo{const_cast<char *>(data), size};
        (void)PMIx_server_IOF_deliver(&source_, channel_, &bo, nullptr, 0, nullptr, nullptr);
    }
    // The unfinished line left at the end began in this read when the
    // held one ended in it (or none was held).
    const bool held = !partial_.empty();
    bool ended_a_line = false;
    if (!format_.prefixes() && !held) {
        // The common case: whole lines straight from the read buffer.
        const char *last = static_cast<const char *>(::memrchr(data, '\n', size));
        const std::size_t whole = last == nullptr ? 0 : static_cast<std::size_t>(last - data) + 1;
        write_all(data, whole);
        ended_a_line = whole > 0;
        partial_.assign(data + whole, size - whole);
    } else {
        partial_.append(data, size);
        std::string lines;
        std::size_t start = 0;
        for (std::size_t newline; (newline = partial_.find('\n', start)) != std::string::npos; start = newline + 1) {
            if (!mid_line_) lines += prefix();
            lines.append(partial_, start, newline - start + 1);
            mid_line_ = false;
            ended_a_line = true;
        }
        partial_.erase(0, start);
        if (!lines.empty()) write_all(lines);
    }
    if (ended_a_line) mid_line_ = false;
    if (!held || ended_a_line) partial_since_ = Clock::now();
    if (partial_.size() >= kLongestHeldLine || format_.line_wait.count() == 0) write_partial();
}

void OutputStream::write_partial()
{
    if (partial_.empty()) return;
    write_all((mid_line_ ? std::string() : prefix()) + partial_);
    partial_.clear();
    mid_line_ = true;
}

Clock::time_point OutputStream::partial_due() const
{
    return partial_.empty() ? Clock::time_point::max() : partial_since_ + format_.line_wait;
}

void OutputStream::flush_partial_if_due(Clock::time_point now)
{
    if (!partial_.empty() && now >= partial_due()) write_partial();
}

void OutputStream::finish()
{
    // A last line without '\n' (held, or gone out on time) gets one when
    // prefixed, so the next prefix starts a line; untagged output is passed
    // on as it came.
    const bool unended = !partial_.empty() || mid_line_;
    write_partial();
    if (unended && format_.prefixes()) write_all("\n", 1);
    mid_line_ = false;
}

}  // namespace pmixrun
