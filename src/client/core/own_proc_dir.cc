// A process's own PMIX_PROCDIR, made when first asked for (own_proc_dir.h).
#include "client/core/own_proc_dir.h"

#include "common/runtime/log.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace pmixpp::client {

void make_own_proc_dir(Session &session, const Lookup &lookup, const pmix_value_t &value)
{
    if (lookup.key == nullptr || std::strncmp(lookup.key, PMIX_PROCDIR, PMIX_MAX_KEYLEN) != 0) return;
    if (!is_self(session, lookup.target) || value.type != PMIX_STRING || value.data.string == nullptr) return;
    if (session.own_proc_dir_made.load(std::memory_order_acquire)) return;
    const char *path = value.data.string;
    // The server made its parent for this process's user, mode 0700.
    if (::mkdir(path, 0700) != 0 && errno != EEXIST) {
        runtime::log_warning("client", std::string("cannot create PMIX_PROCDIR ") + path + ": " + std::strerror(errno) +
                                           " (check the session directory's owner and mode)");
        return;
    }
    session.own_proc_dir_made.store(true, std::memory_order_release);
}

}  // namespace pmixpp::client
