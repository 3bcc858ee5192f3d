// Forwarding the job's stdout and stderr to pmixrun's own, optionally with
// every line tagged "[nspace:rank] " (--tag-output). A line is written
// whole, so tagged lines of different ranks never interleave mid-line.
#ifndef PMIXPP_BIN_PMIXRUN_OUTPUT_H
#define PMIXPP_BIN_PMIXRUN_OUTPUT_H

#include <string>

namespace pmixrun {

class OutputStream {
public:
    OutputStream(int target_fd, std::string tag) : target_(target_fd), tag_(std::move(tag)) {}

    // Bytes read from the process.
    void feed(const char *data, std::size_t size);
    // The process closed its end: a last line without '\n' goes out too.
    void finish();

private:
    void write_all(const std::string &text) const;

    int target_;
    std::string tag_;   // empty: no tagging
    std::string partial_;
};

} // namespace pmixrun

#endif
