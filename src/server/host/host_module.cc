#include "server/host/host_module.h"

#include "common/runtime/progress_engine.h"

#include <cstring>
#include <memory>
#include <new>

namespace pmixpp::server::host {

void HostModule::install(const pmix_server_module_t *module)
{
    slots_ = pmix_server_module_t{};
    if (module != nullptr) {
        // Exactly the 4.2 size: a host compiled against that header owns no
        // byte beyond it.
        std::memcpy(&slots_, module, sizeof(pmix_server_module_t));
    }
}

namespace {

struct PendingOp {
    Done done;
    // Set by the callback (possibly on a host thread, possibly before the
    // upcall returned) so that the upcall's return value is not used too.
    std::atomic<bool> called{false};
};

void finish(PendingOp *op, pmix_status_t status)
{
    std::unique_ptr<PendingOp> owned(op);
    if (owned->done) owned->done(status);
}

}  // namespace

void op_callback(pmix_status_t status, void *cbdata)
{
    auto *op = static_cast<PendingOp *>(cbdata);
    if (op == nullptr) return;
    op->called.store(true);
    auto &engine = runtime::ProgressEngine::process();
    if (engine.post([op, status] { finish(op, status); }) != PMIX_SUCCESS) {
        // The server is gone: nobody waits any more.
        delete op;
    }
}

void start_op(const Upcall &upcall, Done done)
{
    PendingOp *op = nullptr;
    try {
        op = new PendingOp{std::move(done)};
    } catch (const std::bad_alloc &) {
        if (done) done(PMIX_ERR_NOMEM);
        return;
    }
    const pmix_status_t rc = upcall(op_callback, op);
    if (rc == PMIX_SUCCESS || op->called.load()) {
        return;  // the callback completes it
    }
    finish(op, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

}  // namespace pmixpp::server::host
