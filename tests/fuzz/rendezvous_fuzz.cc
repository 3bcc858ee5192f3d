// Fuzz target: rendezvous-file parsing (src/common/rendezvous): the text of
// pmix.sys.<host>, pmix.<host>.<pid> and the other rendezvous files, which a
// tool reads from a shared tmpdir another user may have written. read_file's
// own checks (no link, a regular file, at most 64 KiB, not writable by
// others) come before the text reaches parse().
//
// Input: the file's text. Whatever parses is formatted again, and that text
// parses to the same Contact. The same text goes to parse_openpmix too (a
// tool reads OpenPMIx's files, pmix.<host>.tool*, in the same tmpdirs).
#include "fuzz_support.h"

#include <string>

#include "common/rendezvous/rendezvous.h"

namespace {

using namespace pmixpp::rendezvous;

// OpenPMIx's text: refused with a reason, or one non-empty URI, a name a
// path component can carry, a version, and a pid only with its ids.
void check_openpmix_text(std::string_view text)
{
    Contact contact;
    std::string error;
    const pmix_status_t rc = parse_openpmix(text, &contact, &error);
    if (rc != PMIX_SUCCESS) {
        FUZZ_CHECK(rc == PMIX_ERR_BAD_PARAM && !error.empty());
        return;
    }
    FUZZ_CHECK(contact.openpmix_only && contact.uris.size() == 1 && !contact.uris.front().empty());
    FUZZ_CHECK(!contact.server_nspace.empty() && contact.server_nspace.size() <= PMIX_MAX_NSLEN);
    FUZZ_CHECK(contact.server_nspace.find('\n') == std::string::npos && !contact.library_version.empty());
    FUZZ_CHECK(contact.pid >= 0 && contact.start_time.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024) return 0;  // read_file refuses bigger files
    check_openpmix_text(pmixpp_fuzz::as_text(std::span<const uint8_t>(data, size)));
    Contact contact;
    std::string error;
    const pmix_status_t rc = parse(pmixpp_fuzz::as_text(std::span<const uint8_t>(data, size)), &contact, &error);
    if (rc != PMIX_SUCCESS) {
        FUZZ_CHECK(rc == PMIX_ERR_BAD_PARAM && !error.empty());
        return 0;
    }
    const std::string text = format(contact);
    Contact again;
    FUZZ_CHECK(parse(text, &again, &error) == PMIX_SUCCESS);
    FUZZ_CHECK(again.uris == contact.uris && again.server_nspace == contact.server_nspace &&
               again.server_rank == contact.server_rank && again.library_version == contact.library_version &&
               again.pid == contact.pid && again.uid == contact.uid && again.gid == contact.gid &&
               again.start_time == contact.start_time);
    // The names a reader builds from a parsed nspace stay one path component.
    const std::string name = nspace_file_name("host", contact.server_nspace);
    (void)name;
    return 0;
}
