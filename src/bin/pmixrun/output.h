// Forwarding the job's stdout and stderr to pmixrun's own (or to a file per
// rank, --output-filename), optionally with every line prefixed by the time
// (--timestamp-output) and tagged "[nspace:rank] " (--tag-output).
// Lines are written whole, so lines of different ranks do not interleave
// mid-line even when a process writes a line in pieces (Python with
// PYTHONUNBUFFERED writes the text and its '\n' apart). A line still
// unfinished after LineFormat::line_wait goes out as it is, so a prompt
// without '\n' shows; its end then follows without a second prefix, and
// another rank's line may land between the two: the price of the prompt.
// The time of --timestamp-output is when a line goes out (at most
// line_wait after its first byte came).
// Once given its source, each read is also handed to the PMIx server as is
// (PMIx_server_IOF_deliver), for the tools that pulled it (docs/iof.md).
#ifndef PMIXPP_BIN_PMIXRUN_OUTPUT_H
#define PMIXPP_BIN_PMIXRUN_OUTPUT_H

#include <chrono>
#include <string>

#include <pmix_common.h>

namespace pmixrun {

using Clock = std::chrono::steady_clock;  // as job.h's

struct LineFormat {
    std::string tag;         // empty: no tag
    bool timestamp = false;  // "Fri Nov 27 13:05:01 2026 " before the tag
    // How long a piece of a line waits for the rest of it (--output-line-wait).
    std::chrono::milliseconds line_wait{100};

    bool prefixes() const { return timestamp || !tag.empty(); }
};

class OutputStream {
public:
    // Owns target_fd (closes it) unless it is one of pmixrun's own.
    OutputStream(int target_fd, LineFormat format) : target_(target_fd), format_(std::move(format)) {}
    ~OutputStream();
    OutputStream(const OutputStream &) = delete;
    OutputStream &operator=(const OutputStream &) = delete;

    // The process and channel this stream carries, for tools.
    void set_source(const pmix_proc_t &proc, pmix_iof_channel_t channel)
    {
        source_ = proc;
        channel_ = channel;
    }
    // Bytes read from the process.
    void feed(const char *data, std::size_t size);
    // The process closed its end: a last line without '\n' goes out too.
    void finish();

    // When the unfinished line held back is due (max: none held).
    Clock::time_point partial_due() const;
    // Writes the unfinished line if it is due at `now`.
    void flush_partial_if_due(Clock::time_point now);

    // A held line that reaches this size goes out as it is (a piece of at
    // most this plus one read).
    static constexpr std::size_t kLongestHeldLine = 64 * 1024;

private:
    void write_all(const char *data, std::size_t size) const;
    void write_all(const std::string &text) const { write_all(text.data(), text.size()); }
    void write_partial();
    std::string prefix() const;

    int target_;
    LineFormat format_;
    std::string partial_;              // the unfinished line held back
    Clock::time_point partial_since_;  // when partial_ got its first byte
    bool mid_line_ = false;            // the line's start went out already
    pmix_proc_t source_{};
    pmix_iof_channel_t channel_ = 0;  // 0: not forwarded to tools
};

}  // namespace pmixrun

#endif
