/* A client of a job prepared by the pnet components: prints what it finds in
 * its environment and every peer's simulated fabric address, read with
 * PMIx_Get and no fence, one "KEY value" line each, then finalizes. */
#include <pmix.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_env(const char *name)
{
    const char *value = getenv(name);
    printf("ENV %s %s\n", name, value != NULL ? value : "(unset)");
}

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL PMIx_Init %s\n", PMIx_Error_string(rc));
        return 1;
    }
    print_env("PMIXPP_JOB_TOKEN");
    print_env("SITE_FABRIC");
    print_env("PNETTEST_FWD_A");
    print_env("PNETTEST_PATH");
    print_env("PNETTEST_DROP_ME");
    print_env("SIMFAB_JOBID");
    const char *port = getenv("SIMFAB_PORT_FILE");
    printf("PORTFILE %s\n", port != NULL && access(port, F_OK) == 0 ? "present" : "missing");

    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *value = NULL;
    uint32_t size = 0;
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &value) == PMIX_SUCCESS) {
        size = value->data.uint32;
        PMIX_VALUE_RELEASE(value);
    }
    if (PMIx_Get(&job, "pmixpp.simfab.jobid", NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING) {
        printf("JOBID %s\n", value->data.string);
        PMIX_VALUE_RELEASE(value);
    }
    for (uint32_t r = 0; r < size; ++r) {
        pmix_proc_t peer = me;
        peer.rank = r;
        rc = PMIx_Get(&peer, "pmixpp.simfab.addr", NULL, 0, &value);
        if (rc == PMIX_SUCCESS && value->type == PMIX_STRING) {
            printf("ADDR %u %s\n", r, value->data.string);
            PMIX_VALUE_RELEASE(value);
        } else {
            printf("ADDR %u (none: %s)\n", r, PMIx_Error_string(rc));
        }
    }
    fflush(stdout);
    rc = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : 2;
}
