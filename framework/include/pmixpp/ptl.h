/*
 * ptl framework interface: the transport between clients, tools and their
 * server (Unix sockets, TCP). A server listens with every usable component,
 * in priority order; a client connects with the best one.
 *
 * Version 1.0 is the minimal table: the operations are appended (never
 * inserted) as the framework is designed, and the core calls an operation
 * only when a component's struct_size shows the table contains it.
 */
#ifndef PMIXPP_PTL_H
#define PMIXPP_PTL_H

#include <pmixpp/component.h>
#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMIXPP_PTL_API_MAJOR 1
#define PMIXPP_PTL_API_MINOR 0

typedef struct pmixpp_ptl_module {
    size_t struct_size; /* sizeof(pmixpp_ptl_module_t) as compiled */
    const char *name;   /* module name as shown in traces, usually the component name */

    /* Room for the operations of this interface version; must be NULL. */
    void *reserved[16];
} pmixpp_ptl_module_t;

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_PTL_H */
