// The stdin of the command line's job: the processes that read it (--stdin:
// one rank, all, or none) get what pmixrun reads from its own stdin, and
// what tools push to them (PMIx_IOF_push, through the push_stdin upcall);
// with --stdin-tool pmixrun leaves its own stdin alone and only tools feed
// them. Each reader has a pipe and a backlog of its own; pmixrun reads more
// only once every backlog is written, and a tool's push is answered only
// once every pipe it targets took it, so a slow reader holds its writers
// back instead of growing pmixrun's memory. A reader's pipe is closed when
// the reader exits or closes its end, and once its input ended (pmixrun's
// stdin at its end, or a push with PMIX_IOF_COMPLETE) and its backlog is
// written.
#ifndef PMIXPP_BIN_PMIXRUN_STDIN_FORWARDER_H
#define PMIXPP_BIN_PMIXRUN_STDIN_FORWARDER_H

#include <poll.h>

#include <pmix_common.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pmixrun {

// The write end of one process's stdin pipe.
struct StdinFeed {
    uint32_t rank = 0;
    int fd = -1;
};

class StdinForwarder {
public:
    // read_own: pmixrun's stdin feeds the readers (false: --stdin-tool).
    explicit StdinForwarder(std::vector<StdinFeed> feeds, bool read_own = true);
    ~StdinForwarder() { close_all(); }
    StdinForwarder(const StdinForwarder &) = delete;
    StdinForwarder &operator=(const StdinForwarder &) = delete;

    // Appends what to poll: our stdin when more may be read, and each pipe
    // with a backlog. Remembers which entries are its own.
    void add_poll_entries(std::vector<pollfd> *fds);
    // Acts on those entries' revents.
    void on_poll(const std::vector<pollfd> &fds);
    // The reader of `rank` exited: its pipe is closed, its backlog dropped.
    void reader_exited(uint32_t rank);
    void close_all();

    // A tool's push to the readers among `ranks` (every reader when `all`);
    // `end`: their input ends after it. done(PMIX_SUCCESS) once every one of
    // their pipes took it, done(PMIX_ERR_UNREACH) when one closed first,
    // done(PMIX_ERR_NOT_FOUND) at once when none of them reads stdin.
    using PushDone = std::function<void(pmix_status_t)>;
    void push(const std::vector<uint32_t> &ranks, bool all, const std::string &data, bool end, PushDone done);

private:
    // A push waiting for the pipes it targets.
    struct PendingPush {
        std::size_t left = 0;
        pmix_status_t status = PMIX_SUCCESS;
        PushDone done;
    };
    struct Reader {
        StdinFeed feed;
        std::string backlog;
        bool ended = false;  // no more input: close once the backlog is written
        std::vector<std::shared_ptr<PendingPush>> waiting;
    };

    bool wants_input() const;
    void read_input();
    void flush(Reader &reader);
    void close_reader(Reader &reader);
    void settle(Reader &reader, pmix_status_t status);

    std::vector<Reader> readers_;
    bool input_open_ = true;                   // pmixrun's own stdin may be read
    std::size_t input_entry_ = SIZE_MAX;       // index in the poll set, or none
    std::vector<std::size_t> reader_entries_;  // readers_ index per poll entry after input_entry_
    std::size_t first_reader_entry_ = 0;
};

}  // namespace pmixrun

#endif
