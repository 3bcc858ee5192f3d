/*
 * examples.h -- pmixpp's stand-in for the helper header that OpenPMIx's example
 * programs include but Debian does not install.
 *
 * Written for pmixpp from what the examples use: a blocking "lock" (a mutex, a
 * condition variable and a flag that a callback clears), two small structs that
 * wrap a lock with a callback's results, and a way to mark unused parameters.
 * Only the public PMIx headers are needed.
 */
#ifndef PMIXPP_TESTS_EXAMPLES_SHIM_H
#define PMIXPP_TESTS_EXAMPLES_SHIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include <pmix_common.h>

/* A one-shot rendezvous between the main thread and a PMIx callback: the main
 * thread waits while `active` is true, the callback stores its results and
 * clears it. */
typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    volatile bool active;
    pmix_status_t status;
    size_t evhandler_ref;
} mylock_t;

#define DEBUG_CONSTRUCT_LOCK(l)                                                                                        \
    do {                                                                                                               \
        pthread_mutex_init(&(l)->mutex, NULL);                                                                         \
        pthread_cond_init(&(l)->cond, NULL);                                                                           \
        (l)->active = true;                                                                                            \
        (l)->status = PMIX_SUCCESS;                                                                                    \
        (l)->evhandler_ref = 0;                                                                                        \
    } while (0)

#define DEBUG_DESTRUCT_LOCK(l)                                                                                         \
    do {                                                                                                               \
        pthread_cond_destroy(&(l)->cond);                                                                              \
        pthread_mutex_destroy(&(l)->mutex);                                                                            \
    } while (0)

/* The loop guards against spurious wake-ups of pthread_cond_wait. */
#define DEBUG_WAIT_THREAD(l)                                                                                           \
    do {                                                                                                               \
        pthread_mutex_lock(&(l)->mutex);                                                                               \
        while ((l)->active) {                                                                                          \
            pthread_cond_wait(&(l)->cond, &(l)->mutex);                                                                \
        }                                                                                                              \
        pthread_mutex_unlock(&(l)->mutex);                                                                             \
    } while (0)

#define DEBUG_WAKEUP_THREAD(l)                                                                                         \
    do {                                                                                                               \
        pthread_mutex_lock(&(l)->mutex);                                                                               \
        (l)->active = false;                                                                                           \
        pthread_cond_broadcast(&(l)->cond);                                                                            \
        pthread_mutex_unlock(&(l)->mutex);                                                                             \
    } while (0)

/* Results of a query or allocation callback; the status travels in the lock.
 * The info array belongs to the struct and is released by
 * DEBUG_DESTRUCT_MYQUERY. `active` serves programs that poll instead of
 * waiting on the lock. */
typedef struct {
    mylock_t lock;
    volatile bool active;
    pmix_info_t *info;
    size_t ninfo;
} myquery_data_t;

#define DEBUG_CONSTRUCT_MYQUERY(q)                                                                                     \
    do {                                                                                                               \
        DEBUG_CONSTRUCT_LOCK(&(q)->lock);                                                                              \
        (q)->active = true;                                                                                            \
        (q)->info = NULL;                                                                                              \
        (q)->ninfo = 0;                                                                                                \
    } while (0)

#define DEBUG_DESTRUCT_MYQUERY(q)                                                                                      \
    do {                                                                                                               \
        DEBUG_DESTRUCT_LOCK(&(q)->lock);                                                                               \
        if (NULL != (q)->info) {                                                                                       \
            PMIX_INFO_FREE((q)->info, (q)->ninfo);                                                                     \
        }                                                                                                              \
        (q)->info = NULL;                                                                                              \
        (q)->ninfo = 0;                                                                                                \
    } while (0)

/* What a "release" or "job terminated" event handler hands back to main. */
typedef struct {
    mylock_t lock;
    char *nspace;
    int exit_code;
    bool exit_code_given;
} myrel_t;

#define DEBUG_CONSTRUCT_MYREL(r)                                                                                       \
    do {                                                                                                               \
        DEBUG_CONSTRUCT_LOCK(&(r)->lock);                                                                              \
        (r)->nspace = NULL;                                                                                            \
        (r)->exit_code = 0;                                                                                            \
        (r)->exit_code_given = false;                                                                                  \
    } while (0)

#define DEBUG_DESTRUCT_MYREL(r)                                                                                        \
    do {                                                                                                               \
        DEBUG_DESTRUCT_LOCK(&(r)->lock);                                                                               \
        free((r)->nspace);                                                                                             \
        (r)->nspace = NULL;                                                                                            \
    } while (0)

/* Takes any number of arguments and does nothing with them, which is enough
 * to keep -Wunused-parameter quiet for every one of them. */
static inline void examples_ignore_arguments(int unused, ...)
{
    (void)unused;
}
#define EXAMPLES_HIDE_UNUSED_PARAMS(...) examples_ignore_arguments(0, __VA_ARGS__)

#endif /* PMIXPP_TESTS_EXAMPLES_SHIM_H */
