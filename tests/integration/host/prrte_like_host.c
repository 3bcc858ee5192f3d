/* prrte_like_host TMPDIR PROGRAM NPROCS: a host that is a client of itself,
 * doing on the public server API what PRRTE v2's prterun does:
 *   - its init info built with PMIX_INFO_LIST_ADD (the topology copied in)
 *     and freed right after PMIx_server_init;
 *   - PMIx_Get(NULL, PMIX_PROCID) for its own id, PMIx_Get of its own
 *     PMIX_PARENT_ID (nobody stored it: NOT_FOUND at once);
 *   - the user's job launched by PMIx_Spawn_nb in itself, which its own
 *     spawn upcall carries out (register, setup_fork, fork and exec);
 *   - the children's output read from pipes and handed to
 *     PMIx_server_IOF_deliver, which prints it (PMIX_IOF_LOCAL_OUTPUT, tagged
 *     as the job asked), and pulled by the host itself as well;
 *   - stdin closed with PMIx_IOF_push(NULL, 0, NULL, [PMIX_IOF_COMPLETE]).
 * It prints one line per step ("host: ...") and exits 0 when every step
 * went as OpenPMIx would have it. Bounded: children die with it and every
 * wait has a deadline. */
#define _GNU_SOURCE
#include <pmix.h>
#include <pmix_server.h>
#include <pmix_tool.h>

#include <errno.h>
#include <hwloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_PROCS 8
#define CHILD_NSPACE "prrtelike.1"

static pid_t g_pids[MAX_PROCS];
static int g_fds[MAX_PROCS];
static int g_nprocs;
static int g_spawned; /* 1 success, -1 failure: set on the progress thread, read here */
static char g_hostname[256];
static size_t g_pulled;

static void fail(const char *what, pmix_status_t rc)
{
    printf("host: %s failed: %s\n", what, PMIx_Error_string(rc));
    fflush(stdout);
    exit(1);
}

static void register_job(int nprocs)
{
    char procs[64] = "";
    for (int r = 0; r < nprocs; ++r) {
        char one[8];
        snprintf(one, sizeof one, r == 0 ? "%d" : ",%d", r);
        strcat(procs, one);
    }
    uint32_t size = (uint32_t)nprocs;
    bool yes = true;
    pmix_info_t info[4];
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, g_hostname, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, procs, PMIX_STRING);
    PMIX_INFO_LOAD(&info[3], PMIX_IOF_TAG_OUTPUT, &yes, PMIX_BOOL);
    pmix_nspace_t nspace;
    PMIX_LOAD_NSPACE(nspace, CHILD_NSPACE);
    pmix_status_t rc = PMIx_server_register_nspace(nspace, nprocs, info, 4, NULL, NULL);
    for (int i = 0; i < 4; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) fail("register_nspace", rc);
}

static void launch(const pmix_app_t *app, pmix_rank_t rank)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, CHILD_NSPACE, rank);
    pmix_status_t rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, NULL, NULL);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) fail("register_client", rc);
    size_t count = 0;
    while (environ[count] != NULL) ++count;
    char **env = calloc(count + 1, sizeof(char *)); /* setup_fork grows it */
    if (env == NULL) fail("calloc", PMIX_ERR_NOMEM);
    for (size_t i = 0; i < count; ++i) env[i] = strdup(environ[i]);
    rc = PMIx_server_setup_fork(&proc, &env);
    if (rc != PMIX_SUCCESS) fail("setup_fork", rc);
    int out[2];
    if (pipe(out) != 0) fail("pipe", PMIX_ERROR);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        if (app->cwd != NULL && chdir(app->cwd) != 0) _exit(126);
        execve(app->cmd, app->argv, env);
        _exit(127);
    }
    close(out[1]);
    g_pids[rank] = pid;
    g_fds[rank] = out[0];
    for (char **e = env; *e != NULL; ++e) free(*e);
    free(env);
}

/* The host's own spawn upcall, reached by its own PMIx_Spawn_nb. */
static pmix_status_t spawn_upcall(const pmix_proc_t *requester, const pmix_info_t job_info[], size_t ninfo,
                                  const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    (void)job_info;
    (void)ninfo;
    printf("host: spawn upcall from %s.%u, %zu app(s), cwd %s\n", requester->nspace, requester->rank, napps,
           apps[0].cwd != NULL ? "given" : "missing");
    g_nprocs = apps[0].maxprocs < MAX_PROCS ? apps[0].maxprocs : MAX_PROCS;
    register_job(g_nprocs);
    for (int r = 0; r < g_nprocs; ++r) launch(&apps[0], (pmix_rank_t)r);
    char nspace[PMIX_MAX_NSLEN + 1] = CHILD_NSPACE;
    cbfunc(PMIX_SUCCESS, nspace, cbdata);
    return PMIX_SUCCESS;
}

static void spawned(pmix_status_t status, pmix_nspace_t nspace, void *cbdata)
{
    (void)cbdata;
    /* release: what the spawn upcall wrote (pids, pipes) is seen with it */
    __atomic_store_n(&g_spawned, status == PMIX_SUCCESS && strcmp(nspace, CHILD_NSPACE) == 0 ? 1 : -1,
                     __ATOMIC_RELEASE);
}

static void on_pulled(size_t id, pmix_iof_channel_t channel, pmix_proc_t *source, pmix_byte_object_t *payload,
                      pmix_info_t info[], size_t ninfo)
{
    (void)id;
    (void)channel;
    (void)source;
    (void)info;
    (void)ninfo;
    if (payload != NULL) __atomic_add_fetch(&g_pulled, payload->size, __ATOMIC_RELAXED);
}

