// A server run in the test process, whose host then calls the client API
// (host mode): host_mode_test.cc and host_as_client_test.cc. The server is
// "hostsrv" rank 7 on node "hosttest-node", with a 2-rank job "hostjob",
// in a fresh private tmpdir that stop_server() removes.
#ifndef PMIXPP_TESTS_CLIENT_HOST_FIXTURE_H
#define PMIXPP_TESTS_CLIENT_HOST_FIXTURE_H

#include <pmix_server.h>

#include <cstddef>

namespace host_test {

inline constexpr const char *kHost = "hosttest-node";
inline constexpr const char *kJob = "hostjob";
inline constexpr const char *kServerNspace = "hostsrv";
inline constexpr pmix_rank_t kServerRank = 7;

// `extra` goes to PMIx_server_init after the fixture's own info.
void start_server(pmix_server_module_t *module = nullptr, const pmix_info_t extra[] = nullptr, std::size_t nextra = 0);
void stop_server();

}  // namespace host_test

#endif
