// Messages for people: one line each on stderr, prefixed "pmixpp: ". Every
// printed line is also remembered so pmixpp_info can show what happened.
#ifndef PMIXPP_FRAMEWORK_DIAGNOSTICS_H
#define PMIXPP_FRAMEWORK_DIAGNOSTICS_H

#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::framework {

// Always printed: rejections, misspelled settings, selection errors.
void warn(std::string_view line);

// Printed only when the framework's verbosity (PMIX_MCA_<fw>_verbose) is > 0.
// The caller passes the verbosity so this never needs the parameter store.
void trace(int verbosity, std::string_view line);

// Forget the remembered lines (start of an inventory).
void clear_recorded_lines();
std::vector<std::string> recorded_lines();

}  // namespace pmixpp::framework

#endif
