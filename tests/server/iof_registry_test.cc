// The server's IOF bookkeeping (server/iof/iof_registry.h): which pulls want
// a chunk, the per-connection bound, removal, and the recent-output cache
// with its byte and stream bounds.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "server/iof/iof_registry.h"

using namespace pmixpp::server;
using namespace pmixpp::server::iof;

namespace {

pmix_proc_t proc(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t p{};
    PMIX_LOAD_PROCID(&p, nspace, rank);
    return p;
}

uint64_t add_active(IofRegistry &registry, PeerId owner, pmix_proc_t wanted, uint16_t channels)
{
    uint64_t id = 0;
    cr_assert_eq(registry.add(owner, {wanted}, channels, &id), PMIX_SUCCESS);
    registry.find(owner, id)->active = true;
    return id;
}

std::string tail_of(const CachedStream &stream)
{
    return std::string(stream.tail.begin(), stream.tail.end());
}

}  // namespace

Test(iof_registry, matching_by_proc_wildcard_and_channel)
{
    IofRegistry registry;
    add_active(registry, 1, proc("job", PMIX_RANK_WILDCARD), PMIX_FWD_STDOUT_CHANNEL);
    add_active(registry, 2, proc("job", 3), PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL);
    add_active(registry, 3, proc("other", PMIX_RANK_WILDCARD), PMIX_FWD_STDOUT_CHANNEL);
    cr_expect_eq(registry.matching(proc("job", 3), PMIX_FWD_STDOUT_CHANNEL, kNoPeer).size(), 2u);
    cr_expect_eq(registry.matching(proc("job", 3), PMIX_FWD_STDERR_CHANNEL, kNoPeer).size(), 1u);
    cr_expect_eq(registry.matching(proc("job", 4), PMIX_FWD_STDOUT_CHANNEL, kNoPeer).size(), 1u);
    cr_expect_eq(registry.matching(proc("job", 4), PMIX_FWD_STDDIAG_CHANNEL, kNoPeer).size(), 0u);
    // A puller never gets its own output.
    cr_expect_eq(registry.matching(proc("job", 3), PMIX_FWD_STDOUT_CHANNEL, 1).size(), 1u);
}

Test(iof_registry, pending_pulls_get_nothing)
{
    IofRegistry registry;
    uint64_t id = 0;
    cr_assert_eq(registry.add(1, {proc("job", 0)}, PMIX_FWD_STDOUT_CHANNEL, &id), PMIX_SUCCESS);
    cr_expect_eq(registry.matching(proc("job", 0), PMIX_FWD_STDOUT_CHANNEL, kNoPeer).size(), 0u);
}

Test(iof_registry, bound_per_connection_and_removal)
{
    IofRegistry registry;
    uint64_t id = 0;
    for (std::size_t i = 0; i < kMaxPullsPerPeer; ++i) {
        cr_assert_eq(registry.add(1, {proc("job", 0)}, PMIX_FWD_STDOUT_CHANNEL, &id), PMIX_SUCCESS);
    }
    cr_expect_eq(registry.add(1, {proc("job", 0)}, PMIX_FWD_STDOUT_CHANNEL, &id), PMIX_ERR_OUT_OF_RESOURCE);
    cr_expect_eq(registry.add(2, {proc("job", 0)}, PMIX_FWD_STDOUT_CHANNEL, &id), PMIX_SUCCESS);
    cr_expect_eq(registry.remove(1, id), PMIX_ERR_NOT_FOUND, "another connection's pull");
    cr_expect_eq(registry.remove(2, id), PMIX_SUCCESS);
    cr_expect_eq(registry.remove(2, id), PMIX_ERR_NOT_FOUND);
    registry.remove_owner(1);
    cr_expect_eq(registry.add(1, {proc("job", 0)}, PMIX_FWD_STDOUT_CHANNEL, &id), PMIX_SUCCESS);
}

Test(iof_registry, cache_keeps_the_last_bytes_of_each_stream)
{
    setenv(kCacheSizeEnv, "8", 1);
    IofRegistry registry;
    cr_assert_eq(registry.cache_bytes(), 8u);
    registry.remember(proc("job", 0), PMIX_FWD_STDOUT_CHANNEL, reinterpret_cast<const uint8_t *>("abcdef"), 6);
    registry.remember(proc("job", 0), PMIX_FWD_STDOUT_CHANNEL, reinterpret_cast<const uint8_t *>("ghij"), 4);
    registry.remember(proc("job", 0), PMIX_FWD_STDERR_CHANNEL, reinterpret_cast<const uint8_t *>("0123456789"), 10);
    Pull pull;
    pull.procs = {proc("job", PMIX_RANK_WILDCARD)};
    pull.channels = PMIX_FWD_STDOUT_CHANNEL;
    auto streams = registry.cached_for(pull);
    cr_assert_eq(streams.size(), 1u);
    const std::string stdout_tail = tail_of(*streams[0]);
    cr_expect(stdout_tail == "cdefghij", "stdout tail '%s'", stdout_tail.c_str());
    pull.channels = PMIX_FWD_STDERR_CHANNEL;
    streams = registry.cached_for(pull);
    cr_assert_eq(streams.size(), 1u);
    const std::string stderr_tail = tail_of(*streams[0]);
    cr_expect(stderr_tail == "23456789", "stderr tail '%s'", stderr_tail.c_str());
}

Test(iof_registry, cache_off_and_stream_bound)
{
    setenv(kCacheSizeEnv, "0", 1);
    IofRegistry off;
    off.remember(proc("job", 0), PMIX_FWD_STDOUT_CHANNEL, reinterpret_cast<const uint8_t *>("x"), 1);
    Pull pull;
    pull.procs = {proc("job", PMIX_RANK_WILDCARD)};
    pull.channels = PMIX_FWD_STDOUT_CHANNEL;
    cr_expect_eq(off.cached_for(pull).size(), 0u);

    unsetenv(kCacheSizeEnv);
    IofRegistry registry;
    for (pmix_rank_t r = 0; r < kMaxCachedStreams + 5; ++r) {
        registry.remember(proc("job", r), PMIX_FWD_STDOUT_CHANNEL, reinterpret_cast<const uint8_t *>("x"), 1);
    }
    cr_expect_eq(registry.cached_for(pull).size(), kMaxCachedStreams);
    cr_expect_eq(registry.streams_not_cached(), 5u);
}
