// Hooks for the unit tests of the component core (not used by the library).
#ifndef PMIXPP_FRAMEWORK_TESTING_H
#define PMIXPP_FRAMEWORK_TESTING_H

#include "repository.h"

namespace pmixpp::framework::testing {

// Offers an in-process descriptor to the selection of its framework, exactly
// as if a file pmixpp_<fw>_<name>.so had carried it (same checks, same hooks).
inline void add_component(const pmixpp_component_t *descriptor)
{
    register_linked_in_component(descriptor);
}

inline void remove_all_components()
{
    forget_linked_in_components();
}

}  // namespace pmixpp::framework::testing

#endif
