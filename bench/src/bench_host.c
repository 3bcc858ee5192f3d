/* Benchmark host, written against the standard server API only (pmix.h,
 * pmix_server.h) so the same source builds against any PMIx library.
 *
 *   bench_host job -n N [--pss | --server-rss TAG] <client program> [client args...]
 *       Registers a namespace of N local processes, forks and execs the client
 *       N times and waits for them. The clients print their own figures. With
 *       --pss every client stops itself (SIGSTOP) after its work; the host then
 *       reads each client's PSS from /proc/<pid>/smaps_rollup and resumes it.
 *       With --server-rss TAG the clients stop themselves the same way (the
 *       client's --rss-fence) and the host reports the growth of its own VmRSS
 *       from just before the first client is registered and started until all
 *       have stopped: "R srvrss_mib_TAG <MiB>", the same for RssAnon
 *       (srvrss_anon_mib_TAG) and the peak in between, VmHWM reset through
 *       /proc/self/clear_refs at the start (srvrss_peak_mib_TAG).
 *
 *   bench_host register -n NPROCS
 *       Times PMIx_server_register_nspace for a job of NPROCS processes (from
 *       the call until its callback) and the growth of this process's VmRSS.
 *
 *   bench_host init
 *       Times PMIx_server_init (call to return) and the growth of this
 *       process's VmRSS across it, and counts the listening sockets the process
 *       holds when it returns (> 0: a client can connect from then on).
 *
 * Output lines: "V host <version>", "M host <libpmix.so path this process
 * maps>" and "R <figure> <value>".
 *
 * BENCH_CLIENT_UNSET=VAR[,VAR...] keeps those variables of the host's own
 * environment out of the clients' (e.g. a component path meant for the
 * host's library only, when the clients run on another library). */
#define _GNU_SOURCE
#include <pmix.h>
#include <pmix_server.h>

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

static pmix_nspace_t NSPACE = "bench";
#define MAX_CLIENTS 256
/* Local and node ranks are uint16: a node never holds more processes. */
#define MAX_PER_NODE 65536
/* Processes per node of the registered job (--ppn); the first node is this host. */
static uint32_t procs_per_node = MAX_PER_NODE;

/* ---- host callbacks: one node, so a fence is complete at once ---- */

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
    fprintf(stderr, "bench_host: %s.%u aborted (%d): %s\n", proc->nspace, proc->rank, status, msg != NULL ? msg : "");
    return PMIX_OPERATION_SUCCEEDED;
}

/* ---- completion of a non-blocking server call ---- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
} completion_t;

static void completion_init(completion_t *c)
{
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cond, NULL);
    c->done = false;
    c->status = PMIX_SUCCESS;
}

static void on_op_done(pmix_status_t status, void *cbdata)
{
    completion_t *c = cbdata;
    pthread_mutex_lock(&c->lock);
    c->status = status;
    c->done = true;
    pthread_cond_signal(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

static pmix_status_t completion_wait(completion_t *c)
{
    pthread_mutex_lock(&c->lock);
    while (!c->done) pthread_cond_wait(&c->cond, &c->lock);
    pthread_mutex_unlock(&c->lock);
    return c->status;
}

/* ---- the job's description, identical for every library ---- */

static void append(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t add = strlen(text);
    if (*len + add + 1 > *cap) {
        *cap = (*len + add + 1) * 2;
        *buf = realloc(*buf, *cap);
        if (*buf == NULL) abort();
    }
    memcpy(*buf + *len, text, add + 1);
    *len += add;
}

/* Nodes: this host, then bench-node1, bench-node2, ... when one node cannot
 * hold the job. Ranks are placed by blocks of procs_per_node. */
static pmix_status_t build_maps(uint32_t nprocs, uint32_t nnodes, char **node_map_p, char **proc_map_p)
{
    char hostname[256] = "localhost";
    (void)gethostname(hostname, sizeof hostname - 1);
    char *nodes = NULL, *ranks = NULL;
    size_t nlen = 0, ncap = 0, rlen = 0, rcap = 0;
    for (uint32_t n = 0; n < nnodes; ++n) {
        char name[300];
        if (n == 0) snprintf(name, sizeof name, "%s", hostname);
        else snprintf(name, sizeof name, ",bench-node%u", n);
        append(&nodes, &nlen, &ncap, name);
    }
    for (uint32_t r = 0; r < nprocs; ++r) {
        char item[16];
        bool node_start = r % procs_per_node == 0;
        snprintf(item, sizeof item, "%s%u", r == 0 ? "" : (node_start ? ";" : ","), r);
        append(&ranks, &rlen, &rcap, item);
    }
    pmix_status_t rc = PMIx_generate_regex(nodes, node_map_p);
    if (rc == PMIX_SUCCESS) rc = PMIx_generate_ppn(ranks, proc_map_p);
    free(nodes);
    free(ranks);
    return rc;
}

