/* Small helpers shared by the benchmark host and client: a monotonic clock,
 * sample statistics, and one-line result records. Only libc; nothing here
 * depends on which PMIx library the programs are linked against. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a;
    uint64_t y = *(const uint64_t *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

/* Sorts the samples in place; quantile q in [0,1] by the nearest-rank rule. */
static inline double bench_quantile_us(uint64_t *samples, size_t n, double q)
{
    if (n == 0) return 0.0;
    size_t index = (size_t)(q * (double)(n - 1) + 0.5);
    return (double)samples[index] / 1000.0;
}

static inline void bench_sort(uint64_t *samples, size_t n)
{
    qsort(samples, n, sizeof samples[0], bench_cmp_u64);
}

/* One record per line, written with a single write() so that lines from
 * several processes sharing one pipe never interleave (each < PIPE_BUF). */
static inline void bench_record(const char *kind, const char *name, double value)
{
    char line[256];
    int len = snprintf(line, sizeof line, "%s %s %.4f\n", kind, name, value);
    if (len > 0 && (size_t)len < sizeof line) {
        ssize_t ignored = write(STDOUT_FILENO, line, (size_t)len);
        (void)ignored;
    }
}

static inline void bench_text(const char *kind, const char *name, const char *text)
{
    char line[512];
    int len = snprintf(line, sizeof line, "%s %s %s\n", kind, name, text);
    if (len > 0 && (size_t)len < sizeof line) {
        ssize_t ignored = write(STDOUT_FILENO, line, (size_t)len);
        (void)ignored;
    }
}

#endif
