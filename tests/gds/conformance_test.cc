// gds conformance: every gds component must pass this suite (CMake runs it
// once per component, PMIXPP_GDS_UNDER_TEST naming it).
#include "gds_fixture.h"

#include <criterion/criterion.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>

using namespace gds_test;
using pmixpp::store::InfoArray;
using pmixpp::store::Store;
using pmixpp::store::ValuePtr;

namespace {

constexpr const char *kNs = "conf.job";

void fill_all_levels(const Store &store, const char *nspace)
{
    const struct {
        pmixpp_gds_level_t level;
        uint32_t id;
    } places[] = {{PMIXPP_GDS_LEVEL_SESSION, 7},
                  {PMIXPP_GDS_LEVEL_JOB, 0},
                  {PMIXPP_GDS_LEVEL_APP, 1},
                  {PMIXPP_GDS_LEVEL_NODE, 3},
                  {PMIXPP_GDS_LEVEL_PROC, 5}};
    for (const auto &p : places) {
        InfoList infos;
        infos.add_u32("test.level", static_cast<uint32_t>(p.level));
        infos.add_u32("test.id", p.id);
        infos.add_string("test.text", "hello");
        cr_assert_eq(store.put(nspace, p.level, p.id, infos.data(), infos.size()), PMIX_SUCCESS);
    }
}

// An address whose level holds `raw`, as a C caller may store any int in
// the enum field; building it through the enum type would be undefined in C++.
pmixpp_gds_address_t address_with_raw_level(const char *nspace, int raw)
{
    pmixpp_gds_address_t addr{nspace, PMIXPP_GDS_LEVEL_JOB, 0};
    static_assert(sizeof raw == sizeof addr.level);
    std::memcpy(&addr.level, &raw, sizeof raw);
    return addr;
}

}  // namespace

Test(gds, stores_and_fetches_every_level)
{
    auto store = new_store();
    fill_all_levels(*store, kNs);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_SESSION, 7, "test.id"), 7u);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, "test.level"),
                 static_cast<uint32_t>(PMIXPP_GDS_LEVEL_JOB));
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_APP, 1, "test.id"), 1u);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_NODE, 3, "test.id"), 3u);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 5, "test.id"), 5u);
    cr_assert_eq(fetch_string(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 5, "test.text"), "hello");
    // Levels are separate: same id, other level, nothing there.
    ValuePtr value;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 3, "test.id", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_NODE, 5, "test.id", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 5, "test.absent", &value), PMIX_ERR_NOT_FOUND);
}

Test(gds, a_key_stored_again_is_replaced)
{
    auto store = new_store();
    InfoList first;
    first.add_u32("k", 1);
    InfoList second;
    second.add_u32("k", 2);
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_PROC, 0, first.data(), 1), PMIX_SUCCESS);
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_PROC, 0, second.data(), 1), PMIX_SUCCESS);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_PROC, 0, "k"), 2u);
    InfoArray all;
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_PROC, 0, &all), PMIX_SUCCESS);
    cr_assert_eq(all.size(), 1u);
}

Test(gds, fetch_all_returns_every_key_of_one_place)
{
    auto store = new_store();
    fill_all_levels(*store, kNs);
    InfoArray all;
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_NODE, 3, &all), PMIX_SUCCESS);
    cr_assert_eq(all.size(), 3u);
    bool seen_text = false;
    for (const pmix_info_t &info : all) {
        if (std::strcmp(info.key, "test.text") == 0) {
            seen_text = info.value.type == PMIX_STRING && std::strcmp(info.value.data.string, "hello") == 0;
        }
    }
    cr_assert(seen_text);
    cr_assert_eq(store->fetch_all(kNs, PMIXPP_GDS_LEVEL_NODE, 4, &all), PMIX_ERR_NOT_FOUND);
}

