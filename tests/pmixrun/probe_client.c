/* A client for the pmixrun tests: prints what it was given, then does what
 * its arguments say.
 *   probe_client [--abort STATUS] [--env NAME]... [--read-stdin] [--watch-exit] [--locality]
 * Prints "rank R size S appnum A app_rank P", "env NAME VALUE" lines,
 * "stdin <bytes>" after reading stdin to its end, "cpuset <PMIX_CPUSET>"
 * "locality <PMIX_LOCALITY_STRING>" and "peers <PMIX_LOCAL_PEERS>" with
 * --locality. */
#include <pmix.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int terminated_rank = -1;
static atomic_int terminated_code = -1;

static void on_terminated(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                          size_t ninfo, pmix_info_t results[], size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                          void *cbdata)
{
    (void)id; (void)status; (void)source; (void)results; (void)nresults;
    for (size_t i = 0; i < ninfo; ++i) {
        if (strcmp(info[i].key, PMIX_EVENT_AFFECTED_PROC) == 0 && info[i].value.type == PMIX_PROC) {
            terminated_rank = (int)info[i].value.data.proc->rank;
        } else if (strcmp(info[i].key, PMIX_EXIT_CODE) == 0 && info[i].value.type == PMIX_INT) {
            terminated_code = info[i].value.data.integer;
        }
    }
    if (cbfunc != NULL) cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static uint32_t get_u32(const pmix_proc_t *proc, const char *key)
{
    pmix_value_t *value = NULL;
    uint32_t number = UINT32_MAX;
    if (PMIx_Get(proc, key, NULL, 0, &value) == PMIX_SUCCESS) {
        number = value->type == PMIX_PROC_RANK ? value->data.rank : value->data.uint32;
        PMIX_VALUE_RELEASE(value);
    }
    return number;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) return 1;
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    printf("rank %u size %u appnum %u app_rank %u\n", me.rank, get_u32(&job, PMIX_JOB_SIZE), get_u32(&me, PMIX_APPNUM),
           get_u32(&me, PMIX_APP_RANK));
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--env") == 0 && i + 1 < argc) {
            const char *value = getenv(argv[++i]);
            printf("env %s %s\n", argv[i], value != NULL ? value : "(unset)");
        } else if (strcmp(argv[i], "--locality") == 0) {
            const char *keys[] = {PMIX_CPUSET, PMIX_LOCALITY_STRING, PMIX_LOCAL_PEERS};
            const char *labels[] = {"cpuset", "locality", "peers"};
            for (int k = 0; k < 3; ++k) {
                pmix_value_t *value = NULL;
                const int found = PMIx_Get(&me, keys[k], NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING;
                printf("%s %s\n", labels[k], found ? value->data.string : "(none)");
                if (value != NULL) PMIX_VALUE_RELEASE(value);
            }
        } else if (strcmp(argv[i], "--read-stdin") == 0) {
            char buffer[4096];
            size_t total = 0;
            ssize_t n;
            while ((n = read(0, buffer, sizeof buffer)) > 0) total += (size_t)n;
            printf("stdin %zu\n", total);
        } else if (strcmp(argv[i], "--watch-exit") == 0) {
            /* Rank 0 listens, everyone meets, then rank 1 finishes first. */
            if (me.rank == 0) {
                pmix_status_t code = PMIX_EVENT_PROC_TERMINATED;
                PMIx_Register_event_handler(&code, 1, NULL, 0, on_terminated, NULL, NULL);
            }
            PMIx_Fence(NULL, 0, NULL, 0);
            if (me.rank == 1) {
                fflush(stdout);
                PMIx_Finalize(NULL, 0);
                return 0;
            }
            for (int t = 0; t < 200 && terminated_rank < 0; ++t) usleep(50000);
            printf("rank %u saw rank %d terminate with %d\n", me.rank, terminated_rank, terminated_code);
        } else if (strcmp(argv[i], "--abort") == 0 && i + 1 < argc) {
            const int status = atoi(argv[++i]);
            if (me.rank == 1) {
                fflush(stdout);
                PMIx_Abort(status, "the probe gives up", NULL, 0);
                sleep(30); /* pmixrun ends us */
            }
            sleep(30);
        }
    }
    fflush(stdout);
    return PMIx_Finalize(NULL, 0) == PMIX_SUCCESS ? 0 : 1;
}
