// pnet/simfabric: the files the simulated fabric keeps in a namespace's
// session directory (PMIX_NSDIR), one kind per lifecycle step:
//   simfab.table         the node's address table   (setup_local_support ..
//                                                     deregister_nspace)
//   simfab.app<N>.ctx    one per local application  (setup_local_support ..
//                                                     local_app_finalized)
//   simfab.rank<R>.port  one per local child        (setup_fork ..
//                                                     child_finalized)
#ifndef PMIXPP_PNET_SIMFABRIC_FILES_H
#define PMIXPP_PNET_SIMFABRIC_FILES_H

#include <cstdint>
#include <string>

namespace simfabric {

std::string table_path(const std::string &nsdir);
std::string app_path(const std::string &nsdir, uint32_t appnum);
std::string port_path(const std::string &nsdir, uint32_t rank);

// Writes `text` to path (mode 0600, replacing it atomically). False with
// *why_p on failure.
bool write_file(const std::string &path, const std::string &text, std::string *why_p);
// Removes path; an absent file is fine.
void remove_file(const std::string &path);

}  // namespace simfabric

#endif
