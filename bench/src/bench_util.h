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

/* The path of the libpmix.so a process has mapped (from /proc/<pid>/maps),
 * or "none": proof of which library served a launcher or a rank. */
static inline void bench_libpmix_of(pid_t pid, char *path, size_t size)
{
    char maps[64];
    char line[4096];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    snprintf(path, size, "none");
    FILE *file = fopen(maps, "r");
    if (file == NULL) return;
    while (fgets(line, sizeof line, file) != NULL) {
        const char *slash = strchr(line, '/');
        if (slash == NULL || strstr(slash, "/libpmix.so") == NULL) continue;
        snprintf(path, size, "%s", slash);
        path[strcspn(path, "\n")] = '\0';
        break;
    }
    fclose(file);
}

/* Writes "<dir>/<name>.<rank>" holding `text`: each rank of a launched job
 * reports through a file, so the check does not depend on the launcher's
 * output forwarding. Returns 0 on success. */
static inline int bench_report_file(const char *dir, const char *name, int rank, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%d", dir, name, rank);
    FILE *file = fopen(path, "w");
    if (file == NULL) return -1;
    int rc = fputs(text, file) < 0 ? -1 : 0;
    if (fclose(file) != 0) rc = -1;
    return rc;
}

#endif
