#include "stdin_forwarder.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace pmixrun {

StdinForwarder::StdinForwarder(std::vector<StdinFeed> feeds, bool read_own) : input_open_(read_own)
{
    for (const StdinFeed &feed : feeds) {
        if (feed.fd < 0) continue;
        (void)::fcntl(feed.fd, F_SETFL, ::fcntl(feed.fd, F_GETFL) | O_NONBLOCK);
        readers_.push_back({feed, {}, false, {}});
    }
}

bool StdinForwarder::wants_input() const
{
    if (!input_open_) return false;
    bool any_open = false;
    for (const Reader &reader : readers_) {
        if (reader.feed.fd < 0) continue;
        if (!reader.backlog.empty()) return false;
        any_open = true;
    }
    return any_open;
}

void StdinForwarder::add_poll_entries(std::vector<pollfd> *fds)
{
    input_entry_ = fds->size();
    fds->push_back({wants_input() ? STDIN_FILENO : -1, POLLIN, 0});
    first_reader_entry_ = fds->size();
    reader_entries_.clear();
    for (std::size_t i = 0; i < readers_.size(); ++i) {
        if (readers_[i].feed.fd < 0 || readers_[i].backlog.empty()) continue;
        fds->push_back({readers_[i].feed.fd, POLLOUT, 0});
        reader_entries_.push_back(i);
    }
}

void StdinForwarder::on_poll(const std::vector<pollfd> &fds)
{
    if (input_entry_ < fds.size() && fds[input_entry_].revents != 0) read_input();
    for (std::size_t e = 0; e < reader_entries_.size(); ++e) {
        if (fds[first_reader_entry_ + e].revents != 0) flush(readers_[reader_entries_[e]]);
    }
}

void StdinForwarder::read_input()
{
    char buffer[65536];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) input_open_ = false;
    for (Reader &reader : readers_) {
        if (reader.feed.fd < 0) continue;
        if (n > 0) reader.backlog.append(buffer, static_cast<std::size_t>(n));
        if (n <= 0) reader.ended = true;
        flush(reader);
    }
}

void StdinForwarder::flush(Reader &reader)
{
    while (!reader.backlog.empty() && reader.feed.fd >= 0) {
        const ssize_t n = ::write(reader.feed.fd, reader.backlog.data(), reader.backlog.size());
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
        if (n <= 0) return close_reader(reader);  // the reader closed its stdin
        reader.backlog.erase(0, static_cast<std::size_t>(n));
    }
    if (!reader.backlog.empty()) return;
    settle(reader, PMIX_SUCCESS);
    if (reader.ended) close_reader(reader);
}

void StdinForwarder::close_reader(Reader &reader)
{
    settle(reader, reader.backlog.empty() ? PMIX_SUCCESS : PMIX_ERR_UNREACH);
    if (reader.feed.fd >= 0) ::close(reader.feed.fd);
    reader.feed.fd = -1;
    reader.backlog.clear();
}

// The pushes waiting for this reader are done with it.
void StdinForwarder::settle(Reader &reader, pmix_status_t status)
{
    std::vector<std::shared_ptr<PendingPush>> waiting = std::move(reader.waiting);
    reader.waiting.clear();
    for (const auto &pending : waiting) {
        if (status != PMIX_SUCCESS) pending->status = status;
        if (--pending->left == 0 && pending->done) pending->done(pending->status);
    }
}

void StdinForwarder::push(const std::vector<uint32_t> &ranks, bool all, const std::string &data, bool end,
                          PushDone done)
{
    auto pending = std::make_shared<PendingPush>();
    pending->done = std::move(done);
    std::vector<Reader *> targets;
    for (Reader &reader : readers_) {
        const bool named = all || std::find(ranks.begin(), ranks.end(), reader.feed.rank) != ranks.end();
        if (named && reader.feed.fd >= 0 && !reader.ended) targets.push_back(&reader);
    }
    if (targets.empty()) return pending->done(PMIX_ERR_NOT_FOUND);
    pending->left = targets.size() + 1;  // + 1: held until every target has it queued
    for (Reader *reader : targets) {
        reader->backlog += data;
        reader->ended = reader->ended || end;
        reader->waiting.push_back(pending);
        flush(*reader);
    }
    if (--pending->left == 0) pending->done(pending->status);
}

void StdinForwarder::reader_exited(uint32_t rank)
{
    for (Reader &reader : readers_) {
        if (reader.feed.rank == rank) close_reader(reader);
    }
}

void StdinForwarder::close_all()
{
    for (Reader &reader : readers_) close_reader(reader);
}

}  // namespace pmixrun
