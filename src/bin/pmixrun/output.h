// Forwarding the job's stdout and stderr to pmixrun's own, optionally with
// every line tagged "[nspace:rank] " (--tag-output). A line is written
// whole, so tagged lines of different ranks never interleave mid-line.
// Once given its source, each read is also handed to the PMIx server as is
// (PMIx_server_IOF_deliver), for the tools that pulled it (docs/iof.md).
#ifndef PMIXPP_BIN_PMIXRUN_OUTPUT_H
#define PMIXPP_BIN_PMIXRUN_OUTPUT_H

#include <string>

#include <pmix_common.h>

namespace pmixrun {

class OutputStream {
public:
    OutputStream(int target_fd, std::string tag) : target_(target_fd), tag_(std::move(tag)) {}

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

    int target_;
    std::string tag_;   // empty: no tagging
    std::string partial_;
    pmix_proc_t source_{};
    pmix_iof_channel_t channel_ = 0;  // 0: not forwarded to tools
};

} // namespace pmixrun

#endif
