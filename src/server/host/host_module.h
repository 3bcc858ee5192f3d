// The host's upcalls (pmix_server_module_t), copied once at PMIx_server_init.
//
// OpenPMIx 4.2 hosts (Open MPI, Slurm) hand a module of exactly 28 slots (224
// bytes): that is the whole struct of our header, so we copy exactly
// sizeof(pmix_server_module_t) and never read beyond. A NULL module means
// "no upcalls" (local-only server). Each slot is tested before use.
//
// start_op turns a host's pmix_op_cbfunc_t answer into a completion that runs on
// the progress thread, whatever thread the host calls back from (even from
// inside the upcall itself, as Slurm's client_finalized does).
#ifndef PMIXPP_SERVER_HOST_HOST_MODULE_H
#define PMIXPP_SERVER_HOST_HOST_MODULE_H

#include <pmix_server.h>

#include <atomic>
#include <functional>

namespace pmixpp::server::host {

// Bytes of the 4.2 module: 28 function pointers.
inline constexpr std::size_t kModuleSlots = 28;
static_assert(sizeof(pmix_server_module_t) == kModuleSlots * sizeof(void *),
              "pmix_server_module_t must keep the 28-slot layout of OpenPMIx 4.2");

class HostModule {
public:
    void install(const pmix_server_module_t *module);
    const pmix_server_module_t &slots() const { return slots_; }
    // pmixpp's extension slot, from PMIx_server_init's info
    // (PMIXPP_SERVER_SESSION_CONTROL); nullptr when the host gave none.
    void set_session_control(pmixpp_server_session_control_fn_t fn) { session_control_ = fn; }
    pmixpp_server_session_control_fn_t session_control() const { return session_control_; }

private:
    pmix_server_module_t slots_{};
    pmixpp_server_session_control_fn_t session_control_ = nullptr;
};

// Completion of one upcall that answers through a pmix_op_cbfunc_t.
//
//   start_op([&](pmix_op_cbfunc_t cb, void *cbdata) { return host.abort(..., cb, cbdata); },
//                 [peer](pmix_status_t st) { reply(peer, st); });
//
// The upcall's return decides: PMIX_SUCCESS waits for the callback,
// PMIX_OPERATION_SUCCEEDED completes with PMIX_SUCCESS now, an error
// completes with that error now. `done` always runs on the progress thread.
using Upcall = std::function<pmix_status_t(pmix_op_cbfunc_t cbfunc, void *cbdata)>;
using Done = std::function<void(pmix_status_t status)>;
void start_op(const Upcall &upcall, Done done);

// The trampoline of start_op, exposed for upcalls with other callback types
// that still end in an op callback.
void op_callback(pmix_status_t status, void *cbdata);

}  // namespace pmixpp::server::host

#endif
