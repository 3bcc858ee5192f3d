// PMIx_server_setup_application and PMIx_server_setup_local_support: every
// active pnet component is asked, none of them may block the host, and the
// host's callback runs once, on the progress thread, after the call
// returned, when the last component answered (or ran out of time).
//
// A component may answer at once (PMIX_OPERATION_SUCCEEDED) or later through
// its done callback, from any thread (a remote token service, say). One that
// fails, or does not answer within PMIX_MCA_pmix_server_pnet_timeout
// seconds (default 30), is named in one line and left out; the others'
// results still reach the host. The info a component is handed stays valid
// until the whole call completes.
#ifndef PMIXPP_SERVER_PNET_SETUP_CALLS_H
#define PMIXPP_SERVER_PNET_SETUP_CALLS_H

#include "common/runtime/progress_engine.h"
#include "common/wire/messages_array.h"

#include <pmix_server.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pmixpp::server {
class Server;
}

namespace pmixpp::server::pnet {

// One call in progress.
struct SetupCall {
    enum class Kind { application, local_support };
    enum class Answer { pending, done, failed };

    uint64_t id = 0;
    Kind kind = Kind::application;
    std::string nspace;
    wire::InfoArray info;  // what components are handed
    std::vector<std::string> components;
    std::vector<Answer> answers;
    std::vector<void *> lists;  // application: one PMIx_Info_list per component
    std::size_t pending = 0;
    pmix_status_t first_failure = PMIX_SUCCESS;
    runtime::Timer timer;
    bool envars_only = false;     // PMIX_SETUP_APP_ENVARS
    bool nonenvars_only = false;  // PMIX_SETUP_APP_NONENVARS
    pmix_setup_application_cbfunc_t app_cbfunc = nullptr;
    pmix_op_cbfunc_t op_cbfunc = nullptr;
    void *cbdata = nullptr;

    SetupCall() = default;
    SetupCall(const SetupCall &) = delete;
    SetupCall &operator=(const SetupCall &) = delete;
    ~SetupCall();
};

struct SetupCalls {
    std::map<uint64_t, std::unique_ptr<SetupCall>> calls;
    uint64_t next_id = 1;
};

pmix_status_t start_application(Server &server, const std::string &nspace, const pmix_info_t info[], std::size_t ninfo,
                                pmix_setup_application_cbfunc_t cbfunc, void *cbdata);
pmix_status_t start_local_support(Server &server, const std::string &nspace, const pmix_info_t info[],
                                  std::size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

// PMIx_server_finalize: calls still waiting answer their host with
// PMIX_ERR_LOST_CONNECTION.
void fail_pending_calls(Server &server);

}  // namespace pmixpp::server::pnet

#endif
