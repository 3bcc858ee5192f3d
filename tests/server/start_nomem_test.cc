// PMIx_server_init running out of memory at every possible allocation of
// the calling thread, one at a time: each failed start must leave nothing
// behind (no progress engine, no framework reference, no published server),
// so that a later start works. The allocations of this thread only are
// failed: the progress thread and the components' C code run normally.
#include "server/server_fixture.h"

#include "common/runtime/progress_engine.h"
#include "framework/src/selected_modules.h"
#include "server/state/server.h"
#include "support/process_usage.h"

#include <criterion/criterion.h>

#include <cstdlib>
#include <new>

namespace {

// Allocations of this thread left before the one that fails; -1: none fails.
thread_local long t_allocations_left = -1;

}  // namespace

// The whole replaceable family (plain, array, nothrow; sized deletes) goes
// to malloc/free: a replacement of only some of them pairs a sanitizer's or
// libstdc++'s operator new with our free (std::stable_sort's temporary
// buffer takes the nothrow form and gives it back with plain delete). The
// aligned forms are left alone: they are replaced or not as a pair.
// The tests build with -fvisibility=hidden, and clang 14 (without
// -fsized-deallocation) does not count the sized deletes as replacements:
// hidden, libstdc++ would free with the sanitizer's sized delete what our new
// took from malloc. So every replacement is marked visible.
#define REPLACEMENT __attribute__((visibility("default")))
REPLACEMENT void *operator new(std::size_t size)
{
    if (t_allocations_left == 0) {
        t_allocations_left = -1;
        throw std::bad_alloc();
    }
    if (t_allocations_left > 0) --t_allocations_left;
    void *memory = std::malloc(size == 0 ? 1 : size);
    if (memory == nullptr) throw std::bad_alloc();
    return memory;
}

REPLACEMENT void *operator new[](std::size_t size)
{
    return ::operator new(size);
}

REPLACEMENT void *operator new(std::size_t size, const std::nothrow_t &) noexcept
{
    try {
        return ::operator new(size);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

REPLACEMENT void *operator new[](std::size_t size, const std::nothrow_t &tag) noexcept
{
    return ::operator new(size, tag);
}

REPLACEMENT void operator delete(void *memory) noexcept
{
    std::free(memory);
}
REPLACEMENT void operator delete[](void *memory) noexcept
{
    std::free(memory);
}
REPLACEMENT void operator delete(void *memory, std::size_t) noexcept
{
    std::free(memory);
}
REPLACEMENT void operator delete[](void *memory, std::size_t) noexcept
{
    std::free(memory);
}
REPLACEMENT void operator delete(void *memory, const std::nothrow_t &) noexcept
{
    std::free(memory);
}
REPLACEMENT void operator delete[](void *memory, const std::nothrow_t &) noexcept
{
    std::free(memory);
}

using namespace server_test;
using namespace pmixpp;

namespace {

long g_fds_before = -1;

void expect_nothing_left(long failing, pmix_status_t rc)
{
    const long fds = pmixpp_test::open_fd_count();
    cr_assert_eq(fds, g_fds_before, "allocation %ld failed (%s): %ld file descriptors open, %ld before", failing,
                 PMIx_Error_string(rc), fds, g_fds_before);
    cr_assert(!runtime::ProgressEngine::process().running(),
              "allocation %ld failed (%s): the progress engine still runs", failing, PMIx_Error_string(rc));
    for (const char *framework : {"ptl", "psec", "gds"}) {
        cr_assert_eq(framework::users(framework), 0, "allocation %ld failed (%s): %s is still held", failing,
                     PMIx_Error_string(rc), framework);
    }
    cr_assert(server::current() == nullptr, "allocation %ld failed: a server is still published", failing);
}

}  // namespace

Test(server_start_nomem, every_failed_start_leaves_nothing_behind, .timeout = 600)
{
    const std::string tmpdir = make_tmpdir();
    // Both tmpdirs private: a start reaps dead servers' leftovers there, and
    // the machine's /tmp would make the count of allocations vary.
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, kHost, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SYSTEM_TMPDIR, tmpdir.c_str(), PMIX_STRING);
    long failed_starts = 0;
    g_fds_before = pmixpp_test::open_fd_count();
    for (long failing = 0;; ++failing) {
        t_allocations_left = failing;
        const pmix_status_t rc = PMIx_server_init(nullptr, info, 3);
        const bool injected = t_allocations_left == -1;
        t_allocations_left = -1;
        if (rc != PMIX_SUCCESS) {
            cr_assert(injected, "PMIx_server_init failed on its own: %s", PMIx_Error_string(rc));
            ++failed_starts;
            expect_nothing_left(failing, rc);
            continue;
        }
        cr_assert_eq(PMIx_server_finalize(), PMIX_SUCCESS);
        expect_nothing_left(failing, rc);
        if (!injected) break;  // every allocation of a start has been failed once
    }
    cr_log_info("%ld of the starts failed", failed_starts);
    cr_expect_gt(failed_starts, 0, "no allocation failure reached PMIx_server_init");
    for (auto &item : info) PMIX_INFO_DESTRUCT(&item);
}