/* The per-process array: rank, local rank and node rank. */
static void load_proc_data(pmix_info_t *slot, uint32_t rank)
{
    pmix_data_array_t *array = NULL;
    PMIX_DATA_ARRAY_CREATE(array, 3, PMIX_INFO);
    pmix_info_t *fields = array->array;
    pmix_rank_t r = rank;
    uint16_t local = (uint16_t)(rank % procs_per_node);
    PMIX_INFO_LOAD(&fields[0], PMIX_RANK, &r, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&fields[1], PMIX_LOCAL_RANK, &local, PMIX_UINT16);
    PMIX_INFO_LOAD(&fields[2], PMIX_NODE_RANK, &local, PMIX_UINT16);
    PMIX_INFO_LOAD(slot, PMIX_PROC_DATA, array, PMIX_DATA_ARRAY);
    /* PMIX_INFO_LOAD copied the array; drop our shell. */
    PMIX_DATA_ARRAY_FREE(array);
}

typedef struct {
    pmix_info_t *info;
    size_t ninfo;
} job_info_t;

#define JOB_LEVEL_KEYS 7

static pmix_status_t build_job_info(uint32_t nprocs, job_info_t *job_p)
{
    uint32_t nnodes = (nprocs + procs_per_node - 1) / procs_per_node;
    uint32_t local_size = nprocs < procs_per_node ? nprocs : procs_per_node;
    char *node_map = NULL, *proc_map = NULL;
    pmix_status_t rc = build_maps(nprocs, nnodes, &node_map, &proc_map);
    if (rc != PMIX_SUCCESS) return rc;
    size_t ninfo = JOB_LEVEL_KEYS + nprocs;
    pmix_info_t *info = NULL;
    PMIX_INFO_CREATE(info, ninfo);
    uint32_t univ = nprocs;
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &nprocs, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], PMIX_UNIV_SIZE, &univ, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], PMIX_MAX_PROCS, &nprocs, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[3], PMIX_LOCAL_SIZE, &local_size, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[4], PMIX_NUM_NODES, &nnodes, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[5], PMIX_NODE_MAP, node_map, PMIX_REGEX);
    PMIX_INFO_LOAD(&info[6], PMIX_PROC_MAP, proc_map, PMIX_REGEX);
    free(node_map);
    free(proc_map);
    for (uint32_t r = 0; r < nprocs; ++r) load_proc_data(&info[JOB_LEVEL_KEYS + r], r);
    job_p->info = info;
    job_p->ninfo = ninfo;
    return PMIX_SUCCESS;
}

/* Registers the job described by `job`; the time runs from the call until
 * the library reports completion through the callback. */
static pmix_status_t register_job_info(const job_info_t *job, uint32_t nprocs, double *elapsed_ms_p)
{
    completion_t done;
    completion_init(&done);
    uint64_t start = bench_now_ns();
    pmix_status_t rc = PMIx_server_register_nspace(NSPACE, (int)(nprocs < procs_per_node ? nprocs : procs_per_node),
                                                   job->info, job->ninfo, on_op_done, &done);
    if (rc == PMIX_SUCCESS) rc = completion_wait(&done);
    else if (rc == PMIX_OPERATION_SUCCEEDED) rc = PMIX_SUCCESS;
    uint64_t end = bench_now_ns();
    if (elapsed_ms_p != NULL && rc == PMIX_SUCCESS) *elapsed_ms_p = (double)(end - start) / 1e6;
    return rc;
}

static pmix_status_t register_job(uint32_t nprocs)
{
    job_info_t job;
    pmix_status_t rc = build_job_info(nprocs, &job);
    if (rc != PMIX_SUCCESS) return rc;
    rc = register_job_info(&job, nprocs, NULL);
    PMIX_INFO_FREE(job.info, job.ninfo);
    return rc;
}

/* ---- memory of processes ---- */

