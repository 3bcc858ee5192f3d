/*
 * pnet framework interface: network preconditioning ("instant on").
 *
 * A pnet component prepares jobs before their processes exist: a head node
 * asks every active component for what a job needs (tokens, envars, endpoint
 * tables) at setup_application; each compute node prepares its local fabric at
 * setup_local_support, adjusts each child's environment at setup_fork, and
 * cleans up as children, applications and namespaces end. All active pnet
 * components are called, in priority order.
 */
#ifndef PMIXPP_PNET_H
#define PMIXPP_PNET_H

#include <pmixpp/component.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_PNET_API_MAJOR 1
#define PMIXPP_PNET_API_MINOR 1

/* Completion callback for the asynchronous hooks. */
typedef void (*pmixpp_pnet_done_fn)(pmix_status_t status, void *cbdata);

typedef struct pmixpp_pnet_module {
    size_t struct_size; /* sizeof(pmixpp_pnet_module_t) as compiled */

    /* Head node: add what the job needs to `ilist` (a PMIx_Info_list_start()
     * handle): PMIX_SET_ENVAR / PMIX_UNSET_ENVAR entries and job-level info.
     * Return PMIX_OPERATION_SUCCEEDED when done synchronously, PMIX_SUCCESS when
     * `done` will be called later (e.g. after asking a remote token service),
     * or an error. */
    pmix_status_t (*setup_application)(const char *nspace, const pmix_info_t info[], size_t ninfo,
                                       void *ilist, pmixpp_pnet_done_fn done, void *cbdata);

    /* Compute node, before any local process of the job is forked. Same return
     * convention as setup_application. */
    pmix_status_t (*setup_local_support)(const char *nspace, const pmix_info_t info[], size_t ninfo,
                                         pmixpp_pnet_done_fn done, void *cbdata);

    /* Per child, just before fork/exec: edit the child's environment
     * (a NULL-terminated, malloc'ed argv-style array). Called on the host's
     * thread, not the progress thread, and possibly in the child the host
     * has just forked (Slurm does so), where no other thread runs: guard
     * shared state with a lock, and hold none across a call that may fork. */
    pmix_status_t (*setup_fork)(const pmix_proc_t *proc, char ***env);

    /* Cleanup, each called exactly once: a local child ended; the last local
     * child of an application ended; the namespace was deregistered. */
    void (*child_finalized)(const pmix_proc_t *proc);
    void (*local_app_finalized)(const char *nspace, uint32_t appnum);
    void (*deregister_nspace)(const char *nspace);

    /* ---- 1.1 ------------------------------------------------------------- */

    /* PMIx_server_collect_inventory: add what this node has that the
     * component knows of (NICs, fabric ports, ...) to `ilist`. Runs on the
     * server's progress thread and must not block. PMIX_OPERATION_SUCCEEDED
     * or an error (the core names the component and goes on). */
    pmix_status_t (*collect_inventory)(const pmix_info_t directives[], size_t ndirs, void *ilist);

    /* PMIx_server_deliver_inventory: an inventory gathered elsewhere (a
     * scheduler's view of many nodes) for the component to use. Same rules. */
    pmix_status_t (*deliver_inventory)(const pmix_info_t info[], size_t ninfo, const pmix_info_t directives[],
                                       size_t ndirs);
} pmixpp_pnet_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PNET_H */
