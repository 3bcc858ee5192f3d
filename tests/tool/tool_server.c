/* A small PMIx server for the tool tests, on the public API only.
 *
 *   tool_server --name NSPACE --tmpdir DIR [--tool] [--system] [--scheduler]
 *               [--controller] [--mode assign|echo|refuse|silent|none]
 *
 * Its tool_connected (mode assign, the default) names each tool
 * "<NSPACE>-tool" rank 5, 6, ...; echo keeps the identity the tool asked
 * for (else assigns); refuse says PMIX_ERR_NO_PERMISSIONS; silent never
 * calls back; none gives the
 * server no tool_connected at all. It refuses a tool whose PMIX_USERID /
 * PMIX_GRPID are not ours or whose PMIX_PROC_PID is missing (so a test that
 * connects proves the server passed them). It registers a job "<NSPACE>-job"
 * of size 4 with no local procs for the tools to query. Prints "ready <pid>"
 * when up and exits when stdin closes (and with its parent: PR_SET_PDEATHSIG).
 *
 * With --iof LOG the server is also an output host for the tool_iof tests:
 * it offers iof_pull (LOG gets "pull <channels>" or "stop") and push_stdin
 * (LOG gets "stdin <rank> <bytes>" and "eof <rank>"), and reads commands,
 * one a line, from stdin, answering each with "ok" on stdout:
 *   out R TEXT / err R TEXT   deliver TEXT\n as rank R of the job
 *   flood R N                 deliver N lines of 1 KiB as rank R, at once;
 *                             "ok" once the server has handled them all */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

static char g_name[64]; /* short: "<name>-tool" must fit an nspace */
static char g_mode[16] = "assign";
static pmix_rank_t g_next_rank = 5;

static bool has_uint32(const pmix_info_t *info, size_t ninfo, const char *key, uint32_t want)
{
    for (size_t i = 0; i < ninfo; ++i) {
        if (strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) {
            return info[i].value.type == PMIX_UINT32 && info[i].value.data.uint32 == want;
        }
    }
    return false;
}

static const pmix_info_t *find(const pmix_info_t *info, size_t ninfo, const char *key)
{
    for (size_t i = 0; i < ninfo; ++i) {
        if (strncmp(info[i].key, key, PMIX_MAX_KEYLEN) == 0) return &info[i];
    }
    return NULL;
}

static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t proc;
    memset(&proc, 0, sizeof proc);
    if (strcmp(g_mode, "silent") == 0) {
        return; /* never answers: the server's handshake timeout must act */
    }
    if (strcmp(g_mode, "refuse") == 0) {
        cbfunc(PMIX_ERR_NO_PERMISSIONS, NULL, cbdata);
        return;
    }
    if (!has_uint32(info, ninfo, PMIX_USERID, (uint32_t)geteuid()) ||
        !has_uint32(info, ninfo, PMIX_GRPID, (uint32_t)getegid()) || find(info, ninfo, PMIX_PROC_PID) == NULL) {
        cbfunc(PMIX_ERR_BAD_PARAM, NULL, cbdata);
        return;
    }
    const pmix_info_t *nspace = find(info, ninfo, PMIX_TOOL_NSPACE);
    const pmix_info_t *rank = find(info, ninfo, PMIX_TOOL_RANK);
    if (strcmp(g_mode, "echo") == 0 && nspace != NULL && nspace->value.type == PMIX_STRING) {
        PMIX_LOAD_NSPACE(proc.nspace, nspace->value.data.string);
        proc.rank = rank != NULL && rank->value.type == PMIX_PROC_RANK ? rank->value.data.rank : 0;
    } else {
        char tool[PMIX_MAX_NSLEN + 1];
        snprintf(tool, sizeof tool, "%s-tool", g_name);
        PMIX_LOAD_NSPACE(proc.nspace, tool);
        proc.rank = g_next_rank++;
    }
    cbfunc(PMIX_SUCCESS, &proc, cbdata);
}

static FILE *g_iof_log;

