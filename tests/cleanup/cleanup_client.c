/* A client of the cleanup integration tests (public pmix.h only). It
 * registers files and directories for cleanup with PMIx_Job_control_nb /
 * PMIx_Job_control and then ends the way the mode says:
 *   self <dir>     registers <dir>/self.file and <dir>/selfdir (recursive)
 *                  for itself, finalizes, exits 0
 *   killed <dir>   the same, then SIGKILLs itself (no finalize)
 *   job <dir>      registers <dir>/jobdir (recursive) for its namespace (no
 *                  target) and <dir>/self.<rank> for itself; rank 0 leaves at
 *                  once, the others wait for <dir>/release (bounded)
 *   foreign <dir>  registers <dir>/foreign, <dir>/own and <dir>/tree
 *   refused <dir>  expects PMIX_ERR_BAD_PARAM for a relative path and for
 *                  another rank as target; prints "forwarded: <status>" of
 *                  a directive that is not about cleanup (the host's answer)
 * It prints "rank R ok" when everything answered as expected. */
#include <pmix.h>

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct wait_status {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool done;
    pmix_status_t status;
};

static void job_control_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                             pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    struct wait_status *w = cbdata;
    (void)info;
    (void)ninfo;
    if (release_fn != NULL) release_fn(release_cbdata);
    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done = true;
    pthread_cond_broadcast(&w->changed);
    pthread_mutex_unlock(&w->lock);
}

/* PMIx_Job_control_nb, waited for (the RFC's own example does it this way). */
static pmix_status_t control_nb(const pmix_proc_t *target, pmix_info_t *info, size_t ninfo)
{
    struct wait_status w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_ERROR};
    pmix_status_t rc = PMIx_Job_control_nb(target, target != NULL ? 1 : 0, info, ninfo, job_control_done, &w);
    if (rc != PMIX_SUCCESS) return rc;
    pthread_mutex_lock(&w.lock);
    while (!w.done) pthread_cond_wait(&w.changed, &w.lock);
    pthread_mutex_unlock(&w.lock);
    return w.status;
}

static pmix_status_t register_paths(const pmix_proc_t *target, const char *key, const char *paths, bool recursive)
{
    pmix_info_t info[2];
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], key, paths, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_CLEANUP_RECURSIVE, &yes, PMIX_BOOL);
    pmix_status_t rc = control_nb(target, info, recursive ? 2 : 1);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

static bool expect(pmix_status_t rc, pmix_status_t wanted, const char *what)
{
    if (rc == wanted) return true;
    fprintf(stderr, "%s: %s, expected %s\n", what, PMIx_Error_string(rc), PMIx_Error_string(wanted));
    return false;
}

static bool register_self(const pmix_proc_t *me, const char *dir)
{
    char files[4096], dirs[4096];
    snprintf(files, sizeof files, "%s/self.file", dir);
    snprintf(dirs, sizeof dirs, "%s/selfdir", dir);
    return expect(register_paths(me, PMIX_REGISTER_CLEANUP, files, false), PMIX_SUCCESS, "register self.file") &&
           expect(register_paths(me, PMIX_REGISTER_CLEANUP_DIR, dirs, true), PMIX_SUCCESS, "register selfdir");
}

static bool wait_for_file(const char *path, int seconds)
{
    struct timespec tick = {0, 20 * 1000 * 1000};
    for (int i = 0; i < seconds * 50; ++i) {
        if (access(path, F_OK) == 0) return true;
        nanosleep(&tick, NULL);
    }
    return false;
}

static bool run_job(const pmix_proc_t *me, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/jobdir", dir);
    if (!expect(register_paths(NULL, PMIX_REGISTER_CLEANUP_DIR, path, true), PMIX_SUCCESS, "register jobdir")) {
        return false;
    }
    snprintf(path, sizeof path, "%s/self.%u", dir, me->rank);
    if (!expect(register_paths(me, PMIX_REGISTER_CLEANUP, path, false), PMIX_SUCCESS, "register self.<rank>")) {
        return false;
    }
    if (me->rank == 0) return true;
    snprintf(path, sizeof path, "%s/release", dir);
    return wait_for_file(path, 60);
}

static bool run_foreign(const pmix_proc_t *me, const char *dir)
{
    char files[4096], tree[4096];
    snprintf(files, sizeof files, "%s/foreign,%s/own", dir, dir);
    snprintf(tree, sizeof tree, "%s/tree", dir);
    return expect(register_paths(me, PMIX_REGISTER_CLEANUP, files, false), PMIX_SUCCESS, "register files") &&
           expect(register_paths(me, PMIX_REGISTER_CLEANUP_DIR, tree, true), PMIX_SUCCESS, "register tree");
}

static bool run_refused(const pmix_proc_t *me, const char *dir)
{
    char path[4096];
    pmix_proc_t other = *me;
    other.rank = me->rank + 1;
    snprintf(path, sizeof path, "%s/x", dir);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_REGISTER_CLEANUP, "relative/cleanup-path", PMIX_STRING);
    bool ok = expect(PMIx_Job_control(me, 1, &info, 1, NULL, NULL), PMIX_ERR_BAD_PARAM, "relative path");
    PMIX_INFO_DESTRUCT(&info);
    ok = ok && expect(register_paths(&other, PMIX_REGISTER_CLEANUP, path, false), PMIX_ERR_BAD_PARAM,
                      "another rank as target");
    ok = ok && expect(PMIx_Job_control(me, 1, NULL, 0, NULL, NULL), PMIX_ERR_BAD_PARAM, "no directives");
    /* Not a cleanup directive: the host's job_control decides. */
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_JOB_CTRL_PREEMPTIBLE, &yes, PMIX_BOOL);
    printf("forwarded: %s\n", PMIx_Error_string(PMIx_Job_control(me, 1, &info, 1, NULL, NULL)));
    PMIX_INFO_DESTRUCT(&info);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s self|killed|job|foreign|refused <dir>\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    bool ok = false;
    if (strcmp(mode, "self") == 0 || strcmp(mode, "killed") == 0) {
        ok = register_self(&me, dir);
        if (ok && strcmp(mode, "killed") == 0) raise(SIGKILL);
    } else if (strcmp(mode, "job") == 0) {
        ok = run_job(&me, dir);
    } else if (strcmp(mode, "foreign") == 0) {
        ok = run_foreign(&me, dir);
    } else if (strcmp(mode, "refused") == 0) {
        ok = run_refused(&me, dir);
    }
    rc = PMIx_Finalize(NULL, 0);
    if (ok && rc == PMIX_SUCCESS) printf("rank %u ok\n", me.rank);
    return ok && rc == PMIX_SUCCESS ? 0 : 1;
}