Test(gds, modex_scopes_decide_who_sees_a_key)
{
    auto store = new_store();
    InfoList local, remote, global;
    local.add_u32("m.local", 1);
    remote.add_u32("m.remote", 2);
    global.add_bytes("m.global", "abc", 3);
    cr_assert_eq(store->put_modex(kNs, 4, PMIX_LOCAL, local.data(), 1), PMIX_SUCCESS);
    cr_assert_eq(store->put_modex(kNs, 4, PMIX_REMOTE, remote.data(), 1), PMIX_SUCCESS);
    cr_assert_eq(store->put_modex(kNs, 4, PMIX_GLOBAL, global.data(), 1), PMIX_SUCCESS);
    ValuePtr value;
    cr_assert_eq(store->fetch_modex(kNs, 4, PMIX_LOCAL, "m.local", &value), PMIX_SUCCESS);
    cr_assert_eq(store->fetch_modex(kNs, 4, PMIX_REMOTE, "m.local", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch_modex(kNs, 4, PMIX_LOCAL, "m.remote", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch_modex(kNs, 4, PMIX_REMOTE, "m.global", &value), PMIX_SUCCESS);
    cr_assert_eq(value->type, PMIX_BYTE_OBJECT);
    cr_assert_eq(value->data.bo.size, 3u);
    cr_assert_eq(std::memcmp(value->data.bo.bytes, "abc", 3), 0);
    InfoArray all;
    cr_assert_eq(store->fetch_modex_all(kNs, 4, PMIX_REMOTE, &all), PMIX_SUCCESS);
    cr_assert_eq(all.size(), 2u);
    cr_assert_eq(store->fetch_modex_all(kNs, 4, PMIX_GLOBAL, &all), PMIX_SUCCESS);
    cr_assert_eq(all.size(), 3u);
    // Modex data is kept apart from registered data.
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 4, "m.global", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->put_modex(kNs, 4, PMIX_SCOPE_UNDEF, global.data(), 1), PMIX_ERR_BAD_PARAM);
}

Test(gds, hostnames_and_aliases_find_their_node)
{
    auto store = new_store();
    InfoList node;
    node.add_string(PMIX_HOSTNAME, "n017");
    node.add_string(PMIX_HOSTNAME_ALIASES, "n017.cluster,10.0.0.17");
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_NODE, 17, node.data(), node.size()), PMIX_SUCCESS);
    uint32_t nodeid = 0;
    cr_assert_eq(store->lookup_node(kNs, "n017", &nodeid), PMIX_SUCCESS);
    cr_assert_eq(nodeid, 17u);
    cr_assert_eq(store->lookup_node(kNs, "10.0.0.17", &nodeid), PMIX_SUCCESS);
    cr_assert_eq(nodeid, 17u);
    cr_assert_eq(store->lookup_node(kNs, "n018", &nodeid), PMIX_ERR_NOT_FOUND);
}

Test(gds, unknown_nspace_is_not_found)
{
    auto store = new_store();
    ValuePtr value;
    InfoArray all;
    pmix_byte_object_t blob{};
    uint32_t nodeid = 0;
    cr_assert_eq(store->fetch("nobody", PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_SIZE, &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch_all("nobody", PMIXPP_GDS_LEVEL_JOB, 0, &all), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch_modex("nobody", 0, PMIX_GLOBAL, "x", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->lookup_node("nobody", "n0", &nodeid), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->remove_nspace("nobody"), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->export_nspace("nobody", &blob), PMIX_ERR_NOT_FOUND);
    cr_assert_not(store->has_nspace("nobody"));
}

Test(gds, bad_arguments_are_refused)
{
    auto store = new_store();
    InfoList infos;
    infos.add_u32("k", 1);
    std::string long_ns(PMIX_MAX_NSLEN + 1, 'x');
    cr_assert_eq(store->put("", PMIXPP_GDS_LEVEL_JOB, 0, infos.data(), 1), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(store->put(long_ns.c_str(), PMIXPP_GDS_LEVEL_JOB, 0, infos.data(), 1), PMIX_ERR_BAD_PARAM);
    for (const int raw : {9, PMIXPP_GDS_NUM_LEVELS, -1}) {
        const pmixpp_gds_address_t bad_level = address_with_raw_level(kNs, raw);
        cr_assert_eq(store->module().store(store->handle(), &bad_level, infos.data(), 1), PMIX_ERR_BAD_PARAM,
                     "level %d", raw);
    }
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, nullptr, 1), PMIX_ERR_BAD_PARAM);
    ValuePtr value;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_JOB, 0, nullptr, &value), PMIX_ERR_BAD_PARAM);
}

