/* A rank that does what every rank does (init, a put of 1 KiB, commit, a
 * collecting fence, a get of the next rank's value, finalize), linked with
 * libpmix only, then says which of the libraries libpmix loads on demand,
 * and which gds components, it has mapped: "maps <library> yes|no <when>". With --cpuset it then parses a cpuset
 * string (hwloc's work) and with --compress compresses 64 KiB (zlib's),
 * printing "cpuset <status>" / "compress <ok|failed>" and the maps again. */
#include <pmix.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_maps(const char *when)
{
    static const char *const libraries[] = {"libhwloc.so", "libudev.so", "libz.so", "pmixpp_gds_hash.so",
                                            "pmixpp_gds_shmem.so"};
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; ++i) {
        FILE *maps = fopen("/proc/self/maps", "r");
        bool found = false;
        char line[4096];
        while (maps != NULL && !found && fgets(line, sizeof line, maps) != NULL) {
            found = strstr(line, libraries[i]) != NULL;
        }
        if (maps != NULL) fclose(maps);
        printf("maps %s %s %s\n", libraries[i], found ? "yes" : "no", when);
    }
}

static int exchange(const pmix_proc_t *me)
{
    char blob[1024];
    memset(blob, 'a' + (int)(me->rank % 26), sizeof blob - 1);
    blob[sizeof blob - 1] = '\0';
    pmix_value_t value;
    PMIX_VALUE_LOAD(&value, blob, PMIX_STRING);
    if (PMIx_Put(PMIX_GLOBAL, "lean.blob", &value) != PMIX_SUCCESS || PMIx_Commit() != PMIX_SUCCESS) return 1;
    PMIX_VALUE_DESTRUCT(&value);
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    if (rc != PMIX_SUCCESS) return 1;
    pmix_proc_t job = *me;
    job.rank = PMIX_RANK_WILDCARD;
    pmix_value_t *size = NULL;
    if (PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &size) != PMIX_SUCCESS) return 1;
    pmix_proc_t next = *me;
    next.rank = (me->rank + 1) % size->data.uint32;
    PMIX_VALUE_RELEASE(size);
    pmix_value_t *got = NULL;
    rc = PMIx_Get(&next, "lean.blob", NULL, 0, &got);
    const bool right =
        rc == PMIX_SUCCESS && got->type == PMIX_STRING && got->data.string[0] == 'a' + (int)(next.rank % 26);
    if (got != NULL) PMIX_VALUE_RELEASE(got);
    return right ? 0 : 1;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS) return 1;
    if (exchange(&me) != 0) {
        fprintf(stderr, "rank %u: the exchange failed\n", me.rank);
        return 1;
    }
    print_maps("after the exchange");
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--cpuset") == 0) {
            pmix_cpuset_t cpuset;
            memset(&cpuset, 0, sizeof cpuset);
            printf("cpuset %s\n", PMIx_Error_string(PMIx_Parse_cpuset_string("hwloc:0-1", &cpuset)));
            PMIx_Cpuset_destruct(&cpuset);
            print_maps("after the cpuset");
        } else if (strcmp(argv[i], "--compress") == 0) {
            static uint8_t input[65536];
            memset(input, 'z', sizeof input);
            uint8_t *packed = NULL;
            size_t packed_size = 0;
            const bool ok =
                PMIx_Data_compress(input, sizeof input, &packed, &packed_size) && packed_size < sizeof input;
            free(packed);
            printf("compress %s\n", ok ? "ok" : "failed");
            print_maps("after the compression");
        }
    }
    return PMIx_Finalize(NULL, 0) == PMIX_SUCCESS ? 0 : 1;
}
