// A process's own PMIX_PROCDIR is named by its server but made here, the
// first time the process asks for it (server/sessiondirs/session_dirs.h): a
// job's start then pays no mkdir and rmdir per process on a disk file
// system, and the directory is there whenever someone asked for its name.
#ifndef PMIXPP_CLIENT_CORE_OWN_PROC_DIR_H
#define PMIXPP_CLIENT_CORE_OWN_PROC_DIR_H

#include <pmix_common.h>

#include "client/core/local_data.h"
#include "client/core/session.h"

namespace pmixpp::client {

// After `value` answered `lookup`: when that is this process's own
// PMIX_PROCDIR, makes the directory (mode 0700) unless it exists. A
// directory that cannot be made is named in one warning; the answer stands.
void make_own_proc_dir(Session &session, const Lookup &lookup, const pmix_value_t &value);

}  // namespace pmixpp::client

#endif
