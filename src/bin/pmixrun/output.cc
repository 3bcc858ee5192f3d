#include "output.h"

#include <unistd.h>

#include <cerrno>
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

void OutputStream::write_all(const std::string &text) const
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(target_, text.data() + done, text.size() - done);
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
    if (!format_.prefixes()) {
        write_all(std::string(data, size));
        return;
    }
    partial_.append(data, size);
    std::string lines;
    std::size_t start = 0;
    const std::string before = prefix();
    for (std::size_t newline; (newline = partial_.find('\n', start)) != std::string::npos; start = newline + 1) {
        lines += before + partial_.substr(start, newline - start + 1);
    }
    partial_.erase(0, start);
    if (!lines.empty()) write_all(lines);
}

void OutputStream::finish()
{
    if (!partial_.empty()) write_all(prefix() + partial_ + "\n");
    partial_.clear();
}

} // namespace pmixrun