static long read_status_kib(const char *path, const char *field)
{
    FILE *file = fopen(path, "r");
    if (file == NULL) return -1;
    char line[256];
    long value = -1;
    size_t flen = strlen(field);
    while (fgets(line, sizeof line, file) != NULL) {
        if (strncmp(line, field, flen) == 0) {
            value = strtol(line + flen, NULL, 10);
            break;
        }
    }
    fclose(file);
    return value;
}

/* PSS shares each page among the processes mapping it; USS (private pages
 * only) is what the process alone would give back. */
static void record_memory(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    bench_record("R", "pss_kib", (double)read_status_kib(path, "Pss:"));
    long private_kib = read_status_kib(path, "Private_Clean:") + read_status_kib(path, "Private_Dirty:");
    bench_record("R", "uss_kib", (double)private_kib);
}

/* ---- server start ---- */

/* Starts the server; *init_ns_p (when not NULL) gets the time from the
 * call of PMIx_server_init to its return. */
static int start_server_timed(uint64_t *init_ns_p)
{
    pmix_server_module_t module;
    memset(&module, 0, sizeof module);
    module.fence_nb = on_fence;
    module.direct_modex = on_direct_modex;
    module.abort = on_abort;
    const char *tmpdir = getenv("TMPDIR");
    if (tmpdir == NULL) tmpdir = "/tmp";
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    uint64_t start = bench_now_ns();
    pmix_status_t rc = PMIx_server_init(&module, info, 2);
    uint64_t end = bench_now_ns();
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "bench_host: PMIx_server_init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    if (init_ns_p != NULL) *init_ns_p = end - start;
    bench_text("V", "host", PMIx_Get_version());
    char lib[400];
    bench_libpmix_of(getpid(), lib, sizeof lib);
    bench_text("M", "host", lib);
    return 0;
}

static int start_server(void)
{
    return start_server_timed(NULL);
}

/* ---- listening sockets of this process ---- */

/* Whether the socket with this inode is listening, per /proc/net/<table>
 * (tcp, tcp6: state 0A; unix: flags with __SO_ACCEPTCON, 0x10000). */
static bool listed_as_listening(const char *table, unsigned long inode)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/net/%s", table);
    FILE *file = fopen(path, "r");
    if (file == NULL) return false;
    char line[512];
    bool found = false;
    bool unix_table = strcmp(table, "unix") == 0;
    if (fgets(line, sizeof line, file) == NULL) line[0] = '\0'; /* header */
    while (!found && fgets(line, sizeof line, file) != NULL) {
        if (unix_table) {
            /* Num RefCount Protocol Flags Type St Inode Path */
            unsigned long flags = 0, node = 0;
            if (sscanf(line, "%*s %*s %*s %lx %*s %*s %lu", &flags, &node) == 2 && node == inode)
                found = (flags & 0x10000UL) != 0;
        } else {
            /* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
            unsigned state = 0;
            unsigned long node = 0;
            if (sscanf(line, "%*s %*s %*s %x %*s %*s %*s %*s %*s %lu", &state, &node) == 2 && node == inode)
                found = state == 0x0A;
        }
    }
    fclose(file);
    return found;
}

static int count_listening_sockets(void)
{
    DIR *fds = opendir("/proc/self/fd");
    if (fds == NULL) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL) {
        char path[300], target[128];
        snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        if (len <= 0) continue;
        target[len] = '\0';
        unsigned long inode = 0;
        if (sscanf(target, "socket:[%lu]", &inode) != 1) continue;
        if (listed_as_listening("tcp", inode) || listed_as_listening("tcp6", inode) ||
            listed_as_listening("unix", inode))
            count++;
    }
    closedir(fds);
    return count;
}

/* ---- modes ---- */

static int run_register(uint32_t nprocs)
{
    if (start_server() != 0) return 1;
    job_info_t job;
    pmix_status_t rc = build_job_info(nprocs, &job);
    /* Our own info array stays allocated until after the second reading, so
     * the growth is what the library keeps, not memory we freed. */
    long rss_before = read_status_kib("/proc/self/status", "VmRSS:");
    double elapsed_ms = 0;
    if (rc == PMIX_SUCCESS) rc = register_job_info(&job, nprocs, &elapsed_ms);
    long rss_after = read_status_kib("/proc/self/status", "VmRSS:");
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "bench_host: register_nspace(%u) failed: %s\n", nprocs, PMIx_Error_string(rc));
        PMIx_server_finalize();
        return 1;
    }
    PMIX_INFO_FREE(job.info, job.ninfo);
    char name[64];
    snprintf(name, sizeof name, "reg_ms_%u", nprocs);
    bench_record("R", name, elapsed_ms);
    snprintf(name, sizeof name, "reg_rss_mib_%u", nprocs);
    bench_record("R", name, (double)(rss_after - rss_before) / 1024.0);
    PMIx_server_deregister_nspace(NSPACE, NULL, NULL);
    PMIx_server_finalize();
    return 0;
}

