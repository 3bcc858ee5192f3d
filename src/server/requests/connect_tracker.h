// Connects and disconnects in progress (connect.cc): one tracker for both
// kinds, the kind being part of the signature.
#ifndef PMIXPP_SERVER_REQUESTS_CONNECT_TRACKER_H
#define PMIXPP_SERVER_REQUESTS_CONNECT_TRACKER_H

#include "server/requests/collective_tracker.h"

namespace pmixpp::server {

struct ConnectCollective : LocalCollective {
    bool disconnect = false;  // which host upcall it ends in
    bool all_local = false;   // every participant lives here: no host needed
};

using ConnectTracker = CollectiveTracker<ConnectCollective>;

}  // namespace pmixpp::server

#endif
