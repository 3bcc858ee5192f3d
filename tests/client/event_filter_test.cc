// Event handlers honour their registration filters (PMIX_RANGE,
// PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROC(S)) and the notifier's
// PMIX_EVENT_NON_DEFAULT; a handler that never completes does not hold the
// event for ever. Singleton mode: PMIX_RANGE_PROC_LOCAL events are
// delivered locally, no server needed.
#include <criterion/criterion.h>

#include <pmix.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {

constexpr pmix_status_t kCode = PMIX_EXTERNAL_ERR_BASE - 11;
bool g_true = true;

std::mutex g_mutex;
std::condition_variable g_cond;
int g_filtered_calls = 0;  // the handler under test
int g_sentinel_calls = 0;  // the last handler: the event is through

void filtered(size_t, pmix_status_t, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
              pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    {
        std::lock_guard lock(g_mutex);
        ++g_filtered_calls;
    }
    cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, cbdata);
}

void sentinel(size_t, pmix_status_t, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
              pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, nullptr, 0, nullptr, nullptr, cbdata);
    std::lock_guard lock(g_mutex);
    ++g_sentinel_calls;
    g_cond.notify_all();
}

void init_singleton()
{
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                             "PMIX_SERVER_URI2", "PMIX_SERVER_URI21", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
}

void register_sentinel()
{
    pmix_status_t code = kCode;
    pmix_info_t last;
    PMIX_INFO_LOAD(&last, PMIX_EVENT_HDLR_LAST, &g_true, PMIX_BOOL);
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, &last, 1, sentinel, nullptr, nullptr), 0);
    PMIX_INFO_DESTRUCT(&last);
}

// Raises kCode from `source` (with `info`) and waits until the sentinel saw
// it; returns how many times the filtered handler ran for it.
int raise_and_count(const pmix_proc_t &source, const pmix_info_t *info, size_t ninfo)
{
    int before_filtered = 0;
    int before_sentinel = 0;
    {
        std::lock_guard lock(g_mutex);
        before_filtered = g_filtered_calls;
        before_sentinel = g_sentinel_calls;
    }
    cr_assert_eq(PMIx_Notify_event(kCode, &source, PMIX_RANGE_PROC_LOCAL, info, ninfo, nullptr, nullptr), PMIX_SUCCESS);
    std::unique_lock lock(g_mutex);
    cr_assert(g_cond.wait_for(lock, std::chrono::seconds(30), [&] { return g_sentinel_calls > before_sentinel; }),
              "the event never reached the last handler");
    return g_filtered_calls - before_filtered;
}

pmix_proc_t proc(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, nspace, rank);
    return p;
}

}  // namespace

