/*
 * psec framework interface: authentication of a connecting peer (native
 * credentials, munge). Ordered list; a peer uses the first one it shares
 * with the server.
 *
 * Version 1.0 is the minimal table: the operations are appended (never
 * inserted) as the framework is designed, and the core calls an operation
 * only when a component's struct_size shows the table contains it.
 */
#ifndef PMIXPP_PSEC_H
#define PMIXPP_PSEC_H

#include <pmixpp/component.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_PSEC_API_MAJOR 1
#define PMIXPP_PSEC_API_MINOR 0

typedef struct pmixpp_psec_module {
    size_t struct_size; /* sizeof(pmixpp_psec_module_t) as compiled */
    const char *name;   /* module name as shown in traces, usually the component name */

    /* Room for the operations of this interface version; must be NULL. */
    void *reserved[16];
} pmixpp_psec_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PSEC_H */
