/*
 * pmixpp component SDK: the one C contract between the pmixpp core and a
 * component shared object (in tree or a vendor's, built out of tree).
 *
 * Only C types cross this boundary. A component exports exactly one symbol,
 *
 *     const pmixpp_component_t *pmixpp_<framework>_<name>_component(void);
 *
 * (PMIXPP_COMPONENT_ENTRY below declares it), and reaches core services only
 * through the pmixpp_services_t table handed to its hooks. Both structs start
 * with their own size so either side can grow by appending members: the core
 * calls a hook or reads a member only when the struct it was given is long
 * enough to contain it.
 */
#ifndef PMIXPP_COMPONENT_H
#define PMIXPP_COMPONENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this header's structs. Major: incompatible change (components
 * built against another major are rejected). Minor: members appended. */
#define PMIXPP_COMPONENT_ABI_MAJOR 1
#define PMIXPP_COMPONENT_ABI_MINOR 0

#if defined(__GNUC__)
#define PMIXPP_COMPONENT_EXPORT __attribute__((visibility("default")))
#else
#define PMIXPP_COMPONENT_EXPORT
#endif

/* Outcome of a component's query hook. */
typedef enum {
    PMIXPP_QUERY_AVAILABLE = 0, /* usable: module_p is set */
    PMIXPP_QUERY_DECLINE = 1,   /* not usable here; selection goes on silently */
    PMIXPP_QUERY_FATAL = 2      /* the user asked for something that cannot work: stop selection */
} pmixpp_query_result_t;

/* Severity for services->log. Messages at PMIXPP_LOG_TRACE show only when the
 * framework's verbosity (PMIX_MCA_<fw>_verbose) is > 0. */
typedef enum {
    PMIXPP_LOG_ERROR = 0,
    PMIXPP_LOG_WARN = 1,
    PMIXPP_LOG_INFO = 2,
    PMIXPP_LOG_TRACE = 3
} pmixpp_log_level_t;

typedef enum { PMIXPP_PARAM_STRING = 0, PMIXPP_PARAM_INT = 1, PMIXPP_PARAM_BOOL = 2 } pmixpp_param_type_t;

/* A component parameter, known to users as PMIX_MCA_<fw>_<component>_<name>. */
typedef struct pmixpp_param_desc {
    size_t struct_size;
    const char *name; /* e.g. "length" */
    pmixpp_param_type_t type;
    const char *default_value; /* textual default, e.g. "32", "true", "" */
    const char *help;          /* one line shown by pmixpp_info */
} pmixpp_param_desc_t;

/* Declared ahead: the services below take the descriptor defined after them
 * (a C compiler otherwise scopes the tag to each parameter list). */
struct pmixpp_component;

/* Core services offered to components. */
typedef struct pmixpp_services {
    size_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;

    /* printf-style logging, tagged with framework and component name */
    void (*log)(const struct pmixpp_component *self, pmixpp_log_level_t level, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

    /* Declare a parameter (call from register_params). Returns 0 or a negative
     * PMIx status. */
    int (*register_param)(const struct pmixpp_component *self, const pmixpp_param_desc_t *desc);

    /* Current value of one of this component's parameters after environment,
     * user file, system file and default are applied. The string stays valid
     * until the component is closed. NULL if the name was never registered. */
    const char *(*param_string)(const struct pmixpp_component *self, const char *name);
    long long (*param_int)(const struct pmixpp_component *self, const char *name, long long fallback);
    int (*param_bool)(const struct pmixpp_component *self, const char *name, int fallback);

    /* The process's libevent base (struct event_base *), or NULL before the
     * progress engine runs. */
    void *(*event_base)(void);

    /* Opaque context for the calls above; components pass nothing back. */
    void *reserved[8];
} pmixpp_services_t;

/* The descriptor a component's entry function returns. Static and const in the
 * component; the core never writes to it. */
typedef struct pmixpp_component {
    size_t struct_size;       /* sizeof(pmixpp_component_t) as compiled */
    uint16_t abi_major;       /* PMIXPP_COMPONENT_ABI_MAJOR */
    uint16_t abi_minor;       /* PMIXPP_COMPONENT_ABI_MINOR */
    const char *framework;    /* "pnet", "gds", "ptl", "psec" */
    uint16_t framework_major; /* PMIXPP_<FW>_API_MAJOR of the framework header used */
    uint16_t framework_minor;
    const char *name;     /* component name, e.g. "hash" */
    const char *version;  /* component's own version, e.g. "1.0.0" */
    int default_priority; /* higher wins; overridable by PMIX_MCA_<fw>_<name>_priority */

    /* All hooks are optional (NULL = nothing to do, or always available). */
    int (*register_params)(const pmixpp_services_t *services);
    int (*open)(const pmixpp_services_t *services);
    /* On PMIXPP_QUERY_AVAILABLE sets *module_p to the framework's module table
     * (which starts with its own size_t size) and may lower or raise *priority_p. */
    pmixpp_query_result_t (*query)(const pmixpp_services_t *services, int *priority_p, const void **module_p);
    /* The library unloads the component right after close returns: threads
     * the component started must have ended (joined) by then, not merely
     * returned from their last call into the library. */
    void (*close)(void);

    void *reserved[8];
} pmixpp_component_t;

typedef const pmixpp_component_t *(*pmixpp_component_entry_fn)(void);

/* Declares the entry function of component <name> in framework <fw>, with C
 * linkage also when the component is written in C++ (the loader looks the
 * symbol up by its plain name). */
#ifdef __cplusplus
#define PMIXPP_COMPONENT_LINKAGE extern "C"
#else
#define PMIXPP_COMPONENT_LINKAGE
#endif
#define PMIXPP_COMPONENT_ENTRY(fw, name)                                                                               \
    PMIXPP_COMPONENT_LINKAGE PMIXPP_COMPONENT_EXPORT const pmixpp_component_t *pmixpp_##fw##_##name##_component(void)

#ifdef __cplusplus
}
#endif

#endif /* PMIXPP_COMPONENT_H */
