// Pieces shared by the host's source files, not part of its interface.
#ifndef PMIXPP_TESTS_INTEGRATION_HOST_INTERNAL_H
#define PMIXPP_TESTS_INTEGRATION_HOST_INTERNAL_H

#include "integration/host/itest_host.h"

#include <condition_variable>
#include <mutex>

namespace pmixpp::itest {

// One pending pmix_op_cbfunc_t. Heap-allocated: when the wait times out the
// library may still call back, so the waiter leaves it alive.
struct OpWait {
    std::mutex lock;
    std::condition_variable changed;
    bool done = false;
    pmix_status_t status = PMIX_ERROR;
};

// pmix_op_cbfunc_t that completes an OpWait.
void op_wait_callback(pmix_status_t status, void *cbdata);

// The host's upcall table (host_upcalls.cc).
pmix_server_module_t make_module(const HostOptions &options);

// get_credential / validate_credential (host_credentials.cc): the host's own
// credentials, "itest-host-credential for <nspace>.<rank>", of type
// kHostCredentialType; it validates only those.
pmix_status_t on_get_credential(const pmix_proc_t *proc, const pmix_info_t directives[], size_t ndirs,
                                pmix_credential_cbfunc_t cbfunc, void *cbdata);
pmix_status_t on_validate_credential(const pmix_proc_t *proc, const pmix_byte_object_t *cred,
                                     const pmix_info_t directives[], size_t ndirs, pmix_validation_cbfunc_t cbfunc,
                                     void *cbdata);
inline constexpr const char *kHostCredentialPrefix = "itest-host-credential for ";
inline constexpr const char *kHostCredentialType = "itest-host";
// In a validation's results: who asked the host to validate.
inline constexpr const char *kHostValidatedFor = "itest.validated.for";

// The key the host's query upcall answers, and its answer.
inline constexpr const char *kHostQueryKey = "itest.host.answer";
inline constexpr const char *kHostQueryAnswer = "answered-by-the-host";

}  // namespace pmixpp::itest

#endif
