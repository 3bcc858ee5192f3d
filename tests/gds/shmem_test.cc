// gds/shmem specifics (the conformance suite covers the common contract):
// where segments live, their mode, their removal, what a client does with a
// segment that vanished or was damaged, and readers following new
// generations, in this process and in another one.
#include "gds_fixture.h"

#include <criterion/criterion.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace gds_test;
using pmixpp::store::Store;
using pmixpp::store::ValuePtr;

namespace {

constexpr const char *kNs = "shm.job";

std::string make_directory()
{
    char pattern[] = "/tmp/gds-shmem-test.XXXXXX";
    const char *dir = ::mkdtemp(pattern);
    cr_assert_not_null(dir);
    return dir;
}

std::vector<std::string> segments_in(const std::string &dir)
{
    std::vector<std::string> found;
    DIR *d = ::opendir(dir.c_str());
    cr_assert_not_null(d, "cannot list %s", dir.c_str());
    while (const dirent *e = ::readdir(d)) {
        if (std::strncmp(e->d_name, "gds-shmem.", 10) == 0) found.push_back(dir + "/" + e->d_name);
    }
    ::closedir(d);
    return found;
}

// A namespace whose job data names `dir` as its PMIX_NSDIR, plus `nprocs` procs.
void register_job(const Store &store, const std::string &dir, uint32_t nprocs, uint32_t version)
{
    InfoList job;
    job.add_string(PMIX_NSDIR, dir.c_str());
    job.add_u32(PMIX_JOB_SIZE, nprocs);
    job.add_u32("test.version", version);
    cr_assert_eq(store.put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, job.data(), job.size()), PMIX_SUCCESS);
    for (uint32_t rank = 0; rank < nprocs; ++rank) {
        InfoList proc;
        proc.add_u32(PMIX_RANK, rank);
        proc.add_u32(PMIX_LOCAL_RANK, rank);
        proc.add_string(PMIX_HOSTNAME, "node0");
        cr_assert_eq(store.put(kNs, PMIXPP_GDS_LEVEL_PROC, rank, proc.data(), proc.size()), PMIX_SUCCESS);
    }
}

pmix_byte_object_t exported(const Store &store)
{
    pmix_byte_object_t blob{};
    cr_assert_eq(store.export_nspace(kNs, &blob), PMIX_SUCCESS);
    return blob;
}

void put_version(const Store &store, uint32_t version)
{
    InfoList job;
    job.add_u32("test.version", version);
    cr_assert_eq(store.put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, job.data(), job.size()), PMIX_SUCCESS);
}

} // namespace

Test(shmem, the_segment_lives_in_the_namespace_directory_with_mode_0600)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 1000, 1);
    cr_assert(segments_in(dir).empty(), "nothing is written before the first export");
    pmix_byte_object_t blob = exported(*server);
    cr_assert_lt(blob.size, 1024u, "the export names the segment instead of carrying 1000 procs");
    const auto files = segments_in(dir);
    cr_assert_eq(files.size(), 1u);
    struct stat st {};
    cr_assert_eq(::stat(files[0].c_str(), &st), 0);
    cr_assert_eq(st.st_mode & 07777, 0600u, "mode %o", st.st_mode & 07777);
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_PROC, 999, PMIX_LOCAL_RANK), 999u);
    cr_assert_eq(fetch_string(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_NSDIR), dir);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    server.reset();
    ::rmdir(dir.c_str());
}

Test(shmem, remove_nspace_and_store_destroy_remove_the_segment)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 4, 1);
    pmix_byte_object_t blob = exported(*server);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_assert_eq(segments_in(dir).size(), 1u);
    cr_assert_eq(server->remove_nspace(kNs), PMIX_SUCCESS);
    cr_assert(segments_in(dir).empty(), "remove_nspace left the segment behind");

    register_job(*server, dir, 4, 1);
    blob = exported(*server);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_assert_eq(segments_in(dir).size(), 1u);
    server.reset();
    cr_assert(segments_in(dir).empty(), "store_destroy left the segment behind");
    cr_assert_eq(::rmdir(dir.c_str()), 0, "the directory holds nothing else");
}

Test(shmem, a_vanished_segment_fails_the_import_cleanly)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 4, 1);
    pmix_byte_object_t blob = exported(*server);
    for (const auto &file : segments_in(dir)) ::unlink(file.c_str());
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_ERR_NOT_AVAILABLE);
    cr_assert_not(client->has_nspace(kNs), "a failed import leaves nothing behind");
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    server.reset();
    ::rmdir(dir.c_str());
}

Test(shmem, a_truncated_or_damaged_segment_fails_the_import_cleanly)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 64, 1);
    pmix_byte_object_t blob = exported(*server);
    const std::string file = segments_in(dir).at(0);
    struct stat st {};
    cr_assert_eq(::stat(file.c_str(), &st), 0);
    auto client = new_store();
    for (off_t size : {st.st_size / 2, off_t{100}, off_t{0}}) {
        cr_assert_eq(::truncate(file.c_str(), size), 0);
        cr_assert_eq(client->import_nspace(kNs, blob), PMIX_ERR_NOT_AVAILABLE, "size %lld", (long long) size);
    }
    // Same size, damaged header.
    cr_assert_eq(::truncate(file.c_str(), st.st_size), 0);
    FILE *f = std::fopen(file.c_str(), "r+");
    cr_assert_not_null(f);
    std::fputs("garbage!", f);
    std::fclose(f);
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_ERR_NOT_AVAILABLE);
    cr_assert_not(client->has_nspace(kNs));
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    server.reset();
    ::rmdir(dir.c_str());
}

