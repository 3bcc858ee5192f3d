// The one generic selector for every framework: discover, filter by
// include/exclude, load and check, register_params, open, query, order by
// priority. Knows frameworks only through FrameworkInfo. One run selects one
// framework and keeps nothing after it; selected_modules.h keeps the
// results and is what the rest of the library calls.
#ifndef PMIXPP_FRAMEWORK_SELECTION_ALGORITHM_H
#define PMIXPP_FRAMEWORK_SELECTION_ALGORITHM_H

#include "framework_table.h"
#include "inventory.h"
#include "repository.h"

#include <pmix_common.h>

#include <string>
#include <vector>

namespace pmixpp::framework {

struct ComponentState {
    Candidate candidate;
    std::string version;  // kept after unloading, for reports
    int priority = 0;
    const void *module = nullptr;
    bool opened = false;  // open succeeded: close() is owed
    bool selected = false;
    bool filtered = false;  // left out by PMIX_MCA_<fw>: never loaded for use
    // Not loaded yet: this process has not needed it (see Wanted). Its
    // priority is known only from a fresh index entry (priority_known).
    bool deferred = false;
    bool priority_known = false;
    std::string reason;  // why not selected, "" if selected
};

// Which candidates a selection loads now. The others stay deferred until a
// later run asks for them: a client needs one transport, the security
// module and the gds its server named, and every other .so would cost each
// rank a dlopen.
struct Wanted {
    bool all = true;
    std::vector<std::string> names;  // when !all
    bool admits(const std::string &name) const;
    static Wanted everything() { return {}; }
    static Wanted only(std::vector<std::string> names) { return {false, std::move(names)}; }
};

struct FrameworkSelection {
    const FrameworkInfo *framework = nullptr;
    std::vector<ComponentState> components;  // every candidate, in discovery order
    std::vector<std::size_t> order;          // indices of the selected, best first
};

// Runs the selection of `framework` under the current settings, loading
// what `wanted` admits. On error, everything opened is closed and unloaded
// again (the reasons stay recorded in *selection_p for reports).
pmix_status_t run_selection(const FrameworkInfo &framework, FrameworkSelection *selection_p,
                            const Wanted &wanted = Wanted::everything());

// Loads, opens and queries the deferred components `wanted` admits, and
// orders the selection again. On error the selection is closed as above.
pmix_status_t complete_selection(FrameworkSelection *selection, const Wanted &wanted);

// The usable candidates' names, best first: selected ones by effective
// priority, deferred ones by their index priority (with the user's
// override); deferred ones without a fresh index entry are loaded first to
// learn theirs. Filtered and failed ones are left out.
pmix_status_t ranked_names(FrameworkSelection *selection, std::vector<std::string> *names_p);

// Keeps only the best selected component; closes and unloads the others.
void keep_only_best(FrameworkSelection *selection);

// Keeps only the selected components named in `names`; closes and unloads
// the others (recorded as "not used by this process").
void keep_only_named(FrameworkSelection *selection, const std::vector<std::string> &names);

// Calls close() of every opened component and unloads everything.
void close_selection(FrameworkSelection *selection);

// Briefly loads the components PMIX_MCA_<fw> left out, to show their
// descriptor's version and priority (no hook is called).
FrameworkReport make_report(const FrameworkSelection &selection);

}  // namespace pmixpp::framework

#endif