Test(gds, remove_nspace_forgets_everything_of_it)
{
    auto store = new_store();
    fill_all_levels(*store, kNs);
    fill_all_levels(*store, "other.job");
    InfoList m;
    m.add_u32("m", 1);
    cr_assert_eq(store->put_modex(kNs, 0, PMIX_GLOBAL, m.data(), 1), PMIX_SUCCESS);
    cr_assert_eq(store->remove_nspace(kNs), PMIX_SUCCESS);
    cr_assert_not(store->has_nspace(kNs));
    ValuePtr value;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.id", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch_modex(kNs, 0, PMIX_GLOBAL, "m", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(fetch_u32(*store, "other.job", PMIXPP_GDS_LEVEL_PROC, 5, "test.id"), 5u);
}

Test(gds, export_then_import_rebuilds_the_registered_data)
{
    auto server = new_store();
    fill_all_levels(*server, kNs);
    InfoList node;
    node.add_string(PMIX_HOSTNAME, "alpha");
    cr_assert_eq(server->put(kNs, PMIXPP_GDS_LEVEL_NODE, 3, node.data(), 1), PMIX_SUCCESS);
    InfoList m;
    m.add_u32("m", 1);
    cr_assert_eq(server->put_modex(kNs, 0, PMIX_GLOBAL, m.data(), 1), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(server->export_nspace(kNs, &blob), PMIX_SUCCESS);
    cr_assert_gt(blob.size, 0u);

    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_SESSION, 7, "test.id"), 7u);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_APP, 1, "test.id"), 1u);
    cr_assert_eq(fetch_string(*client, kNs, PMIXPP_GDS_LEVEL_PROC, 5, "test.text"), "hello");
    uint32_t nodeid = 0;
    cr_assert_eq(client->lookup_node(kNs, "alpha", &nodeid), PMIX_SUCCESS);
    cr_assert_eq(nodeid, 3u);
    ValuePtr value;
    cr_assert_eq(client->fetch_modex(kNs, 0, PMIX_GLOBAL, "m", &value), PMIX_ERR_NOT_FOUND,
                 "modex data must not travel with the job data");
    // The object is for one namespace only.
    cr_assert_neq(client->import_nspace("another", blob), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
}

Test(gds, a_malformed_import_changes_nothing)
{
    auto server = new_store();
    fill_all_levels(*server, kNs);
    pmix_byte_object_t blob{};
    cr_assert_eq(server->export_nspace(kNs, &blob), PMIX_SUCCESS);
    auto client = new_store();
    for (size_t cut = 1; cut < blob.size; cut += 7) {
        pmix_byte_object_t truncated{blob.bytes, cut};
        cr_assert_neq(client->import_nspace(kNs, truncated), PMIX_SUCCESS, "cut at %zu accepted", cut);
    }
    char garbage[64];
    std::memset(garbage, 0x5a, sizeof garbage);
    pmix_byte_object_t junk{garbage, sizeof garbage};
    cr_assert_neq(client->import_nspace(kNs, junk), PMIX_SUCCESS);
    cr_assert_not(client->has_nspace(kNs));
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
}

Test(gds, stores_keep_apart)
{
    auto a = new_store();
    auto b = new_store();
    fill_all_levels(*a, kNs);
    cr_assert(a->has_nspace(kNs));
    cr_assert_not(b->has_nspace(kNs));
}

// Readers fetch while a writer keeps storing: every fetch sees a whole value.
Test(gds, fetch_is_safe_while_another_thread_stores)
{
    auto store = new_store();
    InfoList seed;
    seed.add_string("shared", "v0");
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, seed.data(), 1), PMIX_SUCCESS);
    constexpr int kRounds = 20000;
    std::atomic<bool> done{false};
    std::atomic<int> bad{0};
    std::thread writer([&] {
        for (int i = 0; i < kRounds; ++i) {
            InfoList infos;
            infos.add_string("shared", (i % 2) ? "value-odd" : "value-even");
            infos.add_u32("counter", static_cast<uint32_t>(i));
            if (store->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, infos.data(), infos.size()) != PMIX_SUCCESS) ++bad;
            if (store->put(kNs, PMIXPP_GDS_LEVEL_PROC, static_cast<uint32_t>(i % 64), infos.data(), 1) != PMIX_SUCCESS)
                ++bad;
        }
        done = true;
    });
    int reads = 0;
    while (!done || reads < 1000) {
        ValuePtr value;
        if (store->fetch(kNs, PMIXPP_GDS_LEVEL_JOB, 0, "shared", &value) != PMIX_SUCCESS) {
            ++bad;
        } else if (value->type != PMIX_STRING ||
                   (std::strcmp(value->data.string, "v0") != 0 && std::strcmp(value->data.string, "value-odd") != 0 &&
                    std::strcmp(value->data.string, "value-even") != 0)) {
            ++bad;
        }
        ++reads;
        if (reads > 10 * kRounds && done) break;
    }
    writer.join();
    cr_assert_eq(bad.load(), 0);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "counter"), static_cast<uint32_t>(kRounds - 1));
}

