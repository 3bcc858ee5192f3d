// The environment directives of a job: PMIX_SET_ENVAR, PMIX_ADD_ENVAR,
// PMIX_UNSET_ENVAR, PMIX_PREPEND_ENVAR, PMIX_APPEND_ENVAR and
// PMIX_FIRST_ENVAR entries of the info a host registers (typically what
// PMIx_server_setup_application returned on the head node). They are not job
// data: PMIx_server_setup_fork applies them to every child of the job, in the
// order the host gave them.
#ifndef PMIXPP_SERVER_FORK_ENVARS_H
#define PMIXPP_SERVER_FORK_ENVARS_H

#include <pmix_common.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::server::pnet {

enum class EnvarOp {
    set,      // NAME=value, replacing any value
    add,      // NAME=value only when NAME is not set
    unset,    // remove NAME
    prepend,  // value<sep>old, or value when unset
    append,   // old<sep>value, or value when unset
    first,    // value moved (or added) to the front of the <sep>-list
};

struct EnvarDirective {
    EnvarOp op = EnvarOp::set;
    std::string name;
    std::string value;
    char separator = ':';
};

bool is_envar_key(std::string_view key);

// One directive from its info entry: a pmix_envar_t, or for convenience a
// string ("NAME=value"; just "NAME" for PMIX_UNSET_ENVAR).
// PMIX_ERR_BAD_PARAM / PMIX_ERR_TYPE_MISMATCH with *why_p naming the entry.
pmix_status_t parse_envar(const pmix_info_t &info, EnvarDirective *directive_p, std::string *why_p);

// The directives among info[0..ninfo): flat entries and those inside a
// PMIX_JOB_INFO_ARRAY, in order. The first malformed one fails the whole.
pmix_status_t collect_envars(const pmix_info_t info[], std::size_t ninfo, std::vector<EnvarDirective> *out_p,
                             std::string *why_p);

// Applies the directives, in order, to a NULL-terminated, malloc'ed
// argv-style environment. PMIX_ERR_NOMEM leaves *env_p valid.
pmix_status_t apply_envars(const std::vector<EnvarDirective> &directives, char ***env_p);

}  // namespace pmixpp::server::pnet

#endif