static void start_server(const char *tmpdir, hwloc_topology_t topology)
{
    pmix_topology_t topo = {.source = "hwloc", .topology = topology};
    pmix_rank_t zero = 0;
    bool yes = true;
    void *list = PMIx_Info_list_start();
    PMIx_Info_list_add(list, PMIX_SERVER_NSPACE, "prrtelike", PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_SERVER_RANK, &zero, PMIX_PROC_RANK);
    PMIx_Info_list_add(list, PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_TOPOLOGY2, &topo, PMIX_TOPO);
    PMIx_Info_list_add(list, PMIX_SERVER_SHARE_TOPOLOGY, &yes, PMIX_BOOL);
    pmix_data_array_t array;
    PMIX_DATA_ARRAY_CONSTRUCT(&array, 0, PMIX_INFO);
    pmix_status_t rc = PMIx_Info_list_convert(list, &array);
    PMIx_Info_list_release(list);
    if (rc != PMIX_SUCCESS) fail("info list", rc);
    static pmix_server_module_t module;
    module.spawn = spawn_upcall;
    rc = PMIx_server_init(&module, (pmix_info_t *)array.array, array.size);
    PMIX_DATA_ARRAY_DESTRUCT(&array); /* as PRRTE: the topology copy goes too */
    if (rc != PMIX_SUCCESS) fail("PMIx_server_init", rc);
}

static void ask_own_data(void)
{
    pmix_value_t *val = NULL;
    pmix_status_t rc = PMIx_Get(NULL, PMIX_PROCID, NULL, 0, &val);
    if (rc != PMIX_SUCCESS) fail("PMIx_Get(NULL, PMIX_PROCID)", rc);
    printf("host: my id %s.%u\n", val->data.proc->nspace, val->data.proc->rank);
    pmix_proc_t me = *val->data.proc;
    PMIX_VALUE_RELEASE(val);
    rc = PMIx_Get(&me, PMIX_PARENT_ID, NULL, 0, &val);
    printf("host: my parent: %s\n", PMIx_Error_string(rc));
}

static void spawn_job(char *program, int nprocs)
{
    pmix_app_t app;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = program;
    char *argv[] = {program, NULL};
    app.argv = argv;
    app.maxprocs = nprocs;
    pmix_status_t rc = PMIx_Spawn_nb(NULL, 0, &app, 1, spawned, NULL);
    if (rc != PMIX_SUCCESS) fail("PMIx_Spawn_nb", rc);
    int spawned_state = 0;
    for (int i = 0; i < 20000 && (spawned_state = __atomic_load_n(&g_spawned, __ATOMIC_ACQUIRE)) == 0; ++i) {
        usleep(1000);
    }
    if (spawned_state != 1) fail("the spawn's callback", PMIX_ERR_TIMEOUT);
    printf("host: spawned %s\n", CHILD_NSPACE);
    fflush(stdout);
}

/* Every child's output to the library until all pipes end (60 s at most). */
static void forward_output(void)
{
    int open_fds = g_nprocs;
    const time_t deadline = time(NULL) + 60;
    while (open_fds > 0 && time(NULL) < deadline) {
        struct pollfd fds[MAX_PROCS];
        for (int r = 0; r < g_nprocs; ++r) fds[r] = (struct pollfd){.fd = g_fds[r], .events = POLLIN};
        if (poll(fds, (nfds_t)g_nprocs, 1000) <= 0) continue;
        for (int r = 0; r < g_nprocs; ++r) {
            if (g_fds[r] < 0 || (fds[r].revents & (POLLIN | POLLHUP)) == 0) continue;
            char buffer[4096];
            ssize_t n = read(g_fds[r], buffer, sizeof buffer);
            if (n <= 0) {
                close(g_fds[r]);
                g_fds[r] = -1;
                --open_fds;
                continue;
            }
            pmix_proc_t source;
            PMIX_LOAD_PROCID(&source, CHILD_NSPACE, (pmix_rank_t)r);
            pmix_byte_object_t bo = {.bytes = buffer, .size = (size_t)n};
            PMIx_server_IOF_deliver(&source, PMIX_FWD_STDOUT_CHANNEL, &bo, NULL, 0, NULL, NULL);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s TMPDIR PROGRAM NPROCS\n", argv[0]);
        return 2;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    setvbuf(stdout, NULL, _IOLBF, 0); /* our lines and the library's, in order */
    gethostname(g_hostname, sizeof g_hostname - 1);
    hwloc_topology_t topology;
    if (hwloc_topology_init(&topology) != 0 || hwloc_topology_load(topology) != 0) return 2;
    start_server(argv[1], topology);
    ask_own_data();

    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, CHILD_NSPACE, PMIX_RANK_WILDCARD);
    pmix_status_t id = PMIx_IOF_pull(&job, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL, on_pulled, NULL, NULL);
    if (id < 0) fail("PMIx_IOF_pull", id);
    spawn_job(argv[2], atoi(argv[3]));
    forward_output();
    int failed = 0;
    for (int r = 0; r < g_nprocs; ++r) {
        int status = 0;
        if (waitpid(g_pids[r], &status, 0) != g_pids[r] || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
    }
    pmix_info_t complete;
    bool yes = true;
    PMIX_INFO_LOAD(&complete, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_IOF_push(NULL, 0, NULL, &complete, 1, NULL, NULL);
    printf("host: stdin closed: %s\n", PMIx_Error_string(rc));
    PMIx_IOF_deregister((size_t)id, NULL, 0, NULL, NULL);
    rc = PMIx_server_finalize();
    printf("host: pulled %zu bytes; children %s; finalize %s\n", __atomic_load_n(&g_pulled, __ATOMIC_RELAXED),
           failed ? "failed" : "succeeded", PMIx_Error_string(rc));
    hwloc_topology_destroy(topology);
    return failed || rc != PMIX_SUCCESS ? 1 : 0;
}