// The export is read by another process (a client): for shmem this maps the
// server's segment across processes.
Test(gds, export_is_imported_by_another_process)
{
    auto server = new_store();
    fill_all_levels(*server, kNs);
    InfoList node;
    node.add_string(PMIX_HOSTNAME, "beta");
    node.add_string(PMIX_HOSTNAME_ALIASES, "beta.cluster");
    cr_assert_eq(server->put(kNs, PMIXPP_GDS_LEVEL_NODE, 3, node.data(), node.size()), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(server->export_nspace(kNs, &blob), PMIX_SUCCESS);
    const int failures = in_child_process([&] {
        auto client = new_store();
        int bad = client->import_nspace(kNs, blob) != PMIX_SUCCESS;
        bad += !child_expect_u32(*client, kNs, PMIXPP_GDS_LEVEL_SESSION, 7, "test.id", 7);
        bad += !child_expect_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, PMIX_RANK_WILDCARD, "test.level",
                                 PMIXPP_GDS_LEVEL_JOB);
        bad += !child_expect_u32(*client, kNs, PMIXPP_GDS_LEVEL_PROC, 5, "test.id", 5);
        uint32_t nodeid = 0;
        bad += client->lookup_node(kNs, "beta.cluster", &nodeid) != PMIX_SUCCESS || nodeid != 3;
        InfoArray all;
        bad += client->fetch_all(kNs, PMIXPP_GDS_LEVEL_NODE, 3, &all) != PMIX_SUCCESS || all.size() != 5;
        return bad;
    });
    cr_assert_eq(failures, 0, "the child saw %d wrong answers", failures);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
}

// Values of every common type come back equal after export and import.
Test(gds, every_value_type_survives_the_round_trip)
{
    auto server = new_store();
    InfoList infos;
    infos.add_u32("t.u32", 42);
    infos.add_string("t.str", "some text");
    infos.add_bytes("t.bytes", "\0\1\2\3", 4);
    infos.add_bytes("t.empty", "", 0);
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, "peer.ns", 9);
    PMIX_INFO_LOAD(&infos.info[infos.n++], "t.proc", &proc, PMIX_PROC);
    double d = 2.5;
    PMIX_INFO_LOAD(&infos.info[infos.n++], "t.double", &d, PMIX_DOUBLE);
    bool flag = true;
    PMIX_INFO_LOAD(&infos.info[infos.n++], "t.bool", &flag, PMIX_BOOL);
    cr_assert_eq(server->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, infos.data(), infos.size()), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(server->export_nspace(kNs, &blob), PMIX_SUCCESS);
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    for (size_t i = 0; i < infos.size(); ++i) {
        ValuePtr value;
        cr_assert_eq(client->fetch(kNs, PMIXPP_GDS_LEVEL_JOB, 0, infos.info[i].key, &value), PMIX_SUCCESS, "%s",
                     infos.info[i].key);
        cr_assert(values_equal(*value, infos.info[i].value), "%s changed on the way", infos.info[i].key);
    }
}

