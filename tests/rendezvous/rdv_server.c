/* A tiny PMIx server of the rendezvous tests (public API only).
 *   rdv_server <system tmpdir> <server tmpdir> [system] [session] [tool]
 *              [sched] [ctrlr] [job] [host=<name>] [nspace=<name>] [launcher=<path>]
 * Prints "ready" once PMIx_server_init succeeded (after registering a job
 * with "job", which makes its session directory), or "error <status>" and
 * exits 2. Then waits for EOF on stdin and finalizes; a signal just kills it. */
#include <pmix.h>
#include <pmix_server.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_INFO 16

static pmix_server_module_t module;

static int register_job(void)
{
    uint32_t size = 1;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_JOB_SIZE, &size, PMIX_UINT32);
    pmix_nspace_t nspace;
    PMIX_LOAD_NSPACE(nspace, "rdv-job");
    pmix_status_t rc = PMIx_server_register_nspace(nspace, 1, &info, 1, NULL, NULL);
    if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
        printf("error register %s\n", PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rdv_server <system tmpdir> <server tmpdir> [flags]\n");
        return 1;
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    pmix_info_t info[MAX_INFO];
    size_t ninfo = 0;
    bool yes = true, job = false;
    PMIX_INFO_LOAD(&info[ninfo++], PMIX_SYSTEM_TMPDIR, argv[1], PMIX_STRING);
    PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_TMPDIR, argv[2], PMIX_STRING);
    for (int i = 3; i < argc && ninfo < MAX_INFO; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "system") == 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_SYSTEM_SUPPORT, &yes, PMIX_BOOL);
        else if (strcmp(arg, "session") == 0)
            PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_SESSION_SUPPORT, &yes, PMIX_BOOL);
        else if (strcmp(arg, "tool") == 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL);
        else if (strcmp(arg, "sched") == 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_SCHEDULER, &yes, PMIX_BOOL);
        else if (strcmp(arg, "ctrlr") == 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_SYS_CONTROLLER, &yes, PMIX_BOOL);
        else if (strcmp(arg, "job") == 0) job = true;
        else if (strncmp(arg, "host=", 5) == 0) PMIX_INFO_LOAD(&info[ninfo++], PMIX_HOSTNAME, arg + 5, PMIX_STRING);
        else if (strncmp(arg, "nspace=", 7) == 0)
            PMIX_INFO_LOAD(&info[ninfo++], PMIX_SERVER_NSPACE, arg + 7, PMIX_STRING);
        else if (strncmp(arg, "launcher=", 9) == 0)
            PMIX_INFO_LOAD(&info[ninfo++], PMIX_LAUNCHER_RENDEZVOUS_FILE, arg + 9, PMIX_STRING);
        else {
            fprintf(stderr, "rdv_server: unknown flag %s\n", arg);
            return 1;
        }
    }
    pmix_status_t rc = PMIx_server_init(&module, info, ninfo);
    for (size_t i = 0; i < ninfo; ++i) PMIX_INFO_DESTRUCT(&info[i]);
    if (rc != PMIX_SUCCESS) {
        printf("error %s\n", PMIx_Error_string(rc));
        return 2;
    }
    if (job && register_job() != 0) {
        PMIx_server_finalize();
        return 2;
    }
    printf("ready\n");
    char buffer[64];
    while (read(STDIN_FILENO, buffer, sizeof(buffer)) > 0) {
    }
    PMIx_server_finalize();
    return 0;
}
