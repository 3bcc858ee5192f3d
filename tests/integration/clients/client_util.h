/*
 * Helpers for the integration-test client programs (C, public pmix.h only).
 * A client checks many things and reports every failure on its own line,
 * then ends with "rank R ok" (exit 0) or "rank R FAIL" (exit 1); the tests
 * read both. Output is line buffered so a killed client still shows how far
 * it got.
 */
#ifndef PMIXPP_TESTS_INTEGRATION_CLIENT_UTIL_H
#define PMIXPP_TESTS_INTEGRATION_CLIENT_UTIL_H

#include <pmix.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t itc_me;
static int itc_failures;

/* Every blocking PMIx call of a client is bounded by this, and the whole
 * client by an alarm, so a hang shows up as a failure with a reason. */
#define ITC_TIMEOUT_S 20
#define ITC_ALARM_S 100

static inline void itc_start(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    setvbuf(stderr, NULL, _IONBF, 0);
    alarm(ITC_ALARM_S);
    PMIX_LOAD_PROCID(&itc_me, "?", PMIX_RANK_UNDEF);
}

static inline void itc_fail_at(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void itc_fail_at(int line, const char *fmt, ...)
{
    va_list args;
    char text[1024];
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    printf("rank %u FAIL (line %d): %s\n", itc_me.rank, line, text);
    ++itc_failures;
}

#define ITC_CHECK(cond, ...)                                                                                           \
    do {                                                                                                               \
        if (!(cond)) itc_fail_at(__LINE__, __VA_ARGS__);                                                               \
    } while (0)

static inline const char *itc_err(pmix_status_t rc)
{
    const char *text = PMIx_Error_string(rc);
    return text != NULL ? text : "?";
}

static inline void itc_step(const char *what)
{
    printf("rank %u step: %s\n", itc_me.rank, what);
}

/* The exit code of the client. */
static inline int itc_finish(void)
{
    if (itc_failures == 0) printf("rank %u ok\n", itc_me.rank);
    else printf("rank %u FAIL (%d failed checks)\n", itc_me.rank, itc_failures);
    return itc_failures == 0 ? 0 : 1;
}

/* "--name value" from argv, or NULL. */
static inline const char *itc_arg(int argc, char **argv, const char *name)
{
    for (int i = 1; i + 1 < argc; ++i) {
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    }
    return NULL;
}

static inline long itc_arg_long(int argc, char **argv, const char *name, long fallback)
{
    const char *text = itc_arg(argc, argv, name);
    return text != NULL ? strtol(text, NULL, 10) : fallback;
}

static inline int itc_has_flag(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], name) == 0) return 1;
    }
    return 0;
}

static inline void itc_sleep_ms(long ms)
{
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* PMIx_Get with a timeout (and PMIX_OPTIONAL when asked). */
static inline pmix_status_t itc_get(const pmix_proc_t *proc, const char *key, int optional, pmix_value_t **value_p)
{
    pmix_info_t info[2];
    int timeout = ITC_TIMEOUT_S;
    bool yes = true;
    size_t ninfo = 1;
    PMIX_INFO_CONSTRUCT(&info[0]);
    PMIX_INFO_CONSTRUCT(&info[1]);
    PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &timeout, PMIX_INT);
    if (optional) {
        PMIX_INFO_LOAD(&info[1], PMIX_OPTIONAL, &yes, PMIX_BOOL);
        ninfo = 2;
    }
    *value_p = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, info, ninfo, value_p);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

/* Gets key of proc and checks its type; returns the value (caller releases) or NULL. */
static inline pmix_value_t *itc_get_typed(int line, const pmix_proc_t *proc, const char *key, pmix_data_type_t type)
{
    pmix_value_t *value = NULL;
    pmix_status_t rc = itc_get(proc, key, 0, &value);
    if (rc != PMIX_SUCCESS || value == NULL) {
        itc_fail_at(line, "get %s of %s:%u: %s", key, proc->nspace, proc->rank, itc_err(rc));
        return NULL;
    }
    if (value->type != type) {
        itc_fail_at(line, "get %s of %s:%u: type %s, expected %s", key, proc->nspace, proc->rank,
                    PMIx_Data_type_string(value->type), PMIx_Data_type_string(type));
        PMIX_VALUE_RELEASE(value);
        return NULL;
    }
    return value;
}

