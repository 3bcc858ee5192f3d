// Forwarding the job's stdout and stderr to pmixrun's own (or to a file per
// rank, --output-filename), optionally with every line prefixed by the time
// (--timestamp-output) and tagged "[nspace:rank] " (--tag-output). A
// prefixed line is written whole, so lines of different ranks never
// interleave mid-line.
// Once given its source, each read is also handed to the PMIx server as is
// (PMIx_server_IOF_deliver), for the tools that pulled it (docs/iof.md).
#ifndef PMIXPP_BIN_PMIXRUN_OUTPUT_H
#define PMIXPP_BIN_PMIXRUN_OUTPUT_H

#include <string>

#include <pmix_common.h>

namespace pmixrun {

struct LineFormat {
    std::string tag;         // empty: no tag
    bool timestamp = false;  // "Fri Nov 27 13:05:01 2026 " before the tag

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

private:
    void write_all(const std::string &text) const;
    std::string prefix() const;

    int target_;
    LineFormat format_;
    std::string partial_;
    pmix_proc_t source_{};
    pmix_iof_channel_t channel_ = 0;  // 0: not forwarded to tools
};

} // namespace pmixrun

#endif
