// Finding and loading component shared objects: files named
// pmixpp_<fw>_<name>.so in the component directories, opened with libltdl
// in local symbol scope, entry symbol pmixpp_<fw>_<name>_component.
#ifndef PMIXPP_FRAMEWORK_REPOSITORY_H
#define PMIXPP_FRAMEWORK_REPOSITORY_H

#include "framework_table.h"
#include "selected_modules.h"

#include <pmixpp/component.h>

#include <string>
#include <vector>

namespace pmixpp::framework {

inline constexpr const char *static_component_path = "(linked in)";

struct Candidate {
    std::string name;                                // from the file name (or the descriptor, when linked in)
    std::string path;                                // file path, or static_component_path
    const pmixpp_component_t *descriptor = nullptr;  // set once loaded and accepted
    void *handle = nullptr;                          // lt_dlhandle, NULL when linked in
    std::string rejection;                           // why it could not be loaded, "" if loaded
};

// PMIX_MCA_mca_base_component_path entries first, then the default directory
// and the one beside the path the library was loaded by (install_layout.h).
// When none of these holds a component file, and unless
// PMIX_MCA_mca_base_component_fallback=0, also $PMIXPP_SERVER_COMPONENT_PATH
// and the directories fixed at build time. Canonical, each once. Found once
// per settings (PMIX_MCA_mca_base_component_path and _fallback,
// PMIXPP_SERVER_COMPONENT_PATH).
std::vector<std::string> component_directories();

// Forgets the directories found (framework::finalize(): a later init looks
// again, the files may have moved).
void forget_component_directories();

// Those of component_directories() that hold component files.
std::vector<std::string> directories_holding_components();

// Linked-in components of `framework` (test hook) then files in `directories`;
// a name found again later is shadowed by the first one.
std::vector<Candidate> discover(const FrameworkInfo &framework, const std::vector<std::string> &directories);

// Opens the file, finds the entry, checks the descriptor. On failure sets
// `rejection` and leaves nothing open.
void load(const FrameworkInfo &framework, Candidate *candidate);

// Closes the shared object (no hook is called here).
void unload(Candidate *candidate);

// Test hook: offer a descriptor as if it had been found on disk.
void register_linked_in_component(const pmixpp_component_t *descriptor);
void forget_linked_in_components();
bool any_linked_in_components();

}  // namespace pmixpp::framework

#endif
