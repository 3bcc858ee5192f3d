#include "client/core/singleton.h"

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/values/value_ops.h"
#include "server/jobdata/registration.h"

namespace pmixpp::client {

namespace {

// Releases the infos of a registration request.
struct InfoList {
    std::vector<pmix_info_t> items;
    ~InfoList()
    {
        for (auto &info : items) {
            values::info_destruct(&info);
        }
    }
    void add(const char *key, const void *data, pmix_data_type_t type)
    {
        pmix_info_t info;
        std::memset(&info, 0, sizeof info);
        if (values::info_load(&info, key, data, type) == PMIX_SUCCESS) {
            items.push_back(info);
        }
    }
};

const char *temp_dir()
{
    for (const char *name : {"TMPDIR", "TEMP", "TMP"}) {
        const char *value = std::getenv(name);
        if (value != nullptr && value[0] != '\0') {
            return value;
        }
    }
    return "/tmp";
}

}  // namespace

std::string local_hostname()
{
    char name[HOST_NAME_MAX + 1] = {};
    if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') {
        return "localhost";
    }
    return name;
}

std::string singleton_nspace(const std::string &hostname)
{
    const char *given = std::getenv("PMIX_NAMESPACE");
    if (given != nullptr && given[0] != '\0' && std::strlen(given) <= PMIX_MAX_NSLEN) {
        return given;
    }
    std::string nspace = "singleton." + hostname + "." + std::to_string(::getpid());
    // The pid must survive truncation: shorten the host part instead.
    if (nspace.size() > PMIX_MAX_NSLEN) {
        std::string pid = "." + std::to_string(::getpid());
        nspace = nspace.substr(0, PMIX_MAX_NSLEN - pid.size()) + pid;
    }
    return nspace;
}

pmix_status_t register_singleton(const char *nspace, const std::string &hostname, const store::Store &store)
{
    uint32_t one = 1;
    uint32_t zero = 0;
    pmix_rank_t rank0 = 0;
    InfoList infos;
    infos.add(PMIX_NODE_MAP, hostname.c_str(), PMIX_STRING);
    infos.add(PMIX_PROC_MAP, "0", PMIX_STRING);
    infos.add(PMIX_JOB_SIZE, &one, PMIX_UINT32);
    infos.add(PMIX_UNIV_SIZE, &one, PMIX_UINT32);
    infos.add(PMIX_MAX_PROCS, &one, PMIX_UINT32);
    infos.add(PMIX_JOB_NUM_APPS, &one, PMIX_UINT32);
    infos.add(PMIX_APPNUM, &zero, PMIX_UINT32);
    infos.add(PMIX_APPLDR, &rank0, PMIX_PROC_RANK);
    infos.add(PMIX_TMPDIR, temp_dir(), PMIX_STRING);
    jobdata::Options options;
    options.local_hostname = hostname;
    jobdata::JobSummary summary;
    std::string error;
    pmix_status_t rc =
        jobdata::register_nspace(nspace, 1, infos.items.data(), infos.items.size(), options, store, &summary, &error);
    return rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc;
}

pmix_status_t register_tool_self(const char *nspace, pmix_rank_t rank, const std::string &hostname,
                                 const store::Store &store)
{
    pmix_status_t rc = store.has_nspace(nspace) ? PMIX_SUCCESS : register_singleton(nspace, hostname, store);
    if (rc != PMIX_SUCCESS || rank == 0) {
        return rc;
    }
    pmix_value_t host{};
    host.type = PMIX_STRING;
    host.data.string = const_cast<char *>(hostname.c_str());
    return store.put_value(nspace, PMIXPP_GDS_LEVEL_PROC, rank, PMIX_HOSTNAME, &host);
}

}  // namespace pmixpp::client
