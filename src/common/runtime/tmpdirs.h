// Where temporary directories go when no attribute said: the environment's
// choice, as OpenPMIx's servers, clients and tools read it (the attribute
// first, then PMIX_SYSTEM_TMPDIR / PMIX_SERVER_TMPDIR, then the usual
// variables). Servers, tools and the session directories all start from
// these, so a tool and a server pointed at one directory by the environment
// find each other, whichever library each runs on.
#ifndef PMIXPP_COMMON_RUNTIME_TMPDIRS_H
#define PMIXPP_COMMON_RUNTIME_TMPDIRS_H

#include <string>

namespace pmixpp::runtime {

// PMIX_SYSTEM_TMPDIR when the caller gave none: the PMIX_SYSTEM_TMPDIR
// environment variable, then TMPDIR, TEMP, TMP, then /tmp.
std::string system_tmpdir_fallback();
// PMIX_SERVER_TMPDIR when the caller gave none: the PMIX_SERVER_TMPDIR
// environment variable, then TMPDIR, TEMP, TMP, then /tmp.
std::string server_tmpdir_fallback();

}  // namespace pmixpp::runtime

#endif
