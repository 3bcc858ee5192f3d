/* One fixed sequence of client calls, built twice: against Debian's
 * OpenPMIx 4.2.2 and against ours. golden_test.cc runs each under the same
 * scripted OpenPMIx server, which records every message, and compares the
 * bytes our client sends for each call with the real library's. Every
 * argument is a constant, so the two must send the same bytes; every call's
 * status is printed, so the two must also take the answers the same way.
 *
 * The server answers most requests with an error status: what is compared
 * is the request, and an error keeps both libraries out of the paths that
 * would need a fuller answer. */
#include <pmix.h>

#include <stdio.h>
#include <string.h>

static pmix_proc_t me;

static void say(const char *call, pmix_status_t rc)
{
    printf("%s %d\n", call, rc);
    fflush(stdout);
}

static void events_call(pmix_status_t status, void *cbdata)
{
    (void)status;
    (void)cbdata;
}

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[], size_t ninfo,
                     pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void)id;
    (void)status;
    (void)source;
    (void)info;
    (void)ninfo;
    (void)results;
    (void)nresults;
    if (cbfunc != NULL) cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* One commit of all three scopes. OpenPMIx packs each bucket in put order
 * and ours packs a bucket's own scope before GLOBAL (which goes in both), so
 * the GLOBAL put comes last here; either order carries the same data. (A
 * second commit would differ on purpose: OpenPMIx sends every put so far
 * again, ours only the new ones.) */
static void put_and_commit(void)
{
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_STRING;
    value.data.string = "here";
    say("put_local", PMIx_Put(PMIX_LOCAL, "golden.local", &value));
    value.type = PMIX_UINT64;
    value.data.uint64 = 1ull << 40;
    say("put_remote", PMIx_Put(PMIX_REMOTE, "golden.remote", &value));
    value.type = PMIX_UINT32;
    value.data.uint32 = 7;
    say("put_global", PMIx_Put(PMIX_GLOBAL, "golden.global", &value));
    say("commit", PMIx_Commit());
}

static void fence_and_get(void)
{
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    say("fence", PMIx_Fence(NULL, 0, &collect, 1));
    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&peer, me.nspace, 1);
    pmix_value_t *got = NULL;
    say("get", PMIx_Get(&peer, "peer.key", NULL, 0, &got));
    if (got != NULL) PMIX_VALUE_RELEASE(got);
}

static void publish_lookup_unpublish(void)
{
    pmix_info_t published;
    PMIX_INFO_LOAD(&published, "golden.pub", "value", PMIX_STRING);
    say("publish", PMIx_Publish(&published, 1));
    pmix_pdata_t wanted;
    PMIX_PDATA_CONSTRUCT(&wanted);
    PMIX_LOAD_KEY(wanted.key, "golden.pub");
    say("lookup", PMIx_Lookup(&wanted, 1, NULL, 0));
    PMIX_PDATA_DESTRUCT(&wanted);
    char *keys[] = {"golden.pub", NULL};
    say("unpublish", PMIx_Unpublish(keys, NULL, 0));
}

static void host_calls(void)
{
    pmix_query_t query;
    PMIX_QUERY_CONSTRUCT(&query);
    char *qkeys[] = {PMIX_QUERY_NAMESPACES, NULL};
    query.keys = qkeys;
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    say("query", PMIx_Query_info(&query, 1, &results, &nresults));
    query.keys = NULL;

    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t directive;
    PMIX_INFO_LOAD(&directive, PMIX_JOB_CTRL_KILL, NULL, PMIX_BOOL);
    say("job_control", PMIx_Job_control(&job, 1, &directive, 1, &results, &nresults));

    pmix_info_t monitor;
    PMIX_INFO_LOAD(&monitor, PMIX_MONITOR_HEARTBEAT, NULL, PMIX_POINTER);
    pmix_info_t period;
    uint32_t seconds = 5;
    PMIX_INFO_LOAD(&period, PMIX_MONITOR_HEARTBEAT_TIME, &seconds, PMIX_UINT32);
    say("monitor", PMIx_Process_monitor(&monitor, PMIX_MONITOR_HEARTBEAT_ALERT, &period, 1, &results, &nresults));

    pmix_info_t nodes;
    uint64_t one = 1;
    PMIX_INFO_LOAD(&nodes, PMIX_ALLOC_NUM_NODES, &one, PMIX_UINT64);
    say("allocate", PMIx_Allocation_request(PMIX_ALLOC_EXTEND, &nodes, 1, &results, &nresults));
}

static void credentials(void)
{
    pmix_byte_object_t credential;
    PMIX_BYTE_OBJECT_CONSTRUCT(&credential);
    pmix_info_t psec;
    PMIX_INFO_LOAD(&psec, PMIX_CRED_TYPE, "native", PMIX_STRING);
    say("get_credential", PMIx_Get_credential(&psec, 1, &credential) == PMIX_SUCCESS ? PMIX_SUCCESS : PMIX_ERROR);
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
    char bytes[] = "credential";
    credential.bytes = bytes;
    credential.size = sizeof(bytes);
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = PMIx_Validate_credential(&credential, NULL, 0, &results, &nresults);
    say("validate_credential", rc == PMIX_SUCCESS ? PMIX_SUCCESS : PMIX_ERROR);
}

static void collectives(void)
{
    pmix_proc_t both[2];
    PMIX_LOAD_PROCID(&both[0], me.nspace, 0);
    PMIX_LOAD_PROCID(&both[1], me.nspace, 1);
    say("connect", PMIx_Connect(both, 2, NULL, 0));
    say("disconnect", PMIx_Disconnect(both, 2, NULL, 0));
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    say("group_construct", PMIx_Group_construct("golden.group", both, 2, NULL, 0, &results, &nresults));

    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = "hostname";
    char *argv[] = {"hostname", NULL};
    app.argv = argv;
    app.maxprocs = 1;
    char spawned[PMIX_MAX_NSLEN + 1] = "";
    say("spawn", PMIx_Spawn(NULL, 0, &app, 1, spawned));
}

static void events(void)
{
    pmix_status_t code = -3042;
    say("register_event", PMIx_Register_event_handler(&code, 1, NULL, 0, on_event, NULL, NULL));
    pmix_info_t range;
    pmix_data_range_t namespace_range = PMIX_RANGE_NAMESPACE;
    PMIX_INFO_LOAD(&range, PMIX_RANGE, &namespace_range, PMIX_DATA_RANGE);
    say("notify", PMIx_Notify_event(code, &me, PMIX_RANGE_NAMESPACE, &range, 1, events_call, NULL));
}

int main(void)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    say("init", rc);
    if (rc != PMIX_SUCCESS) return 1;
    put_and_commit();
    fence_and_get();
    publish_lookup_unpublish();
    host_calls();
    credentials();
    collectives();
    events();
    say("finalize", PMIx_Finalize(NULL, 0));
    return 0;
}