/* PMIx_server_init: its time, the growth of VmRSS across it, and whether a
 * client can connect when it returns. */
static int run_init(void)
{
    long rss_before = read_status_kib("/proc/self/status", "VmRSS:");
    uint64_t init_ns = 0;
    if (start_server_timed(&init_ns) != 0) return 1;
    long rss_after = read_status_kib("/proc/self/status", "VmRSS:");
    int listening = count_listening_sockets();
    bench_record("R", "srvinit_ms", (double)init_ns / 1e6);
    bench_record("R", "srvinit_rss_mib", (double)(rss_after - rss_before) / 1024.0);
    bench_record("R", "srvinit_listen", (double)listening);
    PMIx_server_finalize();
    return 0;
}

/* Whether the environment entry NAME=VALUE is named in BENCH_CLIENT_UNSET
 * (a comma-separated list of variable names). */
static bool unset_for_clients(const char *entry)
{
    const char *list = getenv("BENCH_CLIENT_UNSET");
    size_t name_len = strcspn(entry, "=");
    while (list != NULL && *list != '\0') {
        size_t len = strcspn(list, ",");
        if (len == name_len && strncmp(list, entry, len) == 0) return true;
        list += len;
        if (*list == ',') list++;
    }
    return false;
}

static pid_t launch(pmix_rank_t rank, char **argv)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, NSPACE, rank);
    completion_t done;
    completion_init(&done);
    pmix_status_t rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, on_op_done, &done);
    if (rc == PMIX_SUCCESS) rc = completion_wait(&done);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) return -1;
    char **env = NULL;
    for (char **e = environ; *e != NULL; ++e)
        if (!unset_for_clients(*e)) pmix_argv_append_nosize(&env, *e);
    if (PMIx_server_setup_fork(&proc, &env) != PMIX_SUCCESS) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        execve(argv[0], argv, env);
        perror("bench_host: exec");
        _exit(127);
    }
    pmix_argv_free(env);
    return pid;
}

/* Waits until every client has stopped itself (SIGSTOP); the number that
 * did not (exited or died instead). */
static int wait_all_stopped(const pid_t pids[], int n)
{
    int failures = 0;
    for (int r = 0; r < n; ++r) {
        int status = 0;
        if (waitpid(pids[r], &status, WUNTRACED) < 0 || !WIFSTOPPED(status)) {
            fprintf(stderr, "bench_host: client %d ended before stopping itself\n", r);
            failures++;
        }
    }
    return failures;
}

static void resume_all(const pid_t pids[], int n)
{
    for (int r = 0; r < n; ++r) kill(pids[r], SIGCONT);
}

/* Every client stops itself once its work is done; read each one's PSS
 * while all of them are alive and idle, then let them finish. */
static int measure_pss(const pid_t pids[], int n)
{
    int failures = wait_all_stopped(pids, n);
    if (failures == 0) {
        for (int r = 0; r < n; ++r) record_memory(pids[r]);
        /* BENCH_HOLD_S=<seconds>: keep the stopped clients for inspection. */
        const char *hold = getenv("BENCH_HOLD_S");
        if (hold != NULL) sleep((unsigned)atoi(hold));
    }
    resume_all(pids, n);
    return failures;
}

/* Resets this process's VmHWM to its current VmRSS (Linux >= 4.0), so a
 * later VmHWM is the peak since now. Returns 0 on success. */
static int reset_peak_rss(void)
{
    FILE *file = fopen("/proc/self/clear_refs", "w");
    if (file == NULL) return -1;
    int rc = fputs("5", file) < 0 ? -1 : 0;
    if (fclose(file) != 0) rc = -1;
    return rc;
}

typedef struct {
    long rss_kib;
    long anon_kib;
    bool peak_reset;
} rss_mark_t;

