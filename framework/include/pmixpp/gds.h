/*
 * gds framework interface: the generalized data store that holds job, node,
 * process and modex data for a peer (hash tables, shared-memory segments).
 * Several components may be active; each peer is served by the first in the
 * ordered list that supports it.
 *
 * Data model. Every value lives in a store (a handle made by store_create:
 * a server and a client in one process keep separate stores) and is addressed
 * by (nspace, level, id, key):
 *
 *   level                     id
 *   PMIXPP_GDS_LEVEL_SESSION  session id (PMIX_SESSION_ID)
 *   PMIXPP_GDS_LEVEL_JOB      ignored (use PMIX_RANK_WILDCARD)
 *   PMIXPP_GDS_LEVEL_APP      application number (PMIX_APPNUM)
 *   PMIXPP_GDS_LEVEL_NODE     node id (PMIX_NODEID)
 *   PMIXPP_GDS_LEVEL_PROC     rank
 *
 * Session data is kept per namespace too (the copy that namespace was
 * registered with), so removing a namespace removes everything it brought and
 * a namespace's export is self-contained.
 *
 * Modex data (what processes PMIx_Put and PMIx_Commit) is kept apart from
 * registered data: it is addressed by (nspace, rank, key) and carries the
 * scope it was put with.
 *
 * Threads: every operation may be called from any thread; fetches may run
 * concurrently with stores and with each other. A fetch returns copies the
 * caller owns, never pointers into the store.
 *
 * Memory: values and info arrays handed out come from libc malloc (release a
 * value with PMIx_Value_destruct + free, i.e. PMIX_VALUE_RELEASE, an info
 * array with PMIX_INFO_FREE). Stores copy what they are given.
 *
 * Versioning: the core calls an operation only when the module's struct_size
 * shows the table contains it. Operations are appended, never inserted.
 */
#ifndef PMIXPP_GDS_H
#define PMIXPP_GDS_H

#include <pmixpp/component.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_GDS_API_MAJOR 1
#define PMIXPP_GDS_API_MINOR 2

/* Which part of a namespace's registered data an address names. */
typedef enum {
    PMIXPP_GDS_LEVEL_PROC = 0,
    PMIXPP_GDS_LEVEL_JOB = 1,
    PMIXPP_GDS_LEVEL_APP = 2,
    PMIXPP_GDS_LEVEL_NODE = 3,
    PMIXPP_GDS_LEVEL_SESSION = 4
} pmixpp_gds_level_t;

#define PMIXPP_GDS_NUM_LEVELS 5

/* Where a registered value lives. */
typedef struct pmixpp_gds_address {
    const char *nspace; /* NUL-terminated, at most PMIX_MAX_NSLEN characters */
    pmixpp_gds_level_t level;
    uint32_t id; /* see the table above; ignored at job level */
} pmixpp_gds_address_t;

/* One proc's modex data as its local peers may see it (share_modex). */
typedef struct pmixpp_gds_proc_data {
    pmix_rank_t rank;
    const pmix_info_t *info;
    size_t ninfo;
} pmixpp_gds_proc_data_t;

/* A store instance, opaque to the core. */
typedef struct pmixpp_gds_store pmixpp_gds_store_t;