Test(client_event_filters, custom_range_limits_the_sources)
{
    init_singleton();
    pmix_proc_t allowed[2] = {proc("other.job", 3), proc("third.job", PMIX_RANK_WILDCARD)};
    pmix_data_array_t array = {PMIX_PROC, 2, allowed};
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_EVENT_CUSTOM_RANGE, &array, PMIX_DATA_ARRAY);
    pmix_status_t code = kCode;
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, &info, 1, filtered, nullptr, nullptr), 0);
    info.value.type = PMIX_UNDEF;  // the array lives on the stack
    register_sentinel();

    cr_assert_eq(raise_and_count(proc("other.job", 3), nullptr, 0), 1);
    cr_assert_eq(raise_and_count(proc("other.job", 4), nullptr, 0), 0);
    cr_assert_eq(raise_and_count(proc("third.job", 9), nullptr, 0), 1);
    cr_assert_eq(raise_and_count(proc("fourth.job", 3), nullptr, 0), 0);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_event_filters, namespace_range_and_proc_local_range)
{
    init_singleton();
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);  // refcount 2, gives our id
    pmix_data_range_t range = PMIX_RANGE_NAMESPACE;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_RANGE, &range, PMIX_DATA_RANGE);
    pmix_status_t code = kCode;
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, &info, 1, filtered, nullptr, nullptr), 0);
    register_sentinel();

    pmix_proc_t same_job = me;
    same_job.rank = 5;
    cr_assert_eq(raise_and_count(same_job, nullptr, 0), 1);
    cr_assert_eq(raise_and_count(proc("other.job", 0), nullptr, 0), 0);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_event_filters, affected_procs_must_overlap)
{
    init_singleton();
    pmix_proc_t watched = proc("app.job", 1);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_EVENT_AFFECTED_PROC, &watched, PMIX_PROC);
    pmix_status_t code = kCode;
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, &info, 1, filtered, nullptr, nullptr), 0);
    PMIX_INFO_DESTRUCT(&info);
    register_sentinel();

    pmix_proc_t source = proc("rm", 0);
    pmix_proc_t other = proc("app.job", 2);
    pmix_info_t about;
    PMIX_INFO_LOAD(&about, PMIX_EVENT_AFFECTED_PROC, &other, PMIX_PROC);
    cr_assert_eq(raise_and_count(source, &about, 1), 0);
    PMIX_INFO_DESTRUCT(&about);

    pmix_proc_t several[2] = {proc("app.job", 7), proc("app.job", 1)};
    pmix_data_array_t array = {PMIX_PROC, 2, several};
    PMIX_INFO_LOAD(&about, PMIX_EVENT_AFFECTED_PROCS, &array, PMIX_DATA_ARRAY);
    cr_assert_eq(raise_and_count(source, &about, 1), 1);
    about.value.type = PMIX_UNDEF;

    // An event that names no affected proc is not filtered out.
    cr_assert_eq(raise_and_count(source, nullptr, 0), 1);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_event_filters, non_default_events_skip_default_handlers)
{
    init_singleton();
    cr_assert_geq(PMIx_Register_event_handler(nullptr, 0, nullptr, 0, filtered, nullptr, nullptr), 0);
    register_sentinel();
    pmix_info_t non_default;
    PMIX_INFO_LOAD(&non_default, PMIX_EVENT_NON_DEFAULT, &g_true, PMIX_BOOL);
    cr_assert_eq(raise_and_count(proc("rm", 0), &non_default, 1), 0);
    PMIX_INFO_DESTRUCT(&non_default);
    cr_assert_eq(raise_and_count(proc("rm", 0), nullptr, 0), 1);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

Test(client_event_filters, wrongly_typed_filter_is_bad_param)
{
    init_singleton();
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_EVENT_AFFECTED_PROC, "not-a-proc", PMIX_STRING);
    pmix_status_t code = kCode;
    cr_assert_eq(PMIx_Register_event_handler(&code, 1, &info, 1, filtered, nullptr, nullptr), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&info);
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}

namespace {

std::atomic<pmix_event_notification_cbfunc_fn_t> g_stuck_cbfunc{nullptr};
std::atomic<void *> g_stuck_cbdata{nullptr};

// Keeps the event and never passes it on (until the test does, too late).
void stuck(size_t, pmix_status_t, const pmix_proc_t *, pmix_info_t[], size_t, pmix_info_t *, size_t,
           pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    g_stuck_cbdata = cbdata;
    g_stuck_cbfunc = cbfunc;
}

}  // namespace

Test(client_event_filters, a_handler_that_never_completes_does_not_hold_the_event)
{
    setenv("PMIX_MCA_pmix_client_event_handler_timeout", "0.2", 1);
    init_singleton();
    pmix_status_t code = kCode;
    pmix_info_t first;
    PMIX_INFO_LOAD(&first, PMIX_EVENT_HDLR_FIRST, &g_true, PMIX_BOOL);
    cr_assert_geq(PMIx_Register_event_handler(&code, 1, &first, 1, stuck, nullptr, nullptr), 0);
    PMIX_INFO_DESTRUCT(&first);
    register_sentinel();

    // The chain moves past the stuck handler to the last one.
    cr_assert_eq(raise_and_count(proc("rm", 0), nullptr, 0), 0);
    cr_assert_eq(g_sentinel_calls, 1);

    // Its late completion is ignored: the last handler does not run again.
    auto cbfunc = g_stuck_cbfunc.load();
    cr_assert(cbfunc != nullptr);
    cbfunc(PMIX_SUCCESS, nullptr, 0, nullptr, nullptr, g_stuck_cbdata.load());
    cr_assert_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    std::lock_guard lock(g_mutex);
    cr_assert_eq(g_sentinel_calls, 1);
}
