#include "common/openpmix/commands.h"

namespace pmixpp::openpmix {

const char *command_name(Command command)
{
    switch (command) {
    case Command::req: return "init (REQ)";
    case Command::abort: return "abort";
    case Command::commit: return "commit";
    case Command::fence: return "fence";
    case Command::get: return "get";
    case Command::finalize: return "finalize";
    case Command::publish: return "publish";
    case Command::lookup: return "lookup";
    case Command::unpublish: return "unpublish";
    case Command::spawn: return "spawn";
    case Command::connect: return "connect";
    case Command::disconnect: return "disconnect";
    case Command::notify: return "notify";
    case Command::register_events: return "register events";
    case Command::deregister_events: return "deregister events";
    case Command::query: return "query";
    case Command::log: return "log";
    case Command::allocate: return "allocate";
    case Command::job_control: return "job control";
    case Command::monitor: return "monitor";
    case Command::get_credential: return "get credential";
    case Command::validate_credential: return "validate credential";
    case Command::iof_pull: return "IOF pull";
    case Command::iof_push: return "IOF push";
    case Command::group_construct: return "group construct";
    case Command::group_join: return "group join";
    case Command::group_invite: return "group invite";
    case Command::group_leave: return "group leave";
    case Command::group_destruct: return "group destruct";
    case Command::iof_deregister: return "IOF deregister";
    case Command::fabric_register: return "fabric register";
    case Command::fabric_update: return "fabric update";
    case Command::compute_device_distances: return "device distances";
    case Command::resource_block: return "resource block";
    case Command::session_control: return "session control";
    case Command::request_sysinfo: return "system info";
    case Command::resolve_peers: return "resolve peers";
    case Command::resolve_node: return "resolve node";
    }
    return "unknown command";
}

}  // namespace pmixpp::openpmix
