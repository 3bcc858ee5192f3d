// In-process fake components for the selection tests: real descriptors with
// real hooks, offered to the selector without dlopen.
#ifndef PMIXPP_TESTS_FRAMEWORK_FAKE_COMPONENTS_H
#define PMIXPP_TESTS_FRAMEWORK_FAKE_COMPONENTS_H

#include "framework/src/selected_modules.h"

#include <pmixpp/component.h>

#include <string>
#include <vector>

namespace pmixpp::tests {

struct FakeConfig {
    const char *framework = "gds";
    const char *name = "a";
    int priority = 10;
    pmixpp_query_result_t result = PMIXPP_QUERY_AVAILABLE;
    int open_rc = 0;
    int query_priority = -1;        // >= 0: query reports this priority
    bool registers_params = false;  // color (string "red"), depth (int 3), fast (bool false)
    bool logs_trace = false;        // open logs one trace and one info line
    bool reenters_select = false;   // open calls framework::select() of its own framework
};

struct FakeRecord {
    int registers = 0;
    int opens = 0;
    int queries = 0;
    int closes = 0;
    std::string color;  // values seen by query through the services table
    long long depth = -1;
    int fast = -1;
    pmix_status_t reentry_rc = PMIX_SUCCESS;  // what the nested select() returned
};

inline constexpr int max_fakes = 8;

// Installs fake number `index` (0..max_fakes-1) with `config`.
const pmixpp_component_t *add_fake(int index, const FakeConfig &config);
const FakeRecord &fake_record(int index);

std::vector<std::string> names_of(const std::vector<framework::SelectedModule> &modules);
std::string joined(const std::vector<std::string> &names);

}  // namespace pmixpp::tests

#endif
