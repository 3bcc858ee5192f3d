/* data_exchange: the modex, the way MPI libraries use it. Every process
 * publishes three values of different types and scopes (a string for all,
 * a number for peers on its node, bytes for everyone), commits them, and
 * after one data-collecting fence reads every peer's values and checks
 * them. A second round adds a key after the fence without collecting data:
 * a peer's get then finds it through the server (direct modex). Rank 0
 * logs the outcome through the host (PMIX_LOG_JOB_RECORD).
 *
 *   pmixrun -n 4 build/examples/data_exchange
 */
#include <pmix.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static pmix_status_t put_values(const pmix_proc_t *me)
{
    char text[64];
    snprintf(text, sizeof text, "endpoint-of-%u", me->rank);
    uint64_t number = 1000u + me->rank;
    unsigned char bytes[16];
    for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = (unsigned char)(me->rank * 16 + i);
    pmix_byte_object_t blob = {(char *)bytes, sizeof bytes};

    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, text, PMIX_STRING);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "example.text", &value);
    PMIX_VALUE_DESTRUCT(&value);
    if (rc != PMIX_SUCCESS) return rc;
    PMIX_VALUE_LOAD(&value, &number, PMIX_UINT64);
    if ((rc = PMIx_Put(PMIX_LOCAL, "example.number", &value)) != PMIX_SUCCESS) return rc;
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo = blob; /* borrowed: PMIx_Put copies it */
    if ((rc = PMIx_Put(PMIX_REMOTE, "example.bytes", &value)) != PMIX_SUCCESS) return rc;
    return PMIx_Commit();
}

/* Reads a peer's three values; true when each is what that peer put. */
static bool check_peer(pmix_rank_t rank, const pmix_proc_t *me)
{
    pmix_proc_t peer = *me;
    peer.rank = rank;
    pmix_value_t *value = NULL;
    char expected[64];
    snprintf(expected, sizeof expected, "endpoint-of-%u", rank);
    bool ok = PMIx_Get(&peer, "example.text", NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_STRING &&
              strcmp(value->data.string, expected) == 0;
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    value = NULL;
    ok = ok && PMIx_Get(&peer, "example.number", NULL, 0, &value) == PMIX_SUCCESS && value->type == PMIX_UINT64 &&
         value->data.uint64 == 1000u + rank;
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    value = NULL;
    /* PMIX_REMOTE data is for other nodes: on one node only its owner sees it. */
    if (rank == me->rank) {
        ok = ok && PMIx_Get(&peer, "example.bytes", NULL, 0, &value) == PMIX_SUCCESS &&
             value->type == PMIX_BYTE_OBJECT && value->data.bo.size == 16 &&
             (unsigned char)value->data.bo.bytes[15] == (unsigned char)(rank * 16 + 15);
        if (value != NULL) PMIX_VALUE_RELEASE(value);
    }
    return ok;
}

static bool late_key_round(const pmix_proc_t *me, uint32_t size)
{
    pmix_value_t value;
    uint32_t mine = me->rank * 7;
    PMIX_VALUE_LOAD(&value, &mine, PMIX_UINT32);
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "example.late", &value);
    if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
    if (rc == PMIX_SUCCESS) rc = PMIx_Fence(NULL, 0, NULL, 0); /* no data collected */
    pmix_proc_t peer = *me;
    peer.rank = (me->rank + 1) % size;
    pmix_value_t *got = NULL;
    if (rc == PMIX_SUCCESS) rc = PMIx_Get(&peer, "example.late", NULL, 0, &got);
    bool ok = rc == PMIX_SUCCESS && got->type == PMIX_UINT32 && got->data.uint32 == peer.rank * 7;
    if (got != NULL) PMIX_VALUE_RELEASE(got);
    return ok;
}

int main(void)
{
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) {
        fprintf(stderr, "data_exchange: PMIx_Init failed (run me under pmixrun)\n");
        return 1;
    }
    pmix_proc_t job = me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *value = NULL;
    uint32_t size = 1;
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &value) == PMIX_SUCCESS) {
        size = value->data.uint32;
        PMIX_VALUE_RELEASE(value);
    }
    pmix_status_t rc = put_values(&me);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    if (rc == PMIX_SUCCESS) rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    uint32_t good = 0;
    for (pmix_rank_t r = 0; rc == PMIX_SUCCESS && r < size; ++r) good += check_peer(r, &me) ? 1 : 0;
    const bool late = rc == PMIX_SUCCESS && late_key_round(&me, size);
    printf("rank %u: %u of %u peers' values checked, late key from the next rank %s\n", me.rank, good, size,
           late ? "found" : "MISSING");
    fflush(stdout);
    if (me.rank == 0) {
        pmix_info_t record;
        PMIX_INFO_LOAD(&record, PMIX_LOG_JOB_RECORD, "data exchange finished", PMIX_STRING);
        pmix_status_t logged = PMIx_Log(&record, 1, NULL, 0);
        PMIX_INFO_DESTRUCT(&record);
        printf("rank 0: PMIx_Log to the job record: %s\n", PMIx_Error_string(logged));
    }
    PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS && good == size && late ? 0 : 1;
}