typedef struct pmixpp_gds_module {
    size_t struct_size; /* sizeof(pmixpp_gds_module_t) as compiled */
    const char *name;   /* module name as shown in traces, usually the component name */

    /* ---- store lifetime ------------------------------------------------ */

    /* A new, empty store. `info` carries hints (PMIXPP_GDS_HINT_* below;
     * unknown keys are ignored). */
    pmix_status_t (*store_create)(const pmix_info_t info[], size_t ninfo, pmixpp_gds_store_t **store_p);

    /* Releases the store and everything in it. NULL is accepted. */
    void (*store_destroy)(pmixpp_gds_store_t *store);

    /* ---- registered (job) data ------------------------------------------ */

    /* Stores copies of info[0..ninfo) at addr, replacing values stored
     * earlier under the same keys. The namespace is created on first use.
     * A node-level PMIX_HOSTNAME (string) also enters the hostname index of
     * the namespace, as does every comma-separated name of a node-level
     * PMIX_HOSTNAME_ALIASES. PMIX_ERR_BAD_PARAM for a NULL store/addr, an
     * empty or overlong nspace or key, or an unknown level. */
    pmix_status_t (*store)(pmixpp_gds_store_t *store, const pmixpp_gds_address_t *addr, const pmix_info_t info[],
                           size_t ninfo);

    /* One value: a malloc'ed deep copy in *value_p. PMIX_ERR_NOT_FOUND when
     * the namespace, the (level, id) or the key is not stored. */
    pmix_status_t (*fetch)(pmixpp_gds_store_t *store, const pmixpp_gds_address_t *addr, const char *key,
                           pmix_value_t **value_p);

    /* Every key stored at addr as a malloc'ed info array of *ninfo_p > 0
     * entries; an address without keys is PMIX_ERR_NOT_FOUND. */
    pmix_status_t (*fetch_all)(pmixpp_gds_store_t *store, const pmixpp_gds_address_t *addr, pmix_info_t **info_p,
                               size_t *ninfo_p);

    /* Node id of `hostname` (a PMIX_HOSTNAME or an alias) in nspace.
     * PMIX_ERR_NOT_FOUND when unknown. */
    pmix_status_t (*lookup_node)(pmixpp_gds_store_t *store, const char *nspace, const char *hostname,
                                 uint32_t *nodeid_p);

    /* 1 if the store holds anything (registered or modex data) for nspace. */
    int (*has_nspace)(pmixpp_gds_store_t *store, const char *nspace);

    /* ---- modex data ------------------------------------------------------ */

    /* Stores copies of info[0..ninfo) as data put by (nspace, rank) with
     * `scope` (PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL or PMIX_INTERNAL). A key
     * put again replaces the earlier value and scope. */
    pmix_status_t (*store_modex)(pmixpp_gds_store_t *store, const char *nspace, pmix_rank_t rank, pmix_scope_t scope,
                                 const pmix_info_t info[], size_t ninfo);

    /* One modex value visible to a requester in `visible_to`:
     *   PMIX_LOCAL  -> keys put with PMIX_LOCAL, PMIX_GLOBAL or PMIX_INTERNAL
     *   PMIX_REMOTE -> keys put with PMIX_REMOTE or PMIX_GLOBAL
     *   PMIX_GLOBAL or PMIX_SCOPE_UNDEF -> every key
     * PMIX_ERR_NOT_FOUND when nothing visible matches. */
    pmix_status_t (*fetch_modex)(pmixpp_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                                 pmix_scope_t visible_to, const char *key, pmix_value_t **value_p);

    /* Every modex key of (nspace, rank) visible to `visible_to`, as above. */
    pmix_status_t (*fetch_modex_all)(pmixpp_gds_store_t *store, const char *nspace, pmix_rank_t rank,
                                     pmix_scope_t visible_to, pmix_info_t **info_p, size_t *ninfo_p);

    /* ---- namespaces ------------------------------------------------------ */

    /* Forgets everything about nspace (registered and modex data).
     * PMIX_ERR_NOT_FOUND when the namespace is unknown. */
    pmix_status_t (*remove_nspace)(pmixpp_gds_store_t *store, const char *nspace);

    /* Server: an opaque object carrying nspace's registered data (not its
     * modex data) to a local client, where import_nspace of the same
     * component rebuilds it. bytes are malloc'ed (release with
     * PMIx_Byte_object_destruct or free(bytes)). PMIX_ERR_NOT_FOUND when the
     * namespace is unknown. */
    pmix_status_t (*export_nspace)(pmixpp_gds_store_t *store, const char *nspace, pmix_byte_object_t *blob_p);

    /* Client: adds the data of an export_nspace object to the store, which
     * must be for `nspace`. PMIX_ERR_UNPACK_FAILURE (or another error) for a
     * malformed object; the store is then unchanged. */
    pmix_status_t (*import_nspace)(pmixpp_gds_store_t *store, const char *nspace, const pmix_byte_object_t *blob);

    /* ---- 1.1 ------------------------------------------------------------- */

    /* Server: like export_nspace, but the object carries the data itself even
     * when export_nspace only names where the data lives (a shared-memory
     * segment). A client whose import of the export_nspace object failed
     * (e.g. it cannot map the segment) imports this one instead with
     * import_nspace. NULL when export_nspace already carries the data. */
    pmix_status_t (*export_nspace_inline)(pmixpp_gds_store_t *store, const char *nspace, pmix_byte_object_t *blob_p);

    /* ---- 1.2 ------------------------------------------------------------- */

    /* Server: the result of a data-collecting fence, published once for
     * every local client instead of sent to each: procs[0..nprocs) of nspace
     * with their data as a local peer may see it. It is kept apart from the
     * store's own modex data, merged with what earlier calls shared (a key
     * shared again replaces the earlier value), and *blob_p (malloc'ed, as
     * for export_nspace) names where clients find it. NULL, or an error
     * status: the core sends the data itself. */
    pmix_status_t (*share_modex)(pmixpp_gds_store_t *store, const char *nspace, const pmixpp_gds_proc_data_t procs[],
                                 size_t nprocs, pmix_byte_object_t *blob_p);

    /* Client: makes the data named by a share_modex object readable through
     * fetch_modex and fetch_modex_all, as data put with PMIX_GLOBAL scope
     * (values this store holds itself come first). The store's own modex
     * data of nspace's other ranks is dropped (the shared data is newer);
     * that of rank `keep` (the client's own puts; PMIX_RANK_UNDEF for none)
     * stays. PMIX_ERR_NOT_AVAILABLE when the data cannot be reached from
     * here; the store is then unchanged. */
    pmix_status_t (*import_modex)(pmixpp_gds_store_t *store, const char *nspace, const pmix_byte_object_t *blob,
                                  pmix_rank_t keep);
} pmixpp_gds_module_t;

/* store_create hints (pmix_info_t keys). */

/* PMIX_STRING: a directory where the store may create files (shared-memory
 * segments) for namespaces that carry no PMIX_NSDIR of their own; a server
 * passes its session directory (PMIX_TMPDIR). */
#define PMIXPP_GDS_HINT_DIR "pmixpp.gds.dir"

/* PMIX_USERID / PMIX_GRPID (PMIX_UINT32): the user (and group) whose jobs a
 * server runs when it is not theirs (Slurm's slurmstepd runs as root for a
 * user's job). Files the store shares with clients are given to them. */

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_GDS_H */
