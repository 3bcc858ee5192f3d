/* A job for the pmixrun IOF test, two ranks of the same program:
 *   rank 1 writes "out I" lines to stdout and "err I" to stderr (I < 20),
 *          then stays 3 s so that the job is still there to be pulled;
 *   rank 0 forks a tool (the job's variables dropped) that connects to
 *          pmixrun, pulls rank 1's stdout and stderr (what came before the
 *          pull comes from pmixrun's cache) and prints
 *          "iof-tool: stdout ok, stderr ok" when both arrived whole and in
 *          order, else what it got; then "iof-tool: push STATUS" for a
 *          push of stdin to rank 1.
 * With --read-stdin (pmixrun --stdin 1 --stdin-tool), rank 1 then reads its
 * stdin to its end and writes "stdin [TEXT]"; the tool pushes "hello\n"
 * with PMIX_IOF_COMPLETE and prints "iof-tool: stdin delivered" once that
 * line came back through the pull. */
#include <pmix_tool.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LINES 20

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static char g_out[4096], g_err[4096];

static void append(char *to, const pmix_byte_object_t *bo)
{
    size_t have = strlen(to);
    size_t room = 4095 - have;
    size_t n = bo->size < room ? bo->size : room;
    memcpy(to + have, bo->bytes, n);
    to[have + n] = '\0';
}

static void on_output(size_t id, pmix_iof_channel_t channel, pmix_proc_t *source, pmix_byte_object_t *payload,
                      pmix_info_t info[], size_t ninfo)
{
    (void)id;
    (void)source;
    (void)info;
    (void)ninfo;
    pthread_mutex_lock(&g_lock);
    append(channel == PMIX_FWD_STDOUT_CHANNEL ? g_out : g_err, payload);
    pthread_mutex_unlock(&g_lock);
}

static void expected(char *text, const char *word)
{
    text[0] = '\0';
    for (int i = 0; i < LINES; ++i) sprintf(text + strlen(text), "%s %d\n", word, i);
}

static int g_read_stdin; /* --read-stdin */

/* Rank 1's "stdin [hello\n]" line, through the pull. */
static int stdin_came_back(void)
{
    int back = 0;
    for (int i = 0; i < 1000 && !back; ++i) {
        pthread_mutex_lock(&g_lock);
        back = strstr(g_out, "stdin [hello\n]") != NULL;
        pthread_mutex_unlock(&g_lock);
        if (!back) usleep(10000);
    }
    pthread_mutex_lock(&g_lock);
    if (back) {
        printf("iof-tool: stdin delivered\n");
    } else {
        printf("iof-tool: no stdin line in [%s]\n", g_out);
    }
    pthread_mutex_unlock(&g_lock);
    return back;
}

static int tool(const char *uri, const char *nspace)
{
    static const char *const job_variables[] = {"PMIX_NAMESPACE",   "PMIX_RANK",        "PMIX_SERVER_URI41",
                                                "PMIX_SERVER_URI4", "PMIX_SERVER_URI3", "PMIX_SERVER_URI2",
                                                "PMIX_SERVER_URI21"};
    for (size_t i = 0; i < sizeof job_variables / sizeof job_variables[0]; ++i) unsetenv(job_variables[i]);
    pmix_info_t info;
    pmix_proc_t me;
    PMIX_INFO_LOAD(&info, PMIX_SERVER_URI, uri, PMIX_STRING);
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    if (rc != PMIX_SUCCESS) {
        printf("iof-tool: tool init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t writer;
    PMIX_LOAD_PROCID(&writer, nspace, 1);
    rc = PMIx_IOF_pull(&writer, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL, on_output, NULL, NULL);
    if (rc < 0) {
        printf("iof-tool: pull: %s\n", PMIx_Error_string(rc));
        PMIx_tool_finalize();
        return 1;
    }
    char want_out[4096], want_err[4096];
    expected(want_out, "out");
    expected(want_err, "err");
    int done = 0;
    for (int i = 0; i < 1000 && !done; ++i) {
        pthread_mutex_lock(&g_lock);
        done = strcmp(g_out, want_out) == 0 && strcmp(g_err, want_err) == 0;
        pthread_mutex_unlock(&g_lock);
        if (!done) usleep(10000);
    }
    pthread_mutex_lock(&g_lock);
    if (done) {
        printf("iof-tool: stdout ok, stderr ok\n");
    } else {
        printf("iof-tool: stdout [%s] stderr [%s]\n", g_out, g_err);
    }
    pthread_mutex_unlock(&g_lock);
    char text[] = "hello\n";
    pmix_byte_object_t bo = {text, 6};
    pmix_info_t end;
    bool yes = true;
    PMIX_INFO_LOAD(&end, PMIX_IOF_COMPLETE, &yes, PMIX_BOOL);
    printf("iof-tool: push %s\n", PMIx_Error_string(PMIx_IOF_push(&writer, 1, &bo, &end, g_read_stdin, NULL, NULL)));
    if (g_read_stdin) done = done && stdin_came_back();
    rc = PMIx_IOF_deregister((size_t)rc, NULL, 0, NULL, NULL);
    if (rc != PMIX_SUCCESS) printf("iof-tool: deregister: %s\n", PMIx_Error_string(rc));
    PMIx_tool_finalize();
    return done ? 0 : 1;
}

/* Rank 1 with --read-stdin: its stdin to its end, as one line. */
static void echo_stdin(void)
{
    char text[256];
    size_t have = 0;
    ssize_t n;
    while (have < sizeof text - 1 && (n = read(STDIN_FILENO, text + have, sizeof text - 1 - have)) > 0) {
        have += (size_t)n;
    }
    text[have] = '\0';
    printf("stdin [%s]\n", text);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *rank = getenv("PMIX_RANK");
    const char *nspace = getenv("PMIX_NAMESPACE");
    if (rank == NULL || nspace == NULL) return 2;
    g_read_stdin = argc > 1 && strcmp(argv[1], "--read-stdin") == 0;
    if (strcmp(rank, "0") != 0) {
        for (int i = 0; i < LINES; ++i) {
            printf("out %d\n", i);
            fflush(stdout);
            fprintf(stderr, "err %d\n", i);
        }
        if (g_read_stdin) echo_stdin();
        sleep(3);
        return 0;
    }
    const char *line = getenv("PMIX_SERVER_URI41");
    const char *uri = line != NULL ? strchr(line, ';') : NULL;
    if (uri == NULL) return 2;
    char job[PMIX_MAX_NSLEN + 1];
    snprintf(job, sizeof job, "%s", nspace);
    /* Give the writer a head start: the cache must carry what came first. */
    usleep(300000);
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        const int code = tool(uri + 1, job);
        fflush(stdout);
        _exit(code);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