// Readers of the server's store and of an imported copy fetch while a writer
// keeps storing (for shmem every store publishes a new generation): every
// value read is whole, and no reader ever sees an older value after a newer.
Test(gds, fetches_stay_whole_while_new_generations_are_published)
{
    auto server = new_store();
    InfoList seed;
    seed.add_string("shared", "value-0");
    seed.add_u32("counter", 0);
    cr_assert_eq(server->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, seed.data(), seed.size()), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(server->export_nspace(kNs, &blob), PMIX_SUCCESS);
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);

    constexpr uint32_t kRounds = 300;
    std::atomic<bool> done{false};
    std::atomic<int> bad{0};
    std::thread writer([&] {
        for (uint32_t i = 1; i <= kRounds; ++i) {
            InfoList infos;
            const std::string text = "value-" + std::to_string(i);
            infos.add_string("shared", text.c_str());
            infos.add_u32("counter", i);
            if (server->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, infos.data(), infos.size()) != PMIX_SUCCESS) ++bad;
        }
        done = true;
    });
    auto reader = [&](const Store &store) {
        uint32_t last = 0;
        for (int reads = 0; !done || reads < 500; ++reads) {
            const uint32_t seen = read_versioned(store, kNs, "shared", kRounds);
            if (seen == UINT32_MAX || seen < last) ++bad;
            if (seen != UINT32_MAX) last = seen;
        }
    };
    std::thread server_reader(reader, std::cref(*server));
    std::thread client_reader_a(reader, std::cref(*client));
    std::thread client_reader_b(reader, std::cref(*client));
    writer.join();
    server_reader.join();
    client_reader_a.join();
    client_reader_b.join();
    cr_assert_eq(bad.load(), 0, "%d torn, wrong or backward reads", bad.load());
    cr_assert_eq(fetch_u32(*server, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "counter"), kRounds);
}

Test(gds, bad_arguments_get_a_status_everywhere)
{
    auto store = new_store();
    fill_all_levels(*store, kNs);
    const pmixpp_gds_module_t &m = store->module();
    pmixpp_gds_address_t addr{kNs, PMIXPP_GDS_LEVEL_JOB, 0};
    pmix_value_t *value = nullptr;
    pmix_info_t *infos = nullptr;
    size_t ninfo = 0;
    uint32_t nodeid = 0;
    cr_assert_eq(m.fetch(nullptr, &addr, "k", &value), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(m.store(nullptr, &addr, nullptr, 0), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(m.fetch_all(nullptr, &addr, &infos, &ninfo), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(m.import_nspace(nullptr, kNs, nullptr), PMIX_ERR_BAD_PARAM);
    ValuePtr held;
    const pmixpp_gds_address_t bad_level = address_with_raw_level(kNs, 77);
    cr_assert_eq(m.fetch(store->handle(), &bad_level, "k", &value), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(m.fetch_all(store->handle(), &bad_level, &infos, &ninfo), PMIX_ERR_BAD_PARAM);
    cr_assert_eq(store->lookup_node(kNs, nullptr, &nodeid), PMIX_ERR_BAD_PARAM);
    std::string long_key(PMIX_MAX_KEYLEN + 5, 'k');
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_JOB, 0, long_key.c_str(), &held), PMIX_ERR_BAD_PARAM);
    pmix_byte_object_t empty{nullptr, 0};
    cr_assert_neq(store->import_nspace(kNs, empty), PMIX_SUCCESS);
    cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_APP, 1, "test.id"), 1u, "the store still answers");
}

// Text repeated proc after proc (a node's host name) may be shared by a
// store: each proc must still read its own value, also after one of them is
// replaced, and after the namespace is exported and imported.
Test(gds, repeated_text_and_scattered_ranks_read_back_per_proc)
{
    auto store = new_store();
    const uint32_t ranks[] = {0, 1, 2, 3, 200000, 4, 70000, 5};
    for (uint32_t rank : ranks) {
        InfoList infos;
        infos.add_u32("test.rank", rank);
        infos.add_string("test.host", rank < 4 ? "node-a" : "node-b");
        cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_PROC, rank, infos.data(), infos.size()), PMIX_SUCCESS);
    }
    InfoList renamed;
    renamed.add_string("test.host", "node-c");
    cr_assert_eq(store->put(kNs, PMIXPP_GDS_LEVEL_PROC, 2, renamed.data(), renamed.size()), PMIX_SUCCESS);
    for (uint32_t rank : ranks) {
        cr_assert_eq(fetch_u32(*store, kNs, PMIXPP_GDS_LEVEL_PROC, rank, "test.rank"), rank);
        const char *host = rank == 2 ? "node-c" : rank < 4 ? "node-a" : "node-b";
        cr_assert_eq(fetch_string(*store, kNs, PMIXPP_GDS_LEVEL_PROC, rank, "test.host"), host, "rank %u", rank);
    }
    ValuePtr value;
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 6, "test.rank", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 100000, "test.rank", &value), PMIX_ERR_NOT_FOUND);
    cr_assert_eq(store->remove_nspace(kNs), PMIX_SUCCESS);
    cr_assert_eq(store->fetch(kNs, PMIXPP_GDS_LEVEL_PROC, 0, "test.host", &value), PMIX_ERR_NOT_FOUND);
}
