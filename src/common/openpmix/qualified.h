// OpenPMIx's qualified values. A value kept under qualifiers (what a group
// member gave in PMIX_GROUP_INFO, under the group's context id) travels as
// one KVAL named PMIX_QUALIFIED_VALUE whose value is an info array: the
// key and its value first, then the qualifiers. Our server writes it when
// an OpenPMIx client asks with qualifiers; our client reads it in an
// OpenPMIx server's answer, which holds every qualified value of the proc.
#ifndef PMIXPP_COMMON_OPENPMIX_QUALIFIED_H
#define PMIXPP_COMMON_OPENPMIX_QUALIFIED_H

#include <pmix_common.h>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::openpmix {

// The qualifiers among a request's directives (PMIX_INFO_QUALIFIER set).
pmix_status_t qualifiers_among(const wire::InfoArray &directives, wire::InfoArray *qualifiers_p);

// info under `qualifiers`, as one PMIX_QUALIFIED_VALUE KVAL.
pmix_status_t pack_qualified(Writer &writer, const pmix_info_t &info, const wire::InfoArray &qualifiers);

// When `qualified` (a PMIX_QUALIFIED_VALUE's info array) was kept under
// exactly `wanted`, true and *plain_p a copy of its key and value (the
// caller destructs it); else false.
bool unqualify(const pmix_value_t &qualified, const wire::InfoArray &wanted, pmix_info_t *plain_p);

}  // namespace pmixpp::openpmix

#endif
