// The attributes registration interprets or derives, with the type their
// definition declares: a host's value of the wrong kind is refused with a
// message naming the attribute; an integer of another width is accepted and
// stored in the declared type, because clients (Open MPI) read these with a
// fixed type.
#ifndef PMIXPP_SERVER_JOBDATA_ATTRIBUTE_KINDS_H
#define PMIXPP_SERVER_JOBDATA_ATTRIBUTE_KINDS_H

#include <pmix_common.h>

#include <string>
#include <string_view>

namespace pmixpp::jobdata {

// False (with *problem_p set) when `value` cannot be what `key` declares.
bool type_ok(std::string_view key, const pmix_value_t &value, std::string *problem_p);

// The value to store for `key`: `value` itself, or (for an integer of another
// width) a converted copy written to *scratch.
const pmix_value_t *normalized(std::string_view key, const pmix_value_t &value, pmix_value_t *scratch);

}  // namespace pmixpp::jobdata

#endif
