// Where temporary directories go when nobody said: the environment's
// choice, as OpenPMIx reads it. Servers, tools and the session directories
// all start from these.
#ifndef PMIXPP_COMMON_RUNTIME_TMPDIRS_H
#define PMIXPP_COMMON_RUNTIME_TMPDIRS_H

#include <string>

namespace pmixpp::runtime {

// PMIX_SYSTEM_TMPDIR when the host gave none: TMPDIR, TEMP, TMP, then /tmp.
std::string system_tmpdir_fallback();
// PMIX_SERVER_TMPDIR when the host gave none: the PMIX_SERVER_TMPDIR
// environment variable, then TMPDIR, TEMP, TMP, then /tmp.
std::string server_tmpdir_fallback();

}  // namespace pmixpp::runtime

#endif
