/* A plain PMIx client as a Slurm user writes one, built against Debian's
 * OpenPMIx headers and run by `srun --mpi=pmix_v4`: whatever libpmix.so.2 the
 * node has at /usr/lib/x86_64-linux-gnu/pmix2/lib serves it.
 *
 * Each rank checks what the server tells it against what Slurm told the task
 * (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURMD_NODENAME, tasks per
 * node), puts a 64-byte pattern made from its rank, commits, joins a fence
 * (collecting the data, or not with --no-collect, so every get of a rank on
 * another node is a direct modex through Slurm) and reads every peer's pattern
 * back, byte for byte. One line per check; "FAILED:" marks a failed one; exit
 * 0 only when all passed. */
#include <pmix.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm_proof.h"

#define BLOB_KEY "compat.slurm.blob"
enum { BLOB_BYTES = 64, TIMEOUT_SECONDS = 10 };

static int failures;

#define CHECK(ok, ...)                                                                                                 \
    do {                                                                                                               \
        if (!(ok)) {                                                                                                   \
            printf("FAILED: " __VA_ARGS__);                                                                            \
            printf("\n");                                                                                              \
            ++failures;                                                                                                \
        }                                                                                                              \
    } while (0)

static void pattern_of(uint32_t rank, unsigned char *blob)
{
    int head = snprintf((char *)blob, BLOB_BYTES, "pmixpp slurm rank %u:", rank);
    for (int i = head; i < BLOB_BYTES; ++i) blob[i] = (unsigned char)((rank * 131u + (unsigned)i * 7u + 1u) & 0xffu);
}

static long env_long(const char *name)
{
    const char *value = getenv(name);
    return value != NULL ? strtol(value, NULL, 10) : -1;
}

/* Tasks on node `node` from SLURM_STEP_TASKS_PER_NODE, e.g. "2(x3)" or "4,1,1". */
static long tasks_on_node(long node)
{
    const char *spec = getenv("SLURM_STEP_TASKS_PER_NODE");
    if (spec == NULL || node < 0) return -1;
    long index = 0;
    while (*spec != '\0') {
        char *end = NULL;
        long count = strtol(spec, &end, 10);
        long repeat = 1;
        if (strncmp(end, "(x", 2) == 0) {
            repeat = strtol(end + 2, &end, 10);
            if (*end == ')') ++end;
        }
        if (node < index + repeat) return count;
        index += repeat;
        spec = *end == ',' ? end + 1 : end;
        if (end == spec && *end != '\0' && *end != ',') break;
    }
    return -1;
}

/* A job- or proc-level value; NULL (and a FAILED line) when the get fails. */
static pmix_value_t *get(const pmix_proc_t *proc, const char *key, bool required)
{
    pmix_info_t info;
    int seconds = TIMEOUT_SECONDS;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &seconds, PMIX_INT);
    pmix_value_t *value = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, &info, 1, &value);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        if (required) CHECK(false, "get %s of %s.%u: %s", key, proc->nspace, proc->rank, PMIx_Error_string(rc));
        return NULL;
    }
    return value;
}

static long as_long(const pmix_value_t *value)
{
    if (value == NULL) return -1;
    switch (value->type) {
    case PMIX_UINT32: return (long)value->data.uint32;
    case PMIX_UINT16: return (long)value->data.uint16;
    case PMIX_INT: return (long)value->data.integer;
    case PMIX_PROC_RANK: return (long)value->data.rank;
    default: return -2;
    }
}

