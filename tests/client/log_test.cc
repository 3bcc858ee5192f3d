// PMIx_Log / PMIx_Log_nb on the channels a process serves itself.
#include <criterion/criterion.h>

#include <pmix.h>

#include <fcntl.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace {

void init_singleton()
{
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
}

// Runs fn with stderr going to a temp file; returns what was written.
template <typename Fn> std::string capture_stderr(Fn fn)
{
    char path[] = "/tmp/pmixpp-log-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    unlink(path);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    fn();
    dup2(saved, STDERR_FILENO);
    close(saved);
    std::string text;
    char buf[256];
    ssize_t n = 0;
    lseek(fd, 0, SEEK_SET);
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        text.append(buf, static_cast<size_t>(n));
    }
    close(fd);
    return text;
}

std::mutex g_mutex;
std::condition_variable g_cond;
bool g_done = false;
pmix_status_t g_status = PMIX_ERROR;

void log_done(pmix_status_t status, void *)
{
    std::lock_guard lock(g_mutex);
    g_status = status;
    g_done = true;
    g_cond.notify_all();
}

}  // namespace

Test(client_log, needs_init_and_data)
{
    pmix_info_t data;
    PMIX_INFO_LOAD(&data, PMIX_LOG_STDERR, "x", PMIX_STRING);
    cr_assert_eq(PMIx_Log(&data, 1, nullptr, 0), PMIX_ERR_INIT);
    init_singleton();
    cr_assert_eq(PMIx_Log(nullptr, 0, nullptr, 0), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(PMIx_Log(&data, 1, nullptr, 1), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&data);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_log, stderr_channel_and_outcomes)
{
    init_singleton();
    pmix_info_t data[2];
    PMIX_INFO_LOAD(&data[0], PMIX_LOG_STDERR, "pmixpp log line", PMIX_STRING);
    PMIX_INFO_LOAD(&data[1], PMIX_LOG_EMAIL_ADDR, "nobody@example.org", PMIX_STRING);
    pmix_status_t rc = PMIX_ERROR;
    std::string text = capture_stderr([&] { rc = PMIx_Log(data, 1, nullptr, 0); });
    cr_assert_eq(rc, PMIX_SUCCESS);
    cr_assert_str_eq(text.c_str(), "pmixpp log line\n");

    // A channel only a host could serve: not supported here; mixed: partial.
    cr_assert_eq(PMIx_Log(&data[1], 1, nullptr, 0), PMIX_ERR_NOT_SUPPORTED);
    text = capture_stderr([&] { rc = PMIx_Log(data, 2, nullptr, 0); });
    cr_assert_eq(rc, PMIX_ERR_PARTIAL_SUCCESS);

    // PMIX_LOG_ONCE: the first channel that works is enough.
    bool yes = true;
    pmix_info_t once;
    PMIX_INFO_LOAD(&once, PMIX_LOG_ONCE, &yes, PMIX_BOOL);
    text = capture_stderr([&] { rc = PMIx_Log(data, 2, &once, 1); });
    cr_assert_eq(rc, PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&once);

    text = capture_stderr([&] {
        cr_assert_eq(PMIx_Log_nb(data, 1, nullptr, 0, log_done, nullptr), PMIX_SUCCESS);
        std::unique_lock lock(g_mutex);
        cr_assert(g_cond.wait_for(lock, std::chrono::seconds(30), [] { return g_done; }));
    });
    cr_assert_eq(g_status, PMIX_SUCCESS);
    cr_assert_str_eq(text.c_str(), "pmixpp log line\n");
    PMIX_INFO_DESTRUCT(&data[0]);
    PMIX_INFO_DESTRUCT(&data[1]);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}
