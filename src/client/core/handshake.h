// Connecting to the server and the Hello/Welcome exchange, done with
// blocking I/O on the caller's thread before a wire::Connection owns the fd.
#ifndef PMIXPP_CLIENT_CORE_HANDSHAKE_H
#define PMIXPP_CLIENT_CORE_HANDSHAKE_H

#include <memory>
#include <string>

#include <pmix_common.h>

#include "client/core/discovery.h"
#include "client/openpmix/handshake.h"
#include "common/store/store.h"
#include "common/wire/messages.h"

namespace pmixpp::client {

struct Session;

struct Greeted {
    int fd = -1;  // connected, handshake done; the caller owns it
    wire::Welcome welcome;
    std::unique_ptr<store::Store> store;  // the job data of the Welcome, imported
    // The store could not use the Welcome's job data where it lives (a
    // gds/shmem segment this process cannot map): it is empty, and the
    // caller must fetch a private copy (fetch_private_job_data) once connected.
    bool needs_private_copy = false;
    std::string ptl;   // the transport component that connected
    std::string psec;  // the security component that made our credential
    // Set when the server speaks OpenPMIx's protocol: the link translates.
    OpenPmixGreeting openpmix;
};

// Connects with the best selected ptl that handles one of contact.uris,
// authenticates with psec and imports the Welcome's job data into a new
// store of the gds module the server chose. On a Refuse returns its status
// (e.g. PMIX_ERR_INVALID_CRED) after logging the server's reason once.
pmix_status_t connect_and_greet(const ServerContact &contact, Greeted *greeted_p);

// Asks the server for a copy of our namespace's job data that carries the
// data itself and imports it into session.store. Not on the progress thread.
pmix_status_t fetch_private_job_data(const std::shared_ptr<Session> &session);

// A new store of the gds module named `name` (the best selected one when
// name is empty or unknown).
pmix_status_t create_store(const std::string &name, std::unique_ptr<store::Store> *store_p);

}  // namespace pmixpp::client

#endif