static bool flag_set(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_info_t *found = find(info, ninfo, key);
    return found != NULL && (found->value.type != PMIX_BOOL || found->value.data.flag);
}

/* Both answer at once (PMIX_OPERATION_SUCCEEDED): callbacks must not run
 * inside the upcall, and none is owed then. */
static pmix_status_t iof_pull(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                              pmix_iof_channel_t channels, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)procs;
    (void)nprocs;
    (void)cbfunc;
    (void)cbdata;
    if (flag_set(directives, ndirs, PMIX_IOF_STOP)) {
        fprintf(g_iof_log, "stop\n");
    } else {
        fprintf(g_iof_log, "pull %u\n", (unsigned)channels);
    }
    fflush(g_iof_log);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t push_stdin(const pmix_proc_t *source, const pmix_proc_t targets[], size_t ntargets,
                                const pmix_info_t directives[], size_t ndirs, const pmix_byte_object_t *bo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)source;
    (void)cbfunc;
    (void)cbdata;
    for (size_t i = 0; i < ntargets; ++i) {
        if (bo != NULL && bo->size > 0) {
            fprintf(g_iof_log, "stdin %u ", (unsigned)targets[i].rank);
            fwrite(bo->bytes, 1, bo->size, g_iof_log);
        }
        if (flag_set(directives, ndirs, PMIX_IOF_COMPLETE)) fprintf(g_iof_log, "eof %u\n", (unsigned)targets[i].rank);
    }
    fflush(g_iof_log);
    return PMIX_OPERATION_SUCCEEDED;
}

static void deliver_with(pmix_rank_t rank, pmix_iof_channel_t channel, const char *text, size_t size,
                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t source;
    char job[PMIX_MAX_NSLEN + 1];
    snprintf(job, sizeof job, "%s-job", g_name);
    PMIX_LOAD_PROCID(&source, job, rank);
    pmix_byte_object_t bo = {(char *)text, size};
    pmix_status_t rc = PMIx_server_IOF_deliver(&source, channel, &bo, NULL, 0, cbfunc, cbdata);
    if (rc == PMIX_OPERATION_SUCCEEDED && cbfunc != NULL) {
        cbfunc(PMIX_SUCCESS, cbdata); /* done at once: no callback comes */
    } else if (rc != PMIX_OPERATION_SUCCEEDED && rc != PMIX_SUCCESS) {
        fprintf(stderr, "tool_server: deliver: %s\n", PMIx_Error_string(rc));
    }
}

static void deliver(pmix_rank_t rank, pmix_iof_channel_t channel, const char *text, size_t size)
{
    deliver_with(rank, channel, text, size, NULL, NULL);
}

static void set_done(pmix_status_t status, void *cbdata)
{
    (void)status;
    atomic_store((atomic_bool *)cbdata, true);
}

/* N chunks of 1 KiB at once; answers once the server handed out (or
 * dropped) every one: the last chunk's callback runs after all of them. */
static void flood(pmix_rank_t rank, unsigned count, const char *kilo, size_t size)
{
    atomic_bool done = false;
    for (unsigned i = 0; i < count; ++i) {
        const bool last = i + 1 == count;
        deliver_with(rank, PMIX_FWD_STDOUT_CHANNEL, kilo, size, last ? set_done : NULL, last ? &done : NULL);
    }
    for (int waited = 0; count > 0 && !atomic_load(&done) && waited < 120000; ++waited) usleep(1000);
}

static void serve_iof_commands(void)
{
    char line[4096];
    static char kilo[1024];
    memset(kilo, 'x', sizeof kilo - 1);
    kilo[sizeof kilo - 1] = '\n';
    while (fgets(line, sizeof line, stdin) != NULL) {
        unsigned rank = 0, count = 0;
        int used = 0;
        if (sscanf(line, "flood %u %u", &rank, &count) == 2) {
            flood(rank, count, kilo, sizeof kilo);
        } else if (sscanf(line, "out %u %n", &rank, &used) == 1 && used > 0) {
            deliver(rank, PMIX_FWD_STDOUT_CHANNEL, line + used, strlen(line + used));
        } else if (sscanf(line, "err %u %n", &rank, &used) == 1 && used > 0) {
            deliver(rank, PMIX_FWD_STDERR_CHANNEL, line + used, strlen(line + used));
        }
        printf("ok\n");
        fflush(stdout);
    }
}

