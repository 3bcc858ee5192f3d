/*
 * gds framework interface: the generalized data store that holds job, node,
 * process and modex data for a peer (hash tables, shared-memory segments).
 * Several components may be active; each peer is served by the first in the
 * ordered list that supports it.
 *
 * Version 1.0 is the minimal table: the operations are appended (never
 * inserted) as the framework is designed, and the core calls an operation
 * only when a component's struct_size shows the table contains it.
 */
#ifndef PMIXPP_GDS_H
#define PMIXPP_GDS_H

#include <pmixpp/component.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_GDS_API_MAJOR 1
#define PMIXPP_GDS_API_MINOR 0

typedef struct pmixpp_gds_module {
    size_t struct_size; /* sizeof(pmixpp_gds_module_t) as compiled */
    const char *name;   /* module name as shown in traces, usually the component name */

    /* Room for the operations of this interface version; must be NULL. */
    void *reserved[16];
} pmixpp_gds_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_GDS_H */
