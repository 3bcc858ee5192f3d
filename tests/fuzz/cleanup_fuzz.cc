// Fuzz target: registered cleanup's path handling (RFC0027,
// docs/cleanup.md, src/server/cleanup/paths.h and rules.h): what a client's
// PMIx_Job_control(PMIX_REGISTER_CLEANUP*, PMIX_CLEANUP_*) directives turn
// into before anything touches the file system. The walk itself (walker.h)
// removes files and is not fuzzed: a fuzzer would be choosing what to delete.
//
// Input: byte 0 chooses the mode.
//   0: the rest is one comma-delimited path list: split_list, then
//      normalize_path of each entry (absolute, no "..", not "/", no "//",
//      "." or trailing "/" left, and idempotent).
//   1: the rest is a directive array (u32 count + pmix_info_t, the wire
//      encoding of JobControlRequest::directives), cut in two requests at
//      the place byte 1 says: each is parsed and merged into one scope's
//      CleanupSet under two owners, as the server does.
#include "fuzz_support.h"

#include <string>

#include "server/cleanup/paths.h"
#include "server/cleanup/rules.h"

namespace {

using namespace pmixpp::cleanup;

bool is_normal(const std::string &path)
{
    if (path.size() < 2 || path.front() != '/' || path.back() == '/') return false;
    if (path.find("//") != std::string::npos) return false;
    for (const char *bad : {"/./", "/../"}) {
        if (path.find(bad) != std::string::npos) return false;
    }
    return !path.ends_with("/.") && !path.ends_with("/..");
}

void path_list(std::string_view list)
{
    for (const std::string &entry : split_list(list)) {
        FUZZ_CHECK(!entry.empty() && entry.find(',') == std::string::npos);
        std::string normal;
        std::string why;
        if (normalize_path(entry, &normal, &why) != PMIX_SUCCESS) {
            FUZZ_CHECK(!why.empty());
            continue;
        }
        FUZZ_CHECK(is_normal(normal));
        std::string again;
        FUZZ_CHECK(normalize_path(normal, &again, &why) == PMIX_SUCCESS && again == normal);
    }
}

void check_set(const CleanupSet &set)
{
    for (const FileEntry &file : set.files()) {
        FUZZ_CHECK(is_normal(file.path));
        FUZZ_CHECK(set.ignores().count(file.path) == 0);
    }
    for (const DirectoryEntry &dir : set.directories()) {
        FUZZ_CHECK(is_normal(dir.path));
        FUZZ_CHECK(set.ignores().count(dir.path) == 0);
    }
    for (const std::string &ignored : set.ignores()) FUZZ_CHECK(is_normal(ignored));
}

void directives(std::span<const uint8_t> bytes, size_t cut_hint)
{
    pmixpp::wire::InfoArray info;
    if (pmixpp_fuzz::decode_info_array(bytes, &info) != PMIX_SUCCESS) return;
    (void)is_cleanup_request(info.data(), info.size());
    const size_t cut = info.empty() ? 0 : cut_hint % (info.size() + 1);
    const std::pair<size_t, size_t> requests[] = {{0, cut}, {cut, info.size() - cut}};
    const Owner owners[] = {{1000, 1000}, {1000, 1001}};
    CleanupSet set;
    for (int i = 0; i < 2; ++i) {
        Registration reg;
        std::string why;
        const auto [first, count] = requests[i];
        pmix_status_t rc = parse_registration(info.data() + first, count, &reg, &why);
        if (rc != PMIX_SUCCESS) {
            FUZZ_CHECK(!why.empty());
            continue;
        }
        for (const auto *paths : {&reg.files, &reg.directories, &reg.ignores}) {
            for (const std::string &path : *paths) FUZZ_CHECK(is_normal(path));
        }
        if (set.check(reg, &why) != PMIX_SUCCESS) {
            FUZZ_CHECK(!why.empty());
            continue;
        }
        set.merge(reg, owners[i]);
        check_set(set);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    if (data[0] % 2 == 0) {
        path_list(pmixpp_fuzz::as_text(std::span<const uint8_t>(data + 1, size - 1)));
    } else {
        directives(std::span<const uint8_t>(data + 2, size - 2), data[1]);
    }
    return 0;
}
