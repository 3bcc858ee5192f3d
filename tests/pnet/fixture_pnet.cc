// Fixture pnet components for the pnet tests, never installed:
//   failing  setup_application and setup_local_support fail (PMIX_ERROR)
//   slow     answers both from another thread after 300 ms, and records
//            every hook call in $PNET_FIXTURE_LOG ("<hook> <args>" lines)
//   silent   never answers setup_application (the server's timeout)
//   oldtable a pnet 1.1 module table (struct_size ends before the 1.2
//            fabric methods) whose memory beyond holds fabric methods that
//            record "register_fabric" etc. if ever called: the core must not
#include <pmixpp/component.hpp>
#include <pmixpp/pnet.h>

#include <pmix.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

std::mutex log_mutex;

void record(const std::string &line)
{
    const char *path = std::getenv("PNET_FIXTURE_LOG");
    if (path == nullptr) return;
    std::lock_guard lock(log_mutex);
    if (FILE *f = std::fopen(path, "a")) {
        std::fprintf(f, "%s\n", line.c_str());
        std::fclose(f);
    }
}

// The threads answering later, joined at close: the library unloads the
// component right after, and a thread still on its way out of the
// component's code (its C++ runtime is linked in) would run unmapped code.
std::mutex answerers_mutex;
std::vector<std::thread> answerers;

[[maybe_unused]] void answer_later(pmixpp_pnet_done_fn done, void *cbdata)
{
    std::lock_guard lock(answerers_mutex);
    answerers.emplace_back([done, cbdata] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        done(PMIX_SUCCESS, cbdata);
    });
}

void join_answerers()
{
    std::vector<std::thread> finishing;
    {
        std::lock_guard lock(answerers_mutex);
        finishing.swap(answerers);
    }
    for (std::thread &answerer : finishing) answerer.join();
}

pmix_status_t setup_application(const char *nspace, const pmix_info_t[], size_t, void *ilist, pmixpp_pnet_done_fn done,
                                void *cbdata)
{
#if defined(FIXTURE_FAIL)
    (void)nspace;
    (void)ilist;
    (void)done;
    (void)cbdata;
    return PMIX_ERROR;
#elif defined(FIXTURE_SILENT)
    (void)nspace;
    (void)ilist;
    (void)done;
    (void)cbdata;
    return PMIX_SUCCESS;  // and never calls done
#else
    record(std::string("setup_application ") + nspace);
    (void)PMIx_Info_list_add(ilist, "pnettest.slow", "late", PMIX_STRING);
    answer_later(done, cbdata);
    return PMIX_SUCCESS;
#endif
}

pmix_status_t setup_local_support(const char *nspace, const pmix_info_t[], size_t, pmixpp_pnet_done_fn done,
                                  void *cbdata)
{
#if defined(FIXTURE_FAIL)
    (void)nspace;
    (void)done;
    (void)cbdata;
    return PMIX_ERROR;
#elif defined(FIXTURE_SILENT)
    (void)nspace;
    (void)done;
    (void)cbdata;
    return PMIX_OPERATION_SUCCEEDED;
#else
    record(std::string("setup_local_support ") + nspace);
    answer_later(done, cbdata);
    return PMIX_SUCCESS;
#endif
}

pmix_status_t setup_fork(const pmix_proc_t *proc, char ***)
{
    record("setup_fork " + std::string(proc->nspace) + "." + std::to_string(proc->rank));
    return PMIX_SUCCESS;
}

void child_finalized(const pmix_proc_t *proc)
{
    record("child_finalized " + std::string(proc->nspace) + "." + std::to_string(proc->rank));
}

void local_app_finalized(const char *nspace, uint32_t appnum)
{
    record("local_app_finalized " + std::string(nspace) + " " + std::to_string(appnum));
}

void deregister_nspace(const char *nspace)
{
    record(std::string("deregister_nspace ") + nspace);
}

#if defined(FIXTURE_OLD_TABLE)
pmix_status_t register_fabric(const pmix_info_t[], size_t, void *ilist)
{
    record("register_fabric");
    (void)PMIx_Info_list_add(ilist, PMIX_FABRIC_IDENTIFIER, "oldtable", PMIX_STRING);
    return PMIX_OPERATION_SUCCEEDED;
}
pmix_status_t update_fabric(const char *, void *)
{
    record("update_fabric");
    return PMIX_OPERATION_SUCCEEDED;
}
void deregister_fabric(const char *)
{
    record("deregister_fabric");
}
// A component built against pnet 1.1 says its table ends at
// deliver_inventory; what follows in memory is not its table.
constexpr size_t kTableSize = offsetof(pmixpp_pnet_module_t, register_fabric);
#else
constexpr pmix_status_t (*register_fabric)(const pmix_info_t[], size_t, void *) = nullptr;
constexpr pmix_status_t (*update_fabric)(const char *, void *) = nullptr;
constexpr void (*deregister_fabric)(const char *) = nullptr;
constexpr size_t kTableSize = sizeof(pmixpp_pnet_module_t);
#endif

constexpr pmixpp_pnet_module_t fixture_module = {
    .struct_size = kTableSize,
    .setup_application = setup_application,
    .setup_local_support = setup_local_support,
    .setup_fork = setup_fork,
    .child_finalized = child_finalized,
    .local_app_finalized = local_app_finalized,
    .deregister_nspace = deregister_nspace,
    .collect_inventory = nullptr,
    .deliver_inventory = nullptr,
    .register_fabric = register_fabric,
    .update_fabric = update_fabric,
    .deregister_fabric = deregister_fabric,
};

}  // namespace

struct FixtureNet {
    static constexpr const char *version = "0.0.1";
    static constexpr int priority = 1;
    static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
#if defined(FIXTURE_OLD_TABLE)
    static constexpr uint16_t framework_minor = 1;
#else
    static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;
#endif
    static const void *query(pmixpp::sdk::Services &, int &)
    {
        return &fixture_module;
    }
    static void close()
    {
        join_answerers();
    }
};

#if defined(FIXTURE_FAIL)
PMIXPP_CXX_COMPONENT(pnet, failing, FixtureNet)
#elif defined(FIXTURE_SILENT)
PMIXPP_CXX_COMPONENT(pnet, silent, FixtureNet)
#elif defined(FIXTURE_OLD_TABLE)
PMIXPP_CXX_COMPONENT(pnet, oldtable, FixtureNet)
#else
PMIXPP_CXX_COMPONENT(pnet, slow, FixtureNet)
#endif