static void set_flag(pmix_info_t *info, size_t *n, const char *key)
{
    bool yes = true;
    PMIX_INFO_LOAD(&info[(*n)++], key, &yes, PMIX_BOOL);
}

int main(int argc, char **argv)
{
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    pmix_info_t info[13];
    size_t n = 0;
    const char *tmpdir = NULL;
    const char *iof_log = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
            snprintf(g_name, sizeof g_name, "%s", argv[++i]);
        } else if (strcmp(argv[i], "--tmpdir") == 0 && i + 1 < argc) {
            tmpdir = argv[++i];
        } else if (strcmp(argv[i], "--iof") == 0 && i + 1 < argc) {
            iof_log = argv[++i];
        } else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc) {
            snprintf(g_mode, sizeof g_mode, "%s", argv[++i]);
        } else if (strcmp(argv[i], "--tool") == 0) {
            set_flag(info, &n, PMIX_SERVER_TOOL_SUPPORT);
        } else if (strcmp(argv[i], "--system") == 0) {
            set_flag(info, &n, PMIX_SERVER_SYSTEM_SUPPORT);
        } else if (strcmp(argv[i], "--scheduler") == 0) {
            set_flag(info, &n, PMIX_SERVER_SCHEDULER);
        } else if (strcmp(argv[i], "--controller") == 0) {
            set_flag(info, &n, PMIX_SERVER_SYS_CONTROLLER);
        }
    }
    if (g_name[0] == '\0' || tmpdir == NULL) {
        fprintf(stderr, "usage: %s --name NSPACE --tmpdir DIR [flags]\n", argv[0]);
        return 2;
    }
    PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_NSPACE, g_name, PMIX_STRING);
    pmix_rank_t zero = 0;
    PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_RANK, &zero, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&info[n++], PMIX_SYSTEM_TMPDIR, tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[n++], PMIX_SERVER_TMPDIR, tmpdir, PMIX_STRING);
    /* Our stdout answers the test's commands: the output we deliver goes
     * only to the tools that pull it, not to our stdout as well. */
    bool no = false;
    PMIX_INFO_LOAD(&info[n++], PMIX_IOF_LOCAL_OUTPUT, &no, PMIX_BOOL);

    pmix_server_module_t module;
    memset(&module, 0, sizeof module);
    if (strcmp(g_mode, "none") != 0) module.tool_connected = tool_connected;
    if (iof_log != NULL) {
        g_iof_log = fopen(iof_log, "w");
        if (g_iof_log == NULL) return 2;
        module.iof_pull = iof_pull;
        module.push_stdin = push_stdin;
    }
    pmix_status_t rc = PMIx_server_init(&module, info, n);
    for (size_t i = 0; i < n; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "tool_server: PMIx_server_init: %s\n", PMIx_Error_string(rc));
        printf("failed %d\n", rc);
        fflush(stdout);
        return 1;
    }
    /* A job for PMIx_Get / PMIx_Query_info through a tool to find. */
    char job[PMIX_MAX_NSLEN + 1];
    snprintf(job, sizeof job, "%s-job", g_name);
    pmix_info_t size;
    uint32_t four = 4;
    PMIX_INFO_LOAD(&size, PMIX_JOB_SIZE, &four, PMIX_UINT32);
    rc = PMIx_server_register_nspace(job, 0, &size, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&size);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
        fprintf(stderr, "tool_server: register_nspace: %s\n", PMIx_Error_string(rc));
    }
    printf("ready %d\n", (int)getpid());
    fflush(stdout);
    if (g_iof_log != NULL) {
        serve_iof_commands();
    } else {
        char buffer[64];
        while (read(STDIN_FILENO, buffer, sizeof buffer) > 0) {
        }
    }
    PMIx_server_finalize();
    return 0;
}
