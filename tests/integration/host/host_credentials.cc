// The test host's own security system: get_credential makes a credential
// that names the proc it was made for, validate_credential accepts only
// such credentials and says who asked. A credential of anything else (psec's,
// garbage) is refused at once, the way a site's system refuses foreign ones.
// In async mode the answers come later from a host thread.
#include "integration/host/host_internal.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace pmixpp::itest {
namespace {

struct CredentialAnswer {
    pmix_credential_cbfunc_t cbfunc;
    void *cbdata;
    std::string text;
};

void send_credential(void *arg)
{
    auto *answer = static_cast<CredentialAnswer *>(arg);
    pmix_byte_object_t credential{answer->text.data(), answer->text.size()};
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_CRED_TYPE, kHostCredentialType, PMIX_STRING);
    answer->cbfunc(PMIX_SUCCESS, &credential, &info, 1, answer->cbdata);
    PMIX_INFO_DESTRUCT(&info);
    delete answer;
}

struct ValidationAnswer {
    pmix_validation_cbfunc_t cbfunc;
    void *cbdata;
    std::string requester;
};

void send_validation(void *arg)
{
    auto *answer = static_cast<ValidationAnswer *>(arg);
    const uint32_t uid = static_cast<uint32_t>(geteuid());
    const uint32_t gid = static_cast<uint32_t>(getegid());
    pmix_info_t info[4];
    PMIX_INFO_LOAD(&info[0], PMIX_CRED_TYPE, kHostCredentialType, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_USERID, &uid, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], PMIX_GRPID, &gid, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[3], kHostValidatedFor, answer->requester.c_str(), PMIX_STRING);
    answer->cbfunc(PMIX_SUCCESS, info, 4, answer->cbdata);
    for (pmix_info_t &item : info) PMIX_INFO_DESTRUCT(&item);
    delete answer;
}

std::string proc_name(const pmix_proc_t *proc)
{
    if (proc == nullptr) return "(null)";
    return std::string(proc->nspace, strnlen(proc->nspace, PMIX_MAX_NSLEN)) + "." + std::to_string(proc->rank);
}

// Answers now (from inside the upcall) or, in async mode, from a host thread.
pmix_status_t answer(Host *host, void (*fn)(void *), void *arg)
{
    if (host != nullptr && host->options().async_upcalls) {
        host->run_later(fn, arg);
    } else {
        fn(arg);
    }
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t on_get_credential(const pmix_proc_t *proc, const pmix_info_t[], size_t, pmix_credential_cbfunc_t cbfunc,
                                void *cbdata)
{
    Host *host = Host::current();
    if (host != nullptr) host->counters().credentials_made++;
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    return answer(host, send_credential, new CredentialAnswer{cbfunc, cbdata, kHostCredentialPrefix + proc_name(proc)});
}

pmix_status_t on_validate_credential(const pmix_proc_t *proc, const pmix_byte_object_t *cred, const pmix_info_t[],
                                     size_t, pmix_validation_cbfunc_t cbfunc, void *cbdata)
{
    Host *host = Host::current();
    if (host != nullptr) host->counters().credentials_checked++;
    if (cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    const size_t prefix = std::strlen(kHostCredentialPrefix);
    if (cred == nullptr || cred->bytes == nullptr || cred->size <= prefix ||
        std::memcmp(cred->bytes, kHostCredentialPrefix, prefix) != 0) {
        return PMIX_ERR_INVALID_CRED;
    }
    return answer(host, send_validation, new ValidationAnswer{cbfunc, cbdata, proc_name(proc)});
}

}  // namespace pmixpp::itest
