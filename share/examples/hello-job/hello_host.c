/* A minimal single-node host written against the public server API only:
 * the smallest thing that runs a PMIx job. It starts a server that accepts
 * tools, asks the network components to prepare the job
 * (PMIx_server_setup_application, as a head node does, then
 * PMIx_server_setup_local_support, as a compute node does), registers one
 * namespace of N processes with what they returned, forks and execs the
 * client program N times with the environment PMIx_server_setup_fork gives,
 * waits for them, and shuts down. Everything the library creates (session
 * directories, rendezvous files, files the clients registered for cleanup)
 * lives under PMIX_SERVER_TMPDIR and is gone when this program exits.
 *
 *   hello_host [-n N] <client program> [args...]
 */
#define _GNU_SOURCE
#include <pmix.h>
#include <pmix_server.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* pmix_nspace_t is a fixed-size array: the API reads all of it. */
static pmix_nspace_t NSPACE = "hello";
#define MAX_PROCS 64

/* One node: everything a fence gathers is this node's contribution. */
static pmix_status_t on_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[], size_t ninfo,
                              char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    /* data is ours to free: it goes back as the result, freed once read. */
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, free, data);
    return PMIX_SUCCESS;
}

/* Every process is local, so no other node can hold a process's data. */
static pmix_status_t on_direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                                     pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)info;
    (void)ninfo;
    (void)cbfunc;
    (void)cbdata;
    return PMIX_ERR_NOT_FOUND;
}

static pmix_status_t on_abort(const pmix_proc_t *proc, void *server_object, int status, const char msg[],
                              pmix_proc_t procs[], size_t nprocs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    (void)procs;
    (void)nprocs;
    (void)cbfunc;
    (void)cbdata;
    fprintf(stderr, "hello_host: %s.%u aborted with status %d: %s\n", proc->nspace, proc->rank, status,
            msg != NULL ? msg : "");
    return PMIX_OPERATION_SUCCEEDED;
}

/* ---- waiting for a callback of the server ---- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    pmix_status_t status;
    pmix_info_t *info; /* setup_application's result, our copy */
    size_t ninfo;
} waiter_t;

static void waiter_init(waiter_t *w)
{
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->done = 0;
    w->status = PMIX_ERR_TIMEOUT;
    w->info = NULL;
    w->ninfo = 0;
}

static void waiter_finish(waiter_t *w, pmix_status_t status)
{
    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static pmix_status_t waiter_wait(waiter_t *w)
{
    pthread_mutex_lock(&w->lock);
    while (!w->done) pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    return w->status;
}

static void on_op(pmix_status_t status, void *cbdata)
{
    waiter_finish(cbdata, status);
}

/* The network components' additions: copied, then the library may free its array. */
static void on_setup_application(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *provided,
                                 pmix_op_cbfunc_t release, void *release_cbdata)
{
    waiter_t *w = provided;
    if (status == PMIX_SUCCESS && ninfo > 0) {
        PMIX_INFO_CREATE(w->info, ninfo);
        for (size_t i = 0; i < ninfo; ++i) PMIx_Info_xfer(&w->info[i], &info[i]);
        w->ninfo = ninfo;
    }
    if (release != NULL) release(PMIX_SUCCESS, release_cbdata);
    waiter_finish(w, status);
}

/* Head node: what the network needs for this job (tokens, environment,
 * endpoint addresses). Names the environment variables it sets, never their
 * values (a token is a secret). */
static pmix_status_t setup_network(int nprocs, waiter_t *w)
{
    uint32_t size = (uint32_t)nprocs;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    waiter_init(w);
    pmix_status_t rc = PMIx_server_setup_application(NSPACE, &info, 1, on_setup_application, w);
    PMIX_INFO_DESTRUCT(&info);
    if (rc == PMIX_SUCCESS) rc = waiter_wait(w);
    if (rc != PMIX_SUCCESS) return rc;
    printf("hello_host: the network setup gives every process:");
    for (size_t i = 0; i < w->ninfo; ++i) {
        if (w->info[i].value.type == PMIX_ENVAR) printf(" %s", w->info[i].value.data.envar.envar);
    }
    printf("\n");
    fflush(stdout); /* before any fork */
    return PMIX_SUCCESS;
}

/* Compute node: the network prepares this node; no process may start before. */
static pmix_status_t setup_local_network(const waiter_t *job)
{
    waiter_t w;
    waiter_init(&w);
    pmix_status_t rc = PMIx_server_setup_local_support(NSPACE, job->info, job->ninfo, on_op, &w);
    return rc == PMIX_SUCCESS ? waiter_wait(&w) : rc;
}

static pmix_status_t register_job(int nprocs, const waiter_t *network)
{
    char hostname[256] = "localhost";
    (void)gethostname(hostname, sizeof hostname - 1);
    char ranks[MAX_PROCS * 4] = "";
    for (int r = 0; r < nprocs; ++r) {
        char item[16];
        snprintf(item, sizeof item, r == 0 ? "%d" : ",%d", r);
        strcat(ranks, item);
    }
    char *node_map = NULL;
    char *proc_map = NULL;
    pmix_status_t rc = PMIx_generate_regex(hostname, &node_map);
    if (rc == PMIX_SUCCESS) rc = PMIx_generate_ppn(ranks, &proc_map);
    if (rc != PMIX_SUCCESS) return rc;

    /* The job's own description, then what the network setup added. */
    uint32_t size = (uint32_t)nprocs;
    size_t ninfo = 3 + network->ninfo;
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, ninfo);
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_NODE_MAP, node_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[2], PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    for (size_t i = 0; i < network->ninfo; ++i) PMIx_Info_xfer(&info[3 + i], &network->info[i]);
    rc = PMIx_server_register_nspace(NSPACE, nprocs, info, ninfo, NULL, NULL);
    PMIX_INFO_FREE(info, ninfo);
    free(node_map);
    free(proc_map);
    return rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc;
}

