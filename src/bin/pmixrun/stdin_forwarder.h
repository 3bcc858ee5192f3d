// pmixrun's stdin, copied to the processes of the command line's job that
// read it (--stdin: one rank, all, or none). Each reader has a pipe and a
// backlog of its own; pmixrun reads more only once every backlog is written,
// so a slow reader holds the others back instead of growing pmixrun's
// memory. A reader's pipe is closed when the reader exits or closes its end,
// and once pmixrun's stdin ends and its backlog is written.
#ifndef PMIXPP_BIN_PMIXRUN_STDIN_FORWARDER_H
#define PMIXPP_BIN_PMIXRUN_STDIN_FORWARDER_H

#include <poll.h>

#include <cstdint>
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
    explicit StdinForwarder(std::vector<StdinFeed> feeds);
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

private:
    struct Reader {
        StdinFeed feed;
        std::string backlog;
    };

    bool wants_input() const;
    void read_input();
    void flush(Reader &reader);
    void close_reader(Reader &reader);

    std::vector<Reader> readers_;
    bool input_open_ = true;
    std::size_t input_entry_ = SIZE_MAX;        // index in the poll set, or none
    std::vector<std::size_t> reader_entries_;   // readers_ index per poll entry after input_entry_
    std::size_t first_reader_entry_ = 0;
};

} // namespace pmixrun

#endif