static void check_job_info(const pmix_proc_t *me, uint32_t *size_p)
{
    pmix_proc_t wildcard;
    PMIX_LOAD_PROCID(&wildcard, me->nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *size = get(&wildcard, PMIX_JOB_SIZE, true);
    pmix_value_t *local_size = get(&wildcard, PMIX_LOCAL_SIZE, true);
    pmix_value_t *local_rank = get(me, PMIX_LOCAL_RANK, true);
    pmix_value_t *peers = get(&wildcard, PMIX_LOCAL_PEERS, true);
    pmix_value_t *hostname = get(me, PMIX_HOSTNAME, false);
    const char *peer_list = peers != NULL && peers->type == PMIX_STRING ? peers->data.string : "?";
    const char *host = hostname != NULL && hostname->type == PMIX_STRING ? hostname->data.string : "?";
    printf("client %u: nspace %s job size %ld local size %ld local rank %ld local peers %s pmix hostname %s\n",
           me->rank, me->nspace, as_long(size), as_long(local_size), as_long(local_rank), peer_list, host);

    const long slurm_node = env_long("SLURM_NODEID");
    CHECK((long)me->rank == env_long("SLURM_PROCID"), "client %u: SLURM_PROCID is %ld", me->rank,
          env_long("SLURM_PROCID"));
    CHECK(as_long(size) == env_long("SLURM_NTASKS"), "client %u: job size %ld, SLURM_NTASKS %ld", me->rank,
          as_long(size), env_long("SLURM_NTASKS"));
    CHECK(as_long(local_size) == tasks_on_node(slurm_node),
          "client %u: local size %ld, Slurm put %ld tasks on this node", me->rank, as_long(local_size),
          tasks_on_node(slurm_node));
    CHECK(as_long(local_rank) == env_long("SLURM_LOCALID"), "client %u: local rank %ld, SLURM_LOCALID %ld", me->rank,
          as_long(local_rank), env_long("SLURM_LOCALID"));
    char mine[16];
    snprintf(mine, sizeof mine, "%u", me->rank);
    bool listed = false;
    for (const char *p = peer_list; *p != '\0'; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        if (strncmp(p, mine, strlen(mine)) == 0 && (p[strlen(mine)] == ',' || p[strlen(mine)] == '\0')) listed = true;
    }
    CHECK(listed, "client %u: not in its own local peers '%s'", me->rank, peer_list);
    const char *nodename = getenv("SLURMD_NODENAME");
    if (hostname != NULL && nodename != NULL) {
        CHECK(strcmp(host, nodename) == 0, "client %u: PMIX_HOSTNAME %s, SLURMD_NODENAME %s", me->rank, host, nodename);
    }
    *size_p = size != NULL ? (uint32_t)as_long(size) : 0;
    if (size) PMIX_VALUE_RELEASE(size);
    if (local_size) PMIX_VALUE_RELEASE(local_size);
    if (local_rank) PMIX_VALUE_RELEASE(local_rank);
    if (peers) PMIX_VALUE_RELEASE(peers);
    if (hostname) PMIX_VALUE_RELEASE(hostname);
}

static void put_commit_fence(const pmix_proc_t *me, bool collect)
{
    unsigned char blob[BLOB_BYTES];
    pattern_of(me->rank, blob);
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = (char *)blob;
    value.data.bo.size = BLOB_BYTES;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, BLOB_KEY, &value);
    CHECK(rc == PMIX_SUCCESS, "client %u: put: %s", me->rank, PMIx_Error_string(rc));
    rc = PMIx_Commit();
    CHECK(rc == PMIX_SUCCESS, "client %u: commit: %s", me->rank, PMIx_Error_string(rc));

    pmix_proc_t wildcard;
    PMIX_LOAD_PROCID(&wildcard, me->nspace, PMIX_RANK_WILDCARD);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(&wildcard, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    CHECK(rc == PMIX_SUCCESS, "client %u: fence (collect %s): %s", me->rank, collect ? "yes" : "no",
          PMIx_Error_string(rc));
    if (rc == PMIX_SUCCESS) printf("client %u: fence (collect %s) done\n", me->rank, collect ? "yes" : "no");
}

static void read_every_peer(const pmix_proc_t *me, uint32_t size)
{
    int good = 0;
    for (uint32_t peer = 0; peer < size; ++peer) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, me->nspace, peer);
        pmix_value_t *host = get(&proc, PMIX_HOSTNAME, false);
        const char *where = host != NULL && host->type == PMIX_STRING ? host->data.string : "?";
        pmix_value_t *value = get(&proc, BLOB_KEY, true);
        unsigned char expected[BLOB_BYTES];
        pattern_of(peer, expected);
        if (value == NULL) {
            CHECK(false, "client %u: no value from rank %u (on %s)", me->rank, peer, where);
        } else if (value->type != PMIX_BYTE_OBJECT || value->data.bo.size != BLOB_BYTES) {
            CHECK(false, "client %u: value from rank %u is type %d size %zu, expected %d bytes", me->rank, peer,
                  (int)value->type, value->type == PMIX_BYTE_OBJECT ? value->data.bo.size : 0, BLOB_BYTES);
        } else if (memcmp(value->data.bo.bytes, expected, BLOB_BYTES) != 0) {
            size_t first = 0;
            while (first < BLOB_BYTES && (unsigned char)value->data.bo.bytes[first] == expected[first]) ++first;
            CHECK(false, "client %u: the %d bytes from rank %u differ from byte %zu on", me->rank, BLOB_BYTES, peer,
                  first);
        } else {
            printf("client %u: %d bytes from rank %u on %s match\n", me->rank, BLOB_BYTES, peer, where);
            ++good;
        }
        if (value) PMIX_VALUE_RELEASE(value);
        if (host) PMIX_VALUE_RELEASE(host);
    }
    CHECK(good == (int)size, "client %u: %d of %u peers' values matched", me->rank, good, size);
}

int main(int argc, char **argv)
{
    bool collect = !(argc > 1 && strcmp(argv[1], "--no-collect") == 0);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* libpmix is mapped from the start (linked): the proof comes first, so it
     * is there even when PMIx_Init fails. */
    slurm_proof_report("client", (int)env_long("SLURM_PROCID"));
    /* What PMIx_server_setup_fork gave this task (Slurm calls it in the
     * forked child, before exec). */
    printf("client env %ld: PMIX_NAMESPACE=%s PMIX_RANK=%s PMIX_SERVER_URI41=%s\n", env_long("SLURM_PROCID"),
           getenv("PMIX_NAMESPACE") ? getenv("PMIX_NAMESPACE") : "unset",
           getenv("PMIX_RANK") ? getenv("PMIX_RANK") : "unset", getenv("PMIX_SERVER_URI41") ? "set" : "unset");
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAILED: client: PMIx_Init: %s (PMIX_NAMESPACE=%s)\n", PMIx_Error_string(rc),
               getenv("PMIX_NAMESPACE") ? getenv("PMIX_NAMESPACE") : "unset");
        return 2;
    }
    slurm_proof_plugins("client", (int)me.rank);
    uint32_t size = 0;
    check_job_info(&me, &size);
    put_commit_fence(&me, collect);
    read_every_peer(&me, size);
    rc = PMIx_Finalize(NULL, 0);
    CHECK(rc == PMIX_SUCCESS, "client %u: finalize: %s", me.rank, PMIx_Error_string(rc));
    if (failures == 0) printf("client %u: all checks passed\n", me.rank);
    return failures == 0 ? 0 : 1;
}