static pid_t launch(pmix_rank_t rank, char **argv)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, NSPACE, rank);
    pmix_status_t rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, NULL, NULL);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) return -1;
    char **env = NULL;
    for (char **e = environ; *e != NULL; ++e) pmix_argv_append_nosize(&env, *e);
    if (PMIx_server_setup_fork(&proc, &env) != PMIX_SUCCESS) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        execve(argv[0], argv, env);
        perror("hello_host: exec");
        _exit(127);
    }
    pmix_argv_free(env);
    return pid;
}

int main(int argc, char **argv)
{
    int nprocs = 2;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        nprocs = atoi(argv[2]);
        first = 3;
    }
    if (first >= argc || nprocs < 1 || nprocs > MAX_PROCS) {
        fprintf(stderr, "usage: hello_host [-n 1..%d] <client program> [args...]\n", MAX_PROCS);
        return 2;
    }
    pmix_server_module_t module;
    memset(&module, 0, sizeof module);
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    module.abort = on_abort;

    pmix_info_t info[1];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TOOL_SUPPORT, NULL, PMIX_BOOL);
    pmix_status_t rc = PMIx_server_init(&module, info, 1);
    PMIX_INFO_DESTRUCT(&info[0]);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "hello_host: PMIx_server_init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    int failures = 0;
    waiter_t network;
    rc = setup_network(nprocs, &network);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "hello_host: the network setup failed: %s\n", PMIx_Error_string(rc));
        failures = 1;
    }
    if (failures == 0 && (rc = register_job(nprocs, &network)) != PMIX_SUCCESS) {
        fprintf(stderr, "hello_host: cannot register the job: %s\n", PMIx_Error_string(rc));
        failures = 1;
    }
    if (failures == 0 && (rc = setup_local_network(&network)) != PMIX_SUCCESS) {
        fprintf(stderr, "hello_host: the local network setup failed: %s\n", PMIx_Error_string(rc));
        failures = 1;
    }
    pid_t pids[MAX_PROCS];
    int launched = 0;
    for (int r = 0; failures == 0 && r < nprocs; ++r) {
        pids[r] = launch((pmix_rank_t)r, &argv[first]);
        if (pids[r] < 0) failures++;
        else launched++;
    }
    for (int r = 0; r < launched; ++r) {
        int status = 0;
        if (waitpid(pids[r], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failures++;
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, NSPACE, (pmix_rank_t)r);
        PMIx_server_deregister_client(&proc, NULL, NULL);
    }
    PMIx_server_deregister_nspace(NSPACE, NULL, NULL);
    if (network.info != NULL) PMIX_INFO_FREE(network.info, network.ninfo);
    PMIx_server_finalize();
    printf("hello_host: %d of %d processes succeeded\n", launched - failures, nprocs);
    return failures == 0 ? 0 : 1;
}