Test(shmem, a_reader_follows_new_generations_and_old_files_go)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 4, 1);
    pmix_byte_object_t blob = exported(*server);
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.version"), 1u);
    for (uint32_t version = 2; version <= 5; ++version) {
        put_version(*server, version);
        cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.version"), version);
        cr_assert_eq(segments_in(dir).size(), 1u, "superseded generations are unlinked");
    }
    // A value the client stores itself shadows the shared one.
    InfoList mine;
    mine.add_u32("test.version", 77);
    cr_assert_eq(client->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, mine.data(), 1), PMIX_SUCCESS);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.version"), 77u);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, PMIX_JOB_SIZE), 4u);
    server.reset();
    ::rmdir(dir.c_str());
}

// The child maps the segment, the parent publishes a new generation, the
// child sees it: shared memory across processes, not a copy.
Test(shmem, another_process_sees_a_new_generation)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 4, 1);
    pmix_byte_object_t blob = exported(*server);
    int to_child[2];
    int to_parent[2];
    cr_assert_eq(::pipe(to_child), 0);
    cr_assert_eq(::pipe(to_parent), 0);
    const pid_t parent = ::getpid();
    int publisher_failures = 0;
    std::thread publisher([&] {
        char byte = 0;
        if (::read(to_parent[0], &byte, 1) != 1) ++publisher_failures;
        InfoList job;
        job.add_u32("test.version", 2);
        if (server->put(kNs, PMIXPP_GDS_LEVEL_JOB, 0, job.data(), job.size()) != PMIX_SUCCESS) ++publisher_failures;
        if (::write(to_child[1], "g", 1) != 1) ++publisher_failures;
    });
    const int failures = in_child_process([&] {
        if (::getpid() == parent) return 98;
        auto client = new_store();
        int bad = client->import_nspace(kNs, blob) != PMIX_SUCCESS;
        bad += !child_expect_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.version", 1);
        char byte = 'r';
        bad += ::write(to_parent[1], &byte, 1) != 1;
        bad += ::read(to_child[0], &byte, 1) != 1;
        bad += !child_expect_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.version", 2);
        bad += !child_expect_u32(*client, kNs, PMIXPP_GDS_LEVEL_PROC, 3, PMIX_RANK, 3);
        return bad;
    });
    publisher.join();
    cr_assert_eq(failures, 0, "the child saw %d wrong answers", failures);
    cr_assert_eq(publisher_failures, 0);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    server.reset();
    ::rmdir(dir.c_str());
}

// The fallback a core uses when a client cannot map: the inline export
// carries the data and needs no file.
Test(shmem, the_inline_export_needs_no_segment)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 8, 3);
    const pmixpp_gds_module_t &m = server->module();
    cr_assert_geq(m.struct_size, offsetof(pmixpp_gds_module_t, export_nspace_inline) + sizeof(void *));
    cr_assert_not_null(m.export_nspace_inline);
    pmixpp_gds_store_t *raw = nullptr;
    cr_assert_eq(m.store_create(nullptr, 0, &raw), PMIX_SUCCESS);
    pmixpp_gds_address_t addr{kNs, PMIXPP_GDS_LEVEL_JOB, 0};
    InfoList job;
    job.add_u32("test.version", 3);
    cr_assert_eq(m.store(raw, &addr, job.data(), job.size()), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(m.export_nspace_inline(raw, kNs, &blob), PMIX_SUCCESS);
    m.store_destroy(raw);
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    cr_assert_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_JOB, 0, "test.version"), 3u);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    server.reset();
    ::rmdir(dir.c_str());
}

// Without PMIX_NSDIR the store_create hint names the directory.
Test(shmem, the_directory_hint_is_used_without_nsdir)
{
    const std::string dir = make_directory();
    const pmixpp_gds_module_t *m = module_under_test();
    pmix_info_t hint;
    PMIX_INFO_LOAD(&hint, PMIXPP_GDS_HINT_DIR, dir.c_str(), PMIX_STRING);
    pmixpp_gds_store_t *raw = nullptr;
    cr_assert_eq(m->store_create(&hint, 1, &raw), PMIX_SUCCESS);
    PMIX_INFO_DESTRUCT(&hint);
    pmixpp_gds_address_t addr{kNs, PMIXPP_GDS_LEVEL_JOB, 0};
    InfoList job;
    job.add_u32(PMIX_JOB_SIZE, 2);
    cr_assert_eq(m->store(raw, &addr, job.data(), job.size()), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(m->export_nspace(raw, kNs, &blob), PMIX_SUCCESS);
    cr_assert_eq(segments_in(dir).size(), 1u);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    m->store_destroy(raw);
    cr_assert(segments_in(dir).empty());
    ::rmdir(dir.c_str());
}
