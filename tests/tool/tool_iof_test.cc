// PMIx_IOF_pull / _deregister / _push from a tool to a child-process server
// (tool_server --iof) that delivers its job's output on command: output in
// order per rank and channel, the cache of output from before the pull,
// formatting, deregistration, a tool that stops reading (the server goes on
// and counts the drops), stdin with its end (from a buffer and from the
// tool's own stdin), and bad parameters.
#include <criterion/criterion.h>

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <pmix.h>
#include <pmix_tool.h>

#include "tool/tool_support.h"

namespace {

std::string g_dir;
TestServer g_server;
pmix_proc_t g_job_all;

struct Received {
    pmix_rank_t rank;
    pmix_iof_channel_t channel;
    std::string text;
    uint64_t dropped;
};

std::mutex g_mutex;
std::vector<Received> g_received;
// A handler that blocks while g_stalled holds: the tool stops reading.
bool g_stalled = false;
std::condition_variable g_unstalled;

void on_output(size_t, pmix_iof_channel_t channel, pmix_proc_t *source, pmix_byte_object_t *payload, pmix_info_t info[],
               size_t ninfo)
{
    uint64_t dropped = 0;
    for (size_t i = 0; i < ninfo; ++i) {
        if (std::strcmp(info[i].key, "pmixpp.iof.dropped") == 0) dropped = info[i].value.data.uint64;
    }
    std::unique_lock lock(g_mutex);
    g_unstalled.wait(lock, [] { return !g_stalled; });
    g_received.push_back({source->rank, channel, std::string(payload->bytes, payload->size), dropped});
}

size_t received_count()
{
    std::lock_guard lock(g_mutex);
    return g_received.size();
}

bool wait_for_count(size_t want)
{
    for (int i = 0; i < 1000; ++i) {
        if (received_count() >= want) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

// One command to the server; true once it said "ok" (within 30 s).
bool command(const std::string &line)
{
    const std::string text = line + "\n";
    if (write(g_server.to_child, text.data(), text.size()) != static_cast<ssize_t>(text.size())) return false;
    std::string answer;
    while (answer.find('\n') == std::string::npos) {
        pollfd pfd{g_server.from_child, POLLIN, 0};
        if (poll(&pfd, 1, 30000) != 1) return false;
        char c;
        if (read(g_server.from_child, &c, 1) != 1) return false;
        answer += c;
    }
    return answer == "ok\n";
}

void setup()
{
    g_dir = make_tmpdir();
    cr_assert(!g_dir.empty());
    cr_assert(start_server(&g_server, "srviof", g_dir, {"--tool", "--iof", g_dir + "/iof.log"}));
    pmix_info_t info[2];
    std::memset(info, 0, sizeof info);
    load_string(&info[0], PMIX_SERVER_TMPDIR, g_dir);
    load_string(&info[1], PMIX_SYSTEM_TMPDIR, g_dir);
    pmix_proc_t me;
    cr_assert_eq(PMIx_tool_init(&me, info, 2), PMIX_SUCCESS);
    PMIX_LOAD_PROCID(&g_job_all, "srviof-job", PMIX_RANK_WILDCARD);
}

void teardown()
{
    {
        std::lock_guard lock(g_mutex);
        g_stalled = false;
    }
    g_unstalled.notify_all();
    PMIx_tool_finalize();
    stop_server(&g_server);
    remove_tmpdir(g_dir);
}

pmix_status_t pull(pmix_iof_channel_t channels, const pmix_info_t *directives = nullptr, size_t ndirs = 0)
{
    return PMIx_IOF_pull(&g_job_all, 1, directives, ndirs, channels, on_output, nullptr, nullptr);
}

}  // namespace

TestSuite(tool_iof, .init = setup, .fini = teardown, .timeout = 120);

Test(tool_iof, stdout_and_stderr_in_order_per_rank)
{
    const pmix_status_t id = pull(PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL);
    cr_assert_geq(id, 0, "pull: %s", PMIx_Error_string(id));
    for (int i = 0; i < 40; ++i) {
        cr_assert(command("out 0 o" + std::to_string(i)));
        cr_assert(command("err 1 e" + std::to_string(i)));
    }
    cr_assert(wait_for_count(80), "got %zu of 80 chunks", received_count());
    std::lock_guard lock(g_mutex);
    int next_out = 0, next_err = 0;
    for (const Received &r : g_received) {
        if (r.channel == PMIX_FWD_STDOUT_CHANNEL) {
            cr_expect_eq(r.rank, 0u);
            const std::string want = "o" + std::to_string(next_out++) + "\n";
            cr_expect(r.text == want, "stdout chunk '%s', expected '%s'", r.text.c_str(), want.c_str());
        } else {
            cr_expect_eq(r.channel, PMIX_FWD_STDERR_CHANNEL);
            cr_expect_eq(r.rank, 1u);
            const std::string want = "e" + std::to_string(next_err++) + "\n";
            cr_expect(r.text == want, "stderr chunk '%s', expected '%s'", r.text.c_str(), want.c_str());
        }
    }
    cr_expect_eq(next_out, 40);
    cr_expect_eq(next_err, 40);
    cr_expect(whole_file(g_dir + "/iof.log").find("pull 6\n") != std::string::npos, "the host heard of the pull");
}

Test(tool_iof, only_the_channels_pulled)
{
    cr_assert_geq(pull(PMIX_FWD_STDERR_CHANNEL), 0);
    cr_assert(command("out 0 not-this"));
    cr_assert(command("err 0 this"));
    cr_assert(wait_for_count(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::lock_guard lock(g_mutex);
    cr_assert_eq(g_received.size(), 1u);
    cr_expect_str_eq(g_received[0].text.c_str(), "this\n");
}

Test(tool_iof, output_from_before_the_pull_is_cached)
{
    cr_assert(command("out 2 early-1"));
    cr_assert(command("out 2 early-2"));
    cr_assert_geq(pull(PMIX_FWD_STDOUT_CHANNEL), 0);
    cr_assert(command("out 2 late"));
    cr_assert(wait_for_count(2));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::lock_guard lock(g_mutex);
    std::string all;
    for (const Received &r : g_received) all += r.text;
    cr_expect_str_eq(all.c_str(), "early-1\nearly-2\nlate\n");
}

Test(tool_iof, cache_size_limits_the_replay)
{
    cr_assert(command("out 0 abcdef"));
    pmix_info_t size;
    uint32_t four = 4;
    PMIX_INFO_LOAD(&size, PMIX_IOF_CACHE_SIZE, &four, PMIX_UINT32);
    cr_assert_geq(pull(PMIX_FWD_STDOUT_CHANNEL, &size, 1), 0);
    cr_assert(wait_for_count(1));
    std::lock_guard lock(g_mutex);
    cr_expect_str_eq(g_received[0].text.c_str(), "def\n");
}

Test(tool_iof, tagged_timestamped_and_xml_output)
{
    pmix_info_t tag;
    load_flag(&tag, PMIX_IOF_TAG_OUTPUT);
    cr_assert_geq(pull(PMIX_FWD_STDOUT_CHANNEL, &tag, 1), 0);
    pmix_info_t xml;
    load_flag(&xml, PMIX_IOF_XML_OUTPUT);
    cr_assert_geq(pull(PMIX_FWD_STDERR_CHANNEL, &xml, 1), 0);
    pmix_info_t stamp;
    load_flag(&stamp, PMIX_IOF_TIMESTAMP_OUTPUT);
    cr_assert_geq(pull(PMIX_FWD_STDDIAG_CHANNEL | PMIX_FWD_STDOUT_CHANNEL, &stamp, 1), 0);
    cr_assert(command("out 3 hello"));
    cr_assert(command("err 1 a<b"));
    cr_assert(wait_for_count(3));
    std::lock_guard lock(g_mutex);
    bool tagged = false, xmled = false, stamped = false;
    for (const Received &r : g_received) {
        if (r.text == "[srviof-job,3]<stdout>: hello\n") tagged = true;
        if (r.text == "<stderr nspace=\"srviof-job\" rank=\"1\">a&lt;b\n</stderr>\n") xmled = true;
        if (r.text.size() > 7 && r.text.compare(r.text.size() - 7, 7, " hello\n") == 0 && r.text[0] != '[') {
            stamped = true;
        }
    }
    cr_expect(tagged, "tagged line");
    cr_expect(xmled, "xml chunk");
    cr_expect(stamped, "timestamped line");
}

Test(tool_iof, deregister_stops_delivery)
{
    const pmix_status_t id = pull(PMIX_FWD_STDOUT_CHANNEL);
    cr_assert_geq(id, 0);
    cr_assert(command("out 0 one"));
    cr_assert(wait_for_count(1));
    cr_assert_eq(PMIx_IOF_deregister(static_cast<size_t>(id), nullptr, 0, nullptr, nullptr), PMIX_SUCCESS);
    cr_assert(command("out 0 two"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cr_expect_eq(received_count(), 1u);
    cr_expect(whole_file(g_dir + "/iof.log").find("stop\n") != std::string::npos, "the host heard of the stop");
    cr_expect_eq(PMIx_IOF_deregister(static_cast<size_t>(id), nullptr, 0, nullptr, nullptr), PMIX_ERR_NOT_FOUND);
}

Test(tool_iof, a_tool_that_stops_reading_does_not_stall_the_job)
{
    cr_assert_geq(pull(PMIX_FWD_STDOUT_CHANNEL), 0);
    {
        std::lock_guard lock(g_mutex);
        g_stalled = true;
    }
    // 32 MiB to a tool that reads nothing: past the server's high water
    // (4 MiB) and the socket buffers, and near its hard limit (32 MiB) if
    // nothing were dropped. The server still answers.
    const auto start = std::chrono::steady_clock::now();
    cr_assert(command("flood 0 32768"), "the server stalled");
    cr_expect_lt(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    {
        std::lock_guard lock(g_mutex);
        g_stalled = false;
    }
    g_unstalled.notify_all();
    // What was queued drains; once the tool has room again the count of
    // what was dropped arrives, on an empty chunk since no output follows.
    uint64_t dropped = 0;
    for (int i = 0; i < 6000 && dropped == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::lock_guard lock(g_mutex);
        for (const Received &r : g_received) dropped += r.dropped;
    }
    cr_assert_gt(dropped, 0u, "the count of dropped bytes arrived without more output");
    // New output gets through, after everything queued before it.
    cr_assert(command("out 0 after"));
    bool after = false;
    for (int i = 0; i < 3000 && !after; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::lock_guard lock(g_mutex);
        after = !g_received.empty() && g_received.back().text == "after\n";
    }
    std::lock_guard lock(g_mutex);
    cr_expect(after, "the line after the flood arrived (%zu chunks, %llu dropped, last '%.10s')", g_received.size(),
              static_cast<unsigned long long>(dropped), g_received.empty() ? "" : g_received.back().text.c_str());
    size_t delivered = 0, chunks = 0;
    dropped = 0;
    for (const Received &r : g_received) {
        if (r.text == "after\n") continue;
        delivered += r.text.size();
        chunks += r.text.empty() ? 0 : 1;
        dropped += r.dropped;
    }
    cr_expect_lt(chunks, 32768u, "some chunks were dropped");
    cr_expect_eq(delivered + dropped, 32768u * 1024, "every byte delivered or counted (%zu + %llu)", delivered,
                 static_cast<unsigned long long>(dropped));
}

Test(tool_iof, push_stdin_with_end_of_input)
{
    pmix_proc_t rank0;
    PMIX_LOAD_PROCID(&rank0, "srviof-job", 0);
    char text[] = "input line\n";
    pmix_byte_object_t bo = {text, std::strlen(text)};
    pmix_info_t done;
    load_flag(&done, PMIX_IOF_COMPLETE);
    cr_assert_eq(PMIx_IOF_push(&rank0, 1, &bo, &done, 1, nullptr, nullptr), PMIX_SUCCESS);
    const std::string log = whole_file(g_dir + "/iof.log");
    cr_expect(log.find("stdin 0 input line\neof 0\n") != std::string::npos, "log: %s", log.c_str());
}

Test(tool_iof, bad_parameters)
{
    cr_expect_eq(PMIx_IOF_pull(nullptr, 0, nullptr, 0, PMIX_FWD_STDOUT_CHANNEL, on_output, nullptr, nullptr),
                 PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_IOF_pull(&g_job_all, 1, nullptr, 0, PMIX_FWD_STDOUT_CHANNEL, nullptr, nullptr, nullptr),
                 PMIX_ERR_BAD_PARAM);
    cr_expect_eq(pull(PMIX_FWD_STDIN_CHANNEL), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(pull(0), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_IOF_deregister(12345, nullptr, 0, nullptr, nullptr), PMIX_ERR_NOT_FOUND);
    char text[] = "x";
    pmix_byte_object_t bo = {text, 1};
    cr_expect_eq(PMIx_IOF_push(nullptr, 0, &bo, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(PMIx_IOF_push(&g_job_all, 1, nullptr, nullptr, 0, nullptr, nullptr), PMIX_ERR_BAD_PARAM,
                 "nothing to push");
}

Test(tool_iof, push_of_the_tools_own_stdin_until_its_end)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    cr_assert_geq(dup2(fds[0], STDIN_FILENO), 0);
    close(fds[0]);
    const char typed[] = "typed line\n";
    cr_assert_eq(write(fds[1], typed, sizeof typed - 1), static_cast<ssize_t>(sizeof typed - 1));
    close(fds[1]);
    pmix_proc_t rank0;
    PMIX_LOAD_PROCID(&rank0, "srviof-job", 0);
    pmix_info_t from_stdin;
    load_flag(&from_stdin, PMIX_IOF_PUSH_STDIN);
    cr_assert_eq(PMIx_IOF_push(&rank0, 1, nullptr, &from_stdin, 1, nullptr, nullptr), PMIX_OPERATION_SUCCEEDED);
    std::string log;
    for (int i = 0; i < 500; ++i) {
        log = whole_file(g_dir + "/iof.log");
        if (log.find("eof 0\n") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    cr_expect(log.find("stdin 0 typed line\neof 0\n") != std::string::npos, "log: %s", log.c_str());
}
