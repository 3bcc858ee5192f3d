// OpenPMIx's command codes (its pmix_cmd_t, one byte, the first PACK call of
// every request). Which of them pmixpp answers, and how each maps onto our
// own requests, is in server/openpmix/requests.cc.
#ifndef PMIXPP_COMMON_OPENPMIX_COMMANDS_H
#define PMIXPP_COMMON_OPENPMIX_COMMANDS_H

#include <cstdint>

namespace pmixpp::openpmix {

enum class Command : uint8_t {
    req = 0,  // PMIx_Init: the job data
    abort = 1,
    commit = 2,
    fence = 3,
    get = 4,
    finalize = 5,
    publish = 6,
    lookup = 7,
    unpublish = 8,
    spawn = 9,
    connect = 10,
    disconnect = 11,
    notify = 12,
    register_events = 13,
    deregister_events = 14,
    query = 15,
    log = 16,
    allocate = 17,
    job_control = 18,
    monitor = 19,
    get_credential = 20,
    validate_credential = 21,
    iof_pull = 22,
    iof_push = 23,
    group_construct = 24,
    group_join = 25,
    group_invite = 26,
    group_leave = 27,
    group_destruct = 28,
    iof_deregister = 29,
    fabric_register = 30,
    fabric_update = 31,
    compute_device_distances = 32,
    // OpenPMIx 6 and 5.
    resource_block = 34,
    session_control = 35,
    request_sysinfo = 36,
    resolve_peers = 37,
    resolve_node = 38,
};

const char *command_name(Command command);

}  // namespace pmixpp::openpmix

#endif
