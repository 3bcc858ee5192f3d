// Helpers of the pnet tests: waiting for the server's callbacks, reading the
// info array setup_application returns, scratch directories.
#ifndef PMIXPP_TESTS_PNET_SUPPORT_H
#define PMIXPP_TESTS_PNET_SUPPORT_H

#include <pmix.h>
#include <pmix_server.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

namespace pnet_test {

// What setup_application handed back: our deep copy of the host's array.
struct SetupResult {
    pmix_status_t status = PMIX_ERR_TIMEOUT;
    std::vector<pmix_info_t> info;
    bool released = false;  // the library's release callback was given
    bool called_before_return = false;
    ~SetupResult();
    const pmix_info_t *find(const char *key, const char *envar_name = nullptr) const;
    std::size_t count(const char *key) const;
};

// PMIx_server_setup_application, waiting up to `seconds` for its callback.
SetupResult setup_application(const char *nspace, const pmix_info_t info[], std::size_t ninfo, int seconds = 10);
// PMIx_server_setup_local_support; *returned_p is what the call returned.
// The callback status, or PMIX_ERR_TIMEOUT.
struct LocalSupport {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    pmix_status_t status = PMIX_ERR_TIMEOUT;
    pmix_status_t wait(int seconds);
};
pmix_status_t start_local_support(const char *nspace, pmix_info_t info[], std::size_t ninfo, LocalSupport *ls);

// A fresh directory under /tmp (removed by remove_tree).
std::string scratch_dir();
void remove_tree(const std::string &dir);
bool exists(const std::string &path);
// Files of `dir` whose names start with `prefix`.
std::vector<std::string> files_with_prefix(const std::string &dir, const std::string &prefix);

// Server init with its tmpdirs in `scratch`.
void start_server(const std::string &scratch);
// The namespace's session directory made by that server.
std::string nsdir_of(const std::string &scratch, const char *nspace);

}  // namespace pnet_test

#endif