static rss_mark_t mark_rss(void)
{
    rss_mark_t mark;
    mark.peak_reset = reset_peak_rss() == 0;
    mark.rss_kib = read_status_kib("/proc/self/status", "VmRSS:");
    mark.anon_kib = read_status_kib("/proc/self/status", "RssAnon:");
    return mark;
}

/* Every client stops itself after its collecting fence: the host's VmRSS
 * now holds whatever the library keeps of the job's data while all clients
 * are alive. Reports the growth of VmRSS and of RssAnon since `before`, and
 * the peak (VmHWM) since then. */
static int measure_server_rss(const pid_t pids[], int n, const rss_mark_t *before, const char *tag)
{
    int failures = wait_all_stopped(pids, n);
    if (failures == 0) {
        long rss = read_status_kib("/proc/self/status", "VmRSS:");
        long anon = read_status_kib("/proc/self/status", "RssAnon:");
        long peak = read_status_kib("/proc/self/status", "VmHWM:");
        char name[96];
        snprintf(name, sizeof name, "srvrss_mib_%s", tag);
        bench_record("R", name, (double)(rss - before->rss_kib) / 1024.0);
        snprintf(name, sizeof name, "srvrss_anon_mib_%s", tag);
        bench_record("R", name, (double)(anon - before->anon_kib) / 1024.0);
        if (before->peak_reset) {
            snprintf(name, sizeof name, "srvrss_peak_mib_%s", tag);
            bench_record("R", name, (double)(peak - before->rss_kib) / 1024.0);
        }
    }
    resume_all(pids, n);
    return failures;
}

static int run_job(int nprocs, bool pss, const char *rss_tag, char **client_argv)
{
    if (start_server() != 0) return 1;
    int failures = 0;
    if (register_job((uint32_t)nprocs) != PMIX_SUCCESS) {
        fprintf(stderr, "bench_host: cannot register the job\n");
        failures = 1;
    }
    rss_mark_t rss_before = {0, 0, false};
    if (rss_tag != NULL) rss_before = mark_rss();
    pid_t pids[MAX_CLIENTS];
    int launched = 0;
    for (int r = 0; failures == 0 && r < nprocs; ++r) {
        pids[r] = launch((pmix_rank_t)r, client_argv);
        if (pids[r] < 0) failures++;
        else launched++;
    }
    if (pss && failures == 0) failures += measure_pss(pids, launched);
    if (rss_tag != NULL && failures == 0) failures += measure_server_rss(pids, launched, &rss_before, rss_tag);
    for (int r = 0; r < launched; ++r) {
        int status = 0;
        if (waitpid(pids[r], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failures++;
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, NSPACE, (pmix_rank_t)r);
        PMIx_server_deregister_client(&proc, NULL, NULL);
    }
    PMIx_server_deregister_nspace(NSPACE, NULL, NULL);
    PMIx_server_finalize();
    if (failures != 0) fprintf(stderr, "bench_host: %d of %d clients failed\n", failures, nprocs);
    return failures == 0 ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_host job -n N [--pss | --server-rss TAG] <client> [args...]\n"
                    "       bench_host register -n NPROCS [--ppn 1..65536]\n"
                    "       bench_host init\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "init") == 0) return run_init();
    if (argc < 4 || strcmp(argv[2], "-n") != 0) return usage();
    long n = strtol(argv[3], NULL, 10);
    if (strcmp(argv[1], "register") == 0) {
        if (argc == 6 && strcmp(argv[4], "--ppn") == 0) {
            long ppn = strtol(argv[5], NULL, 10);
            if (ppn < 1 || ppn > MAX_PER_NODE) return usage();
            procs_per_node = (uint32_t)ppn;
        }
        if (n < 1 || n > 64L * 1024 * 1024) return usage();
        return run_register((uint32_t)n);
    }
    if (strcmp(argv[1], "job") != 0 || n < 1 || n > MAX_CLIENTS) return usage();
    int first = 4;
    bool pss = false;
    const char *rss_tag = NULL;
    if (first < argc && strcmp(argv[first], "--pss") == 0) {
        pss = true;
        first++;
    } else if (first + 1 < argc && strcmp(argv[first], "--server-rss") == 0) {
        rss_tag = argv[first + 1];
        first += 2;
    }
    if (first >= argc) return usage();
    return run_job((int)n, pss, rss_tag, &argv[first]);
}
