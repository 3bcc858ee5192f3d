// A client that sends requests and never reads its socket, beside a
// legitimate rank of the same job: the server stops reading
// the slow one once its replies pile up, keeps its own memory bounded, caps
// the gets it parks, drops a peer that events pile up for, and serves the
// other rank all along.
#include "server/server_fixture.h"
#include "support/process_usage.h"

#include <criterion/criterion.h>

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

using namespace server_test;
using namespace pmixpp;

namespace {

// The most one slow reader may cost the server (docs/reliability.md).
[[maybe_unused]] constexpr long kMaxGrowthKb = 64 * 1024;

// Resident growth since `before` is under the bound. Under ASan freed
// memory stays in quarantine, and under TSan every byte has shadow bytes
// too, so the figure says nothing there: the pause itself (the socket that
// stays full), the drop and LeakSanitizer carry the check.
void expect_growth_bounded(long before, const char *what)
{
#if defined(PMIXPP_UNDER_ASAN) || defined(PMIXPP_UNDER_TSAN)
    (void)before;
    (void)what;
#else
    const long growth = pmixpp_test::resident_kb() - before;
    cr_assert_lt(growth, kMaxGrowthKb, "the server grew %ld KiB for %s", growth, what);
#endif
}
constexpr int kJobSize = 64;
// Long enough for the server to queue its 4 MiB high water of replies to a
// peer that reads none: about 190,000 small status replies. TSan serves
// only some 23,000 frames a second (a CI run stopped at 187,651 after 8 s),
// so it gets longer; a flood ends as soon as the server stops reading.
#if defined(PMIXPP_UNDER_TSAN)
constexpr auto kFloodSeconds = std::chrono::seconds(30);
#else
constexpr auto kFloodSeconds = std::chrono::seconds(8);
#endif
constexpr auto kBlockedLongEnough = std::chrono::milliseconds(700);

void setup()
{
    start_server(make_tmpdir());
    register_job(kJob, kJobSize);
}

void teardown()
{
    PMIx_server_finalize();
}

std::unique_ptr<RawClient> connect_rank(pmix_rank_t rank)
{
    auto client = std::make_unique<RawClient>();
    cr_assert_eq(client->hello(kJob, rank, nullptr), PMIX_SUCCESS);
    return client;
}

template <typename Message> wire::Bytes frame_of(const Message &message, uint32_t tag)
{
    wire::Bytes payload;
    cr_assert_eq(wire::encode_to_bytes(message, &payload), PMIX_SUCCESS);
    std::vector<uint8_t> frame;
    cr_assert_eq(wire::encode_frame(wire::FrameKind::request, tag, payload, &frame), PMIX_SUCCESS);
    return frame;
}

bool wait_writable(int fd, std::chrono::milliseconds patience)
{
    pollfd entry{fd, POLLOUT, 0};
    return poll(&entry, 1, static_cast<int>(patience.count())) == 1 && (entry.revents & POLLOUT) != 0;
}

struct Flood {
    size_t frames = 0;
    bool server_stopped_reading = false;
};

// Writes `frame` again and again, never reading, until the socket stays
// full for kBlockedLongEnough (the server stopped reading us) or the time
// is up.
Flood flood_without_reading(int fd, const wire::Bytes &frame)
{
    Flood flood;
    const auto deadline = std::chrono::steady_clock::now() + kFloodSeconds;
    while (std::chrono::steady_clock::now() < deadline) {
        size_t sent = 0;
        while (sent < frame.size()) {
            const ssize_t n = send(fd, frame.data() + sent, frame.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
            if (n > 0) {
                sent += static_cast<size_t>(n);
                continue;
            }
            cr_assert(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), "send failed: %s", std::strerror(errno));
            if (!wait_writable(fd, kBlockedLongEnough)) {
                flood.server_stopped_reading = true;
                // A frame half written stays so: the test never reads or
                // writes this socket again.
                return flood;
            }
        }
        ++flood.frames;
    }
    return flood;
}

// The legitimate rank gets its answers while the slow one is stuck.
void legitimate_rank_is_served(RawClient &rank)
{
    for (uint32_t tag = 1; tag <= 50; ++tag) {
        wire::GetRequest get;
        std::strcpy(get.proc.nspace, kJob);
        get.proc.rank = PMIX_RANK_WILDCARD;
        get.key = PMIX_JOB_SIZE;
        rank.request(tag, get);
        const auto reply = rank.reply<wire::GetReply>();
        cr_assert_eq(reply.status, PMIX_SUCCESS, "the other rank's get failed: %s", PMIx_Error_string(reply.status));
    }
}

void assert_bounded(long rss_before, const Flood &flood)
{
    cr_assert(flood.server_stopped_reading, "the server read all %zu frames of a peer that reads nothing",
              flood.frames);
    expect_growth_bounded(rss_before, "the requests of a peer that reads nothing");
}

size_t count_replies(RawClient &client, pmix_status_t wanted, std::chrono::milliseconds quiet)
{
    size_t count = 0;
    for (;;) {
        wire::Frame frame;
        if (wire::recv_frame_blocking(client.fd(), wire::FrameLimits{}, static_cast<int>(quiet.count()), &frame) !=
            PMIX_SUCCESS) {
            return count;
        }
        wire::GetReply reply;
        cr_assert_eq(wire::decode_payload(frame.payload, &reply), PMIX_SUCCESS);
        cr_assert_eq(reply.status, wanted, "a parked get answered %s", PMIx_Error_string(reply.status));
        ++count;
    }
}

// Rank 0 sends `frame` again and again and never reads: the server stops
// reading it, stays within the bound, and serves rank 1 meanwhile.
void expect_flood_bounded(const wire::Bytes &frame)
{
    auto slow = connect_rank(0);
    auto other = connect_rank(1);
    const long before = pmixpp_test::resident_kb();
    const Flood flood = flood_without_reading(slow->fd(), frame);
    assert_bounded(before, flood);
    legitimate_rank_is_served(*other);
}

}  // namespace

