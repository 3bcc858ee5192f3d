#include "pnet_test_support.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

namespace pnet_test {
namespace {

struct AppWait {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    bool returned = false;
    SetupResult *result = nullptr;
};

void on_application(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *provided, pmix_op_cbfunc_t release,
                    void *release_cbdata)
{
    auto *wait = static_cast<AppWait *>(provided);
    std::lock_guard lock(wait->mutex);
    wait->result->status = status;
    wait->result->called_before_return = !wait->returned;
    for (size_t i = 0; i < ninfo; ++i) {
        pmix_info_t copy;
        PMIX_INFO_CONSTRUCT(&copy);
        PMIx_Info_xfer(&copy, &info[i]);
        wait->result->info.push_back(copy);
    }
    wait->result->released = release != nullptr;
    if (release != nullptr) release(PMIX_SUCCESS, release_cbdata);
    wait->done = true;
    wait->cv.notify_all();
}

void on_local_support(pmix_status_t status, void *cbdata)
{
    auto *ls = static_cast<LocalSupport *>(cbdata);
    std::lock_guard lock(ls->mutex);
    ls->status = status;
    ls->done = true;
    ls->cv.notify_all();
}

int remove_entry(const char *path, const struct stat *, int, struct FTW *)
{
    return ::remove(path);
}

}  // namespace

SetupResult::~SetupResult()
{
    for (pmix_info_t &i : info) PMIX_INFO_DESTRUCT(&i);
}

const pmix_info_t *SetupResult::find(const char *key, const char *envar_name) const
{
    for (const pmix_info_t &i : info) {
        if (std::strncmp(i.key, key, PMIX_MAX_KEYLEN) != 0) continue;
        if (envar_name == nullptr) return &i;
        if (i.value.type == PMIX_ENVAR && i.value.data.envar.envar != nullptr &&
            std::strcmp(i.value.data.envar.envar, envar_name) == 0) {
            return &i;
        }
    }
    return nullptr;
}

std::size_t SetupResult::count(const char *key) const
{
    std::size_t n = 0;
    for (const pmix_info_t &i : info) n += std::strncmp(i.key, key, PMIX_MAX_KEYLEN) == 0 ? 1 : 0;
    return n;
}

SetupResult setup_application(const char *nspace, const pmix_info_t info[], std::size_t ninfo, int seconds)
{
    SetupResult result;
    AppWait wait;
    wait.result = &result;
    std::unique_lock lock(wait.mutex);
    const pmix_status_t rc =
        PMIx_server_setup_application(nspace, const_cast<pmix_info_t *>(info), ninfo, on_application, &wait);
    cr_assert_eq(rc, PMIX_SUCCESS, "setup_application: %s", PMIx_Error_string(rc));
    wait.returned = true;
    cr_assert(wait.cv.wait_for(lock, std::chrono::seconds(seconds), [&] { return wait.done; }),
              "setup_application never called back");
    return result;
}

pmix_status_t LocalSupport::wait(int seconds)
{
    std::unique_lock lock(mutex);
    cv.wait_for(lock, std::chrono::seconds(seconds), [&] { return done; });
    return done ? status : PMIX_ERR_TIMEOUT;
}

pmix_status_t start_local_support(const char *nspace, pmix_info_t info[], std::size_t ninfo, LocalSupport *ls)
{
    return PMIx_server_setup_local_support(nspace, info, ninfo, on_local_support, ls);
}

std::string scratch_dir()
{
    char pattern[] = "/tmp/pnet-test.XXXXXX";
    const char *dir = ::mkdtemp(pattern);
    cr_assert_not_null(dir);
    return dir;
}

void remove_tree(const std::string &dir)
{
    (void)::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

bool exists(const std::string &path)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

std::vector<std::string> files_with_prefix(const std::string &dir, const std::string &prefix)
{
    std::vector<std::string> found;
    DIR *d = ::opendir(dir.c_str());
    if (d == nullptr) return found;
    while (const dirent *e = ::readdir(d)) {
        if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0) found.emplace_back(e->d_name);
    }
    ::closedir(d);
    return found;
}

void start_server(const std::string &scratch)
{
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, scratch.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, scratch.c_str(), PMIX_STRING);
    static pmix_server_module_t module{};
    const pmix_status_t rc = PMIx_server_init(&module, info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_server_init: %s", PMIx_Error_string(rc));
}

std::string nsdir_of(const std::string &scratch, const char *nspace)
{
    return scratch + "/pmix-session." + std::to_string(geteuid()) + "." + std::to_string(getpid()) + "/" + nspace;
}

}  // namespace pnet_test
