/* A compute loop for the binding figure (bench/binding.sh): each rank
 * sweeps its own array of KIB KiB (default 1024: about a core's share of
 * L2 and L3) ROUNDS times, with a PMIx_Fence after every round, as a
 * bulk-synchronous MPI code does. Rank 0 prints the seconds of the loop:
 *
 *   compute_loop [ROUNDS [KIB]]       -> "loop <seconds>"
 *
 * A rank that migrates between cores finds its array cold in the new
 * core's caches, and the fence waits for the slowest rank. */
#include <pmix.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 400;
    const size_t kib = argc > 2 ? (size_t)atol(argv[2]) : 1024;
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "compute_loop: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    const size_t n = kib * 1024 / sizeof(uint64_t);
    uint64_t *data = calloc(n, sizeof *data);
    if (data == NULL) return 1;
    uint64_t sum = 0;
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    const uint64_t start = bench_now_ns();
    for (int round = 0; round < rounds && rc == PMIX_SUCCESS; ++round) {
        for (int pass = 0; pass < 8; ++pass) {
            for (size_t i = 0; i < n; ++i) {
                data[i] = data[i] * 2862933555777941757ull + i;
                sum += data[i];
            }
        }
        rc = PMIx_Fence(NULL, 0, NULL, 0);
    }
    const double seconds = (double)(bench_now_ns() - start) / 1e9;
    if (rc != PMIX_SUCCESS) fprintf(stderr, "compute_loop %u: %s\n", me.rank, PMIx_Error_string(rc));
    if (me.rank == 0 && rc == PMIX_SUCCESS)
        printf("loop %.4f (checksum %llu)\n", seconds, (unsigned long long)(sum & 0xff));
    free(data);
    PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : 1;
}