TestSuite(server_slow_reader, .init = setup, .fini = teardown, .timeout = 120);

Test(server_slow_reader, job_data_requests_stop_being_read_and_memory_stays_bounded)
{
    wire::JobDataRequest request;
    request.nspace = kJob;
    expect_flood_bounded(frame_of(request, 7));
}

Test(server_slow_reader, get_all_requests_stop_being_read_and_memory_stays_bounded)
{
    wire::GetRequest get;
    std::strcpy(get.proc.nspace, kJob);
    get.proc.rank = PMIX_RANK_WILDCARD;  // everything of the job
    expect_flood_bounded(frame_of(get, 7));
}

// Events raised by a peer that never reads: each is answered, so the peer's
// own replies pile up and the server stops reading it.
Test(server_slow_reader, notify_event_requests_stop_being_read_and_memory_stays_bounded)
{
    wire::NotifyEventRequest notify;
    notify.event.status = PMIX_EXTERNAL_ERR_BASE - 78;
    std::strcpy(notify.event.source.nspace, kJob);
    notify.event.source.rank = 0;
    notify.event.range = PMIX_RANGE_NAMESPACE;
    expect_flood_bounded(frame_of(notify, 7));
}

// A reader slower than the peer raising events, but reading: the producer
// is held back to the reader's pace and nothing is dropped (without the
// hold the reader's queue reached the 32 MiB limit and it was dropped).
Test(server_slow_reader, a_slow_but_live_reader_gets_every_event)
{
    auto reader = connect_rank(0);
    auto producer = connect_rank(1);
    wire::RegisterEventsRequest all;
    reader->request(1, all);
    cr_assert_eq(reader->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    constexpr size_t kEvents = 3000;  // 47 MiB of events
    std::atomic<size_t> received{0};
    std::atomic<bool> lost{false};
    std::thread slow([&] {
        while (received < kEvents) {
            wire::Frame frame;
            if (wire::recv_frame_blocking(reader->fd(), wire::FrameLimits{}, 10000, &frame) != PMIX_SUCCESS) {
                lost = true;
                return;
            }
            if (frame.header.kind == wire::FrameKind::notify && ++received % 4 == 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(5));  // 64 KiB per 5 ms
            }
        }
    });
    wire::NotifyEventRequest notify;
    notify.event.status = PMIX_EXTERNAL_ERR_BASE - 79;
    std::strcpy(notify.event.source.nspace, kJob);
    notify.event.source.rank = 1;
    notify.event.range = PMIX_RANGE_NAMESPACE;
    const std::string bulk(16 * 1024, 'x');
    notify.event.info = one_info("test.bulk", bulk.c_str(), PMIX_STRING);
    for (uint32_t tag = 1; tag <= kEvents; ++tag) {
        producer->request(tag, notify);
        cr_assert_eq(producer->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    }
    slow.join();
    cr_assert_not(lost.load(), "the slow reader lost its connection after %zu of %zu events", received.load(), kEvents);
    cr_assert_eq(received.load(), kEvents);
}

// Gets of a key not yet committed send nothing back, so pausing cannot stop
// them: a peer parks at most PMIX_MCA_ptl_base_max_parked_requests (4096)
// and the rest are answered PMIX_ERR_OUT_OF_RESOURCE at once.
Test(server_slow_reader, parked_gets_are_capped_per_peer)
{
    auto slow = connect_rank(0);
    auto other = connect_rank(1);
    constexpr size_t kSent = 5000;
    constexpr size_t kLimit = 4096;
    wire::GetRequest get;
    std::strcpy(get.proc.nspace, kJob);
    get.proc.rank = 2;  // connected by nobody: never commits during the test
    get.key = "not-yet";
    const long before = pmixpp_test::resident_kb();
    const wire::Bytes frame = frame_of(get, 9);
    for (size_t i = 0; i < kSent; ++i) {
        cr_assert(wait_writable(slow->fd(), std::chrono::seconds(5)));
        slow->send_raw(frame.data(), frame.size());
    }
    legitimate_rank_is_served(*other);
    expect_growth_bounded(before, "parked gets");
    const size_t refused = count_replies(*slow, PMIX_ERR_OUT_OF_RESOURCE, std::chrono::milliseconds(1500));
    cr_assert_eq(refused, kSent - kLimit, "%zu of %zu gets refused, expected %zu", refused, kSent, kSent - kLimit);
    // The parked ones are still answered when their target commits.
    auto target = connect_rank(2);
    wire::CommitRequest commit;
    target->request(1, commit);
    cr_assert_eq(target->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    const size_t answered = count_replies(*slow, PMIX_ERR_NOT_FOUND, std::chrono::milliseconds(1500));
    cr_assert_eq(answered, kLimit);
}

// Events are sent unasked, so a paused peer still gets them queued: past
// PMIX_MCA_ptl_base_queue_hard_limit (32 MiB) it is dropped, and the
// server's memory does not follow the flood.
Test(server_slow_reader, a_peer_events_pile_up_for_is_dropped_at_the_hard_limit)
{
    auto slow = connect_rank(0);
    auto other = connect_rank(1);
    wire::RegisterEventsRequest all;  // no codes: every event
    slow->request(1, all);
    cr_assert_eq(slow->reply<wire::RegisterEventsReply>().status, PMIX_SUCCESS);
    wire::NotifyEventRequest notify;
    notify.event.status = PMIX_EXTERNAL_ERR_BASE - 77;
    std::strcpy(notify.event.source.nspace, kJob);
    notify.event.source.rank = 1;
    notify.event.range = PMIX_RANGE_NAMESPACE;
    const std::string bulk(8192, 'x');
    notify.event.info = one_info("test.bulk", bulk.c_str(), PMIX_STRING);
    const long before = pmixpp_test::resident_kb();
    for (uint32_t tag = 1; tag <= 8000; ++tag) {  // 64 MiB of events
        other->request(tag, notify);
        cr_assert_eq(other->reply<wire::StatusReply>().status, PMIX_SUCCESS);
    }
    expect_growth_bounded(before, "events for a peer that reads nothing");
    // The slow peer reads what was sent before the drop, then the end.
    size_t bytes = 0;
    char buffer[65536];
    for (;;) {
        pollfd entry{slow->fd(), POLLIN, 0};
        cr_assert_eq(poll(&entry, 1, 10000), 1, "the slow peer was never dropped");
        const ssize_t n = read(slow->fd(), buffer, sizeof(buffer));
        if (n <= 0) break;
        bytes += static_cast<size_t>(n);
    }
    cr_assert_lt(bytes, size_t{48} << 20, "%zu bytes reached a peer over the 32 MiB limit", bytes);
}

// Any request that waits on others counts against the peer's limit of
// unanswered requests (here fences over ranks that never come, with
// PMIX_MCA_ptl_base_max_pending_requests=100): the rest are answered at once.
// (A suite of its own: a test's .init runs after its suite's, and the
// limit must be set before the server starts.)
Test(
    server_slow_reader_limits, unanswered_requests_are_capped_per_peer,
    .init =
        [] {
            setenv("PMIX_MCA_ptl_base_max_pending_requests", "100", 1);
            setup();
        },
    .fini = teardown, .timeout = 120)
{
    auto waiting = connect_rank(0);
    auto other = connect_rank(1);
    constexpr uint32_t kFences = 150;
    uint32_t sent = 0;
    // {0, a, b}: a different set each time, every one waiting for ranks
    // that nobody connects.
    for (pmix_rank_t a = 2; a < kJobSize && sent < kFences; ++a) {
        for (pmix_rank_t b = a + 1; b < kJobSize && sent < kFences; ++b) {
            wire::FenceRequest fence;
            for (pmix_rank_t rank : {pmix_rank_t{0}, a, b}) {
                pmix_proc_t proc{};
                std::strcpy(proc.nspace, kJob);
                proc.rank = rank;
                fence.procs.push_back(proc);
            }
            waiting->request(++sent, fence);
        }
    }
    legitimate_rank_is_served(*other);
    size_t refused = 0;
    for (;;) {
        wire::Frame frame;
        if (wire::recv_frame_blocking(waiting->fd(), wire::FrameLimits{}, 1500, &frame) != PMIX_SUCCESS) break;
        wire::StatusReply reply;
        cr_assert_eq(wire::decode_payload(frame.payload, &reply), PMIX_SUCCESS);
        cr_assert_eq(reply.status, PMIX_ERR_OUT_OF_RESOURCE, "a fence answered %s", PMIx_Error_string(reply.status));
        ++refused;
    }
    cr_assert_eq(refused, kFences - 100, "%zu of %u fences refused, expected %u", refused, kFences, kFences - 100);
}
