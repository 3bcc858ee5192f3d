/*
 * pnet framework interface: network preconditioning ("instant on").
 *
 * A pnet component prepares jobs before their processes exist: a head node
 * asks every active component for what a job needs (tokens, envars, endpoint
 * tables) at setup_application; each compute node prepares its local fabric at
 * setup_local_support, adjusts each child's environment at setup_fork, and
 * cleans up as children, applications and namespaces end. All active pnet
 * components are called, in priority order.
 *
 * Methods added in a later minor version sit at the tail of the module table;
 * the core calls one only when the table's struct_size covers it, so a
 * component built against an older header keeps working unchanged.
 */
#ifndef PMIXPP_PNET_H
#define PMIXPP_PNET_H

#include <pmixpp/component.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_PNET_API_MAJOR 1
#define PMIXPP_PNET_API_MINOR 2

/* Completion callback for the asynchronous hooks. */
typedef void (*pmixpp_pnet_done_fn)(pmix_status_t status, void *cbdata);

typedef struct pmixpp_pnet_module {
    size_t struct_size; /* sizeof(pmixpp_pnet_module_t) as compiled */

    /* Head node: add what the job needs to `ilist` (a PMIx_Info_list_start()
     * handle): PMIX_SET_ENVAR / PMIX_UNSET_ENVAR entries and job-level info.
     * Return PMIX_OPERATION_SUCCEEDED when done synchronously, PMIX_SUCCESS when
     * `done` will be called later (e.g. after asking a remote token service),
     * or an error. */
    pmix_status_t (*setup_application)(const char *nspace, const pmix_info_t info[], size_t ninfo, void *ilist,
                                       pmixpp_pnet_done_fn done, void *cbdata);

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

    /* ---- 1.2 ------------------------------------------------------------- */

    /* PMIx_Fabric_register (from any client, tool or the host): describe a
     * fabric this component knows into `ilist` with the PMIX_FABRIC_* keys
     * of pmix_common.h (vendor, identifier, dimensions, devices, ...). The
     * directives may name the fabric wanted (PMIX_FABRIC_IDENTIFIER,
     * PMIX_FABRIC_PLANE); without them, describe the component's own.
     * PMIX_FABRIC_IDENTIFIER must be in the description: the core names the
     * registration by it, and passes it back to update/deregister. The core
     * adds PMIX_FABRIC_INDEX itself. Return PMIX_OPERATION_SUCCEEDED;
     * PMIX_ERR_NOT_FOUND when the component knows no such fabric (the core
     * asks the next component, then the host), or another error (named in
     * one line, then the next is asked). Progress thread; must not block. */
    pmix_status_t (*register_fabric)(const pmix_info_t directives[], size_t ndirs, void *ilist);

    /* PMIx_Fabric_update: the current description of the fabric
     * `identifier` that register_fabric described. Same rules. */
    pmix_status_t (*update_fabric)(const char *identifier, void *ilist);

    /* PMIx_Fabric_deregister, or its registrant went away: one registration
     * of `identifier` ended (each register_fabric that succeeded is matched
     * by exactly one call). */
    void (*deregister_fabric)(const char *identifier);
} pmixpp_pnet_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PNET_H */
