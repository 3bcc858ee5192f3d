// What the rest of the library calls to get its components: the modules of a
// framework, selected once (lazily, thread-safe) and kept until close/finalize.
// The selection itself (discover, filter, open, query, order) is one run of
// selection_algorithm.h; this file keeps each framework's result for the
// process, counts its users and answers the inventory.
#ifndef PMIXPP_FRAMEWORK_SELECTED_MODULES_H
#define PMIXPP_FRAMEWORK_SELECTED_MODULES_H

#include <pmix_common.h>
#include <pmixpp/component.h>

#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::framework {

struct SelectedModule {
    std::string component;  // e.g. "hash"
    int priority;           // effective priority
    const void *module;     // the framework's module table (size-prefixed)
    const pmixpp_component_t *descriptor;
};

// All usable components of `framework` ("pnet", "gds", "ptl", "psec") in
// priority order (highest first, then by name). An empty list is a success.
// Errors: PMIX_ERR_BAD_PARAM (unknown framework, malformed include/exclude),
// PMIX_ERR_NOT_FOUND (an explicitly included component is unusable),
// PMIX_ERR_INIT (a component's query was fatal), PMIX_ERR_NOMEM,
// PMIX_ERR_NOT_SUPPORTED (called from a component hook: the core is busy on
// this very thread; the same refusal applies to every function here).
pmix_status_t select(std::string_view framework, std::vector<SelectedModule> *modules_p);

// Only the components named in `names` are loaded (if not already), opened
// and queried; *modules_p gets those of them that are usable, in the order
// of `names`. The framework's other components stay unloaded until a later
// select() needs them. An empty result is a success: the caller falls back
// to select() (a client asks for what its server named, and only when that
// cannot work for everything).
pmix_status_t select_named(std::string_view framework, const std::vector<std::string> &names,
                           std::vector<SelectedModule> *modules_p);

// The names of the framework's usable components, best first, known without
// loading them where the component index has a current entry (the others
// are loaded to learn their priority). For choosing one by trying them in
// order with select_named.
pmix_status_t ranked_components(std::string_view framework, std::vector<std::string> *names_p);

// The single best component (single-select use, e.g. ptl in a client). The
// others are closed and unloaded. PMIX_ERR_NOT_FOUND when none is usable.
pmix_status_t select_best(std::string_view framework, SelectedModule *module_p);

// Closes and unloads the selected components of `framework` that are not
// named in `names`, when one role alone uses the framework (a client that
// connected: one transport, one security module and its server's gds are
// all it needs, and every other loaded .so costs each process memory).
// PMIX_ERR_NOT_SUPPORTED, changing nothing, when other roles hold it too or
// nothing is selected.
pmix_status_t retain_only(std::string_view framework, const std::vector<std::string> &names);

// Shared use of a framework by the roles of one process (server, client,
// tool can all live in one process): each role acquires the frameworks it
// uses before selecting and releases them when it finalizes. release() of
// the last user closes and unloads the framework's components (as close()
// does); a release() without a matching acquire() is ignored, so one role
// can never close what another still uses.
void acquire(std::string_view framework);
void release(std::string_view framework);
// How many roles hold `framework` (for tests and diagnostics).
int users(std::string_view framework);

// Closes and unloads the components of one framework now, whoever uses
// them (prefer release()); a later select()
// selects again (re-reading the environment and param files).
void close(std::string_view framework);

// Closes every framework, unloads everything, forgets parameters.
void finalize();

// The directories the selected components were loaded from, each once, in
// the order found: a server hands them to its children
// (PMIXPP_SERVER_COMPONENT_PATH) so they find the same components. "" when
// none was loaded from a file.
std::string selected_component_path();
inline constexpr const char *server_component_path_variable = "PMIXPP_SERVER_COMPONENT_PATH";

// The progress engine's libevent base, handed to components through
// services->event_base(). NULL until the progress engine runs.
void set_event_base(void *event_base);

}  // namespace pmixpp::framework

#endif