static inline void itc_expect_u32_at(int line, const pmix_proc_t *proc, const char *key, uint32_t expected)
{
    pmix_value_t *value = itc_get_typed(line, proc, key, PMIX_UINT32);
    if (value == NULL) return;
    if (value->data.uint32 != expected) {
        itc_fail_at(line, "%s of %s:%u is %u, expected %u", key, proc->nspace, proc->rank, value->data.uint32,
                    expected);
    }
    PMIX_VALUE_RELEASE(value);
}

static inline void itc_expect_u16_at(int line, const pmix_proc_t *proc, const char *key, uint16_t expected)
{
    pmix_value_t *value = itc_get_typed(line, proc, key, PMIX_UINT16);
    if (value == NULL) return;
    if (value->data.uint16 != expected) {
        itc_fail_at(line, "%s of %s:%u is %u, expected %u", key, proc->nspace, proc->rank, (unsigned)value->data.uint16,
                    (unsigned)expected);
    }
    PMIX_VALUE_RELEASE(value);
}

static inline void itc_expect_string_at(int line, const pmix_proc_t *proc, const char *key, const char *expected)
{
    pmix_value_t *value = itc_get_typed(line, proc, key, PMIX_STRING);
    if (value == NULL) return;
    if (value->data.string == NULL || strcmp(value->data.string, expected) != 0) {
        itc_fail_at(line, "%s of %s:%u is \"%s\", expected \"%s\"", key, proc->nspace, proc->rank,
                    value->data.string != NULL ? value->data.string : "(null)", expected);
    }
    PMIX_VALUE_RELEASE(value);
}

/* PMIx_Init into itc_me; false (after a FAIL line) when it failed. */
static inline bool itc_init(void)
{
    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) printf("rank ? FAIL: PMIx_Init: %s\n", itc_err(rc));
    return rc == PMIX_SUCCESS;
}

/* PMIX_JOB_SIZE of this job (1, after a failed check, when it cannot be read). */
static inline uint32_t itc_job_size(void)
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, itc_me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *value = itc_get_typed(__LINE__, &job, PMIX_JOB_SIZE, PMIX_UINT32);
    const uint32_t size = value != NULL ? value->data.uint32 : 1;
    if (value != NULL) PMIX_VALUE_RELEASE(value);
    return size;
}

#define ITC_EXPECT_U32(proc, key, expected) itc_expect_u32_at(__LINE__, proc, key, expected)
#define ITC_EXPECT_U16(proc, key, expected) itc_expect_u16_at(__LINE__, proc, key, expected)
#define ITC_EXPECT_STRING(proc, key, expected) itc_expect_string_at(__LINE__, proc, key, expected)

/* Ranks first..first+count-1 as "a,b,c" (the PMIX_LOCAL_PEERS format). */
static inline void itc_rank_list(uint32_t first, uint32_t count, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (uint32_t r = first; r < first + count && used < size; ++r) {
        used += (size_t)snprintf(out + used, size - used, r == first ? "%u" : ",%u", r);
    }
}

/* Bytes that differ per rank, with a NUL inside so nobody treats them as a string. */
static inline void itc_pattern(uint32_t rank, uint8_t *bytes, size_t size)
{
    for (size_t i = 0; i < size; ++i) bytes[i] = (uint8_t)((rank * 131u + i * 7u) & 0xffu);
    if (size > 1) bytes[1] = 0;
}

/* Signals the host that this rank is ready, then waits (bounded) for its release. */
static inline void itc_hold(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/ready.%u", dir, itc_me.rank);
    FILE *ready = fopen(path, "w");
    if (ready != NULL) fclose(ready);
    snprintf(path, sizeof(path), "%s/release", dir);
    for (int waited = 0; access(path, F_OK) != 0; waited += 10) {
        if (waited > 60000) {
            itc_fail_at(__LINE__, "never released through %s", path);
            return;
        }
        itc_sleep_ms(10);
    }
}

#endif
