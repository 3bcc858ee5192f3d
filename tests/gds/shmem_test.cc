// gds/shmem specifics (the conformance suite covers the common contract):
// where segments live, their mode, their removal, what a client does with a
// segment that vanished or was damaged, and readers following new
// generations, in this process and in another one.
#include "gds_fixture.h"
#include "support/child_process.h"

#include <criterion/criterion.h>
#include <pmix.h>

#include <dirent.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
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

}  // namespace

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
        cr_assert_eq(client->import_nspace(kNs, blob), PMIX_ERR_NOT_AVAILABLE, "size %lld", (long long)size);
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

// A server that runs as root for another user's job (Slurm's slurmstepd,
// PMIX_USERID at init): the segment is that user's to open; its mode stays
// 0600, so no one else's.
Test(shmem, the_segment_belongs_to_the_jobs_user_when_one_is_named)
{
    if (::geteuid() != 0) cr_skip_test("only root can give a file to another user");
    const std::string dir = make_directory();
    const pmixpp_gds_module_t *m = module_under_test();
    pmix_info_t hints[2];
    const uint32_t uid = 65534;
    const uint32_t gid = 65533;
    PMIX_INFO_LOAD(&hints[0], PMIX_USERID, &uid, PMIX_UINT32);
    PMIX_INFO_LOAD(&hints[1], PMIX_GRPID, &gid, PMIX_UINT32);
    pmixpp_gds_store_t *raw = nullptr;
    cr_assert_eq(m->store_create(hints, 2, &raw), PMIX_SUCCESS);
    pmixpp_gds_address_t addr{kNs, PMIXPP_GDS_LEVEL_JOB, 0};
    InfoList job;
    job.add_string(PMIX_NSDIR, dir.c_str());
    job.add_u32(PMIX_JOB_SIZE, 2);
    cr_assert_eq(m->store(raw, &addr, job.data(), job.size()), PMIX_SUCCESS);
    pmix_byte_object_t blob{};
    cr_assert_eq(m->export_nspace(raw, kNs, &blob), PMIX_SUCCESS);
    const auto files = segments_in(dir);
    cr_assert_eq(files.size(), 1u);
    struct stat st {};
    cr_assert_eq(::stat(files[0].c_str(), &st), 0);
    cr_expect_eq(st.st_uid, uid, "owner %u", static_cast<unsigned>(st.st_uid));
    cr_expect_eq(st.st_gid, gid, "group %u", static_cast<unsigned>(st.st_gid));
    cr_expect_eq(st.st_mode & 07777, 0600u, "mode %o", st.st_mode & 07777);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    m->store_destroy(raw);
    ::rmdir(dir.c_str());
}

namespace {

// One proc's modex data, for share_modex.
struct ProcData {
    pmix_rank_t rank;
    InfoList info;
};

pmix_byte_object_t shared(const Store &server, std::vector<ProcData> &procs)
{
    std::vector<pmixpp_gds_proc_data_t> table;
    for (ProcData &proc : procs) table.push_back({proc.rank, proc.info.data(), proc.info.size()});
    pmix_byte_object_t blob{};
    cr_assert_eq(server.share_modex(kNs, table.data(), table.size(), &blob), PMIX_SUCCESS);
    return blob;
}

uint32_t modex_u32(const Store &store, pmix_rank_t rank, const char *key, pmix_status_t expect = PMIX_SUCCESS)
{
    ValuePtr value;
    const pmix_status_t rc = store.fetch_modex(kNs, rank, PMIX_LOCAL, key, &value);
    cr_assert_eq(rc, expect, "rank %u %s: %s", rank, key, PMIx_Error_string(rc));
    if (rc != PMIX_SUCCESS) return 0;
    cr_assert_eq(value->type, PMIX_UINT32);
    return value->data.uint32;
}

std::vector<std::string> modex_segments_in(const std::string &dir)
{
    std::vector<std::string> found;
    for (const std::string &file : segments_in(dir)) {
        if (file.size() > 6 && file.compare(file.size() - 6, 6, ".modex") == 0) found.push_back(file);
    }
    return found;
}

}  // namespace

namespace {

bool on_tmpfs(const std::string &dir)
{
    struct statfs fs {};
    return ::statfs(dir.c_str(), &fs) == 0 && fs.f_type == TMPFS_MAGIC;
}

}  // namespace

// With the job's directory on disk, shared fence data goes to memory
// (PMIX_MCA_gds_shmem_memory_dir, /dev/shm by default; here a directory of
// the test's own), and the first share there removes what servers that died
// left, and nothing else.
Test(shmem, shared_fence_data_goes_to_memory_when_the_job_directory_is_on_disk)
{
    const std::string dir = make_directory();
    if (on_tmpfs(dir)) cr_skip_test("/tmp is tmpfs here: the data stays beside the job's");
    const std::string memory = make_directory();
    const std::string orphan = memory + "/gds-shmem." + std::to_string(test_support::dead_pid()) + ".1.gone.modex";
    const std::string alive = memory + "/gds-shmem." + std::to_string(::getppid()) + ".1.alive.modex";
    for (const auto &path : {orphan, alive}) std::ofstream(path) << "x";
    ::setenv("PMIX_MCA_gds_shmem_modex_on_disk", "0", 1);
    ::setenv("PMIX_MCA_gds_shmem_memory_dir", memory.c_str(), 1);
    auto server = new_store();
    register_job(*server, dir, 2, 1);
    std::vector<ProcData> procs(2);
    for (pmix_rank_t r = 0; r < 2; ++r) {
        procs[r].rank = r;
        procs[r].info.add_u32("test.peer", 300 + r);
    }
    pmix_byte_object_t blob = shared(*server, procs);
    cr_expect(modex_segments_in(dir).empty(), "shared fence data was written to disk");
    cr_expect_eq(modex_segments_in(memory).size(), 2u, "ours and the live server's");
    cr_expect_eq(::access(orphan.c_str(), F_OK), -1, "the dead server's segment stays");
    auto client = new_store();
    cr_assert_eq(client->import_modex(kNs, blob, PMIX_RANK_UNDEF), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_expect_eq(modex_u32(*client, 1, "test.peer"), 301u);
    cr_assert_eq(server->remove_nspace(kNs), PMIX_SUCCESS);
    cr_expect_eq(modex_segments_in(memory).size(), 1u, "remove_nspace left the shared fence data behind");
    client.reset();
    server.reset();
    ::unlink(alive.c_str());
    for (const auto &path : segments_in(dir)) ::unlink(path.c_str());
    ::rmdir(memory.c_str());
    ::rmdir(dir.c_str());
}

// The job data too: with the job's directory on disk its segment goes to the
// memory directory (a creation and a rename on a disk file system can wait
// for the journal at every job start). The first segment there removes the
// dead servers' job data and half-written files, and remove_nspace its own.
Test(shmem, job_data_goes_to_memory_when_the_job_directory_is_on_disk)
{
    const std::string dir = make_directory();
    if (on_tmpfs(dir)) cr_skip_test("/tmp is tmpfs here: the data stays in the job's directory");
    const std::string memory = make_directory();
    const std::string dead = "/gds-shmem." + std::to_string(test_support::dead_pid());
    const std::string orphan = memory + dead + ".1.gone.0123456789abcdef";
    const std::string half_written = memory + dead + ".2.gone.0123456789abcdef.tmp";
    const std::string alive = memory + "/gds-shmem." + std::to_string(::getppid()) + ".1.alive.0123456789abcdef";
    const std::string stranger = memory + "/not-ours." + std::to_string(test_support::dead_pid());
    for (const auto &path : {orphan, half_written, alive, stranger}) std::ofstream(path) << "x";
    ::setenv("PMIX_MCA_gds_shmem_job_data_on_disk", "0", 1);
    ::setenv("PMIX_MCA_gds_shmem_memory_dir", memory.c_str(), 1);
    auto server = new_store();
    register_job(*server, dir, 4, 1);
    pmix_byte_object_t blob = exported(*server);
    cr_expect(segments_in(dir).empty(), "the job data was written to disk");
    cr_expect_eq(segments_in(memory).size(), 2u, "ours and the live server's");
    cr_expect_eq(::access(orphan.c_str(), F_OK), -1, "the dead server's job data stays");
    cr_expect_eq(::access(half_written.c_str(), F_OK), -1, "the dead server's half-written segment stays");
    cr_expect_eq(::access(stranger.c_str(), F_OK), 0, "a file not named as ours was removed");
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_expect_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_PROC, 3, PMIX_LOCAL_RANK), 3u);
    cr_assert_eq(server->remove_nspace(kNs), PMIX_SUCCESS);
    cr_expect_eq(segments_in(memory).size(), 1u, "remove_nspace left the job data behind");
    client.reset();
    server.reset();
    for (const auto &path : {alive, stranger}) ::unlink(path.c_str());
    ::rmdir(memory.c_str());
    ::rmdir(dir.c_str());
}

// With the memory directory unusable, the job data stays in the job's
// directory: nothing is lost, it is only written to disk.
Test(shmem, job_data_stays_in_the_job_directory_without_a_memory_directory)
{
    const std::string dir = make_directory();
    ::setenv("PMIX_MCA_gds_shmem_job_data_on_disk", "0", 1);
    ::setenv("PMIX_MCA_gds_shmem_memory_dir", (dir + "/missing").c_str(), 1);
    auto server = new_store();
    register_job(*server, dir, 2, 1);
    pmix_byte_object_t blob = exported(*server);
    const bool in_memory = on_tmpfs(dir);
    cr_expect_eq(segments_in(dir).size(), 1u, "%s", in_memory ? "on tmpfs" : "on disk");
    auto client = new_store();
    cr_assert_eq(client->import_nspace(kNs, blob), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_expect_eq(fetch_u32(*client, kNs, PMIXPP_GDS_LEVEL_PROC, 1, PMIX_LOCAL_RANK), 1u);
    client.reset();
    server.reset();
    ::rmdir(dir.c_str());
}

// A fence's collected data is written once by the server and read by every
// client from the same file; a client's own puts stay its own, the rest of
// what it kept is replaced by the newer shared data, and later fences
// publish new generations that readers follow.
Test(shmem, shared_fence_data_is_read_from_one_segment)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 3, 1);
    std::vector<ProcData> procs(3);
    for (pmix_rank_t r = 0; r < 3; ++r) {
        procs[r].rank = r;
        procs[r].info.add_u32("test.peer", 100 + r);
    }
    pmix_byte_object_t blob = shared(*server, procs);
    cr_assert_eq(modex_segments_in(dir).size(), 1u);
    struct stat st {};
    cr_assert_eq(::stat(modex_segments_in(dir)[0].c_str(), &st), 0);
    cr_assert_eq(st.st_mode & 0777, 0600u);

    auto client = new_store();  // rank 1
    InfoList own;
    own.add_u32("test.peer", 7);
    cr_assert_eq(client->put_modex(kNs, 1, PMIX_REMOTE, own.data(), own.size()), PMIX_SUCCESS);
    InfoList stale;
    stale.add_u32("test.peer", 9);
    cr_assert_eq(client->put_modex(kNs, 2, PMIX_GLOBAL, stale.data(), stale.size()), PMIX_SUCCESS);
    cr_assert_eq(client->import_modex(kNs, blob, 1), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_assert_eq(modex_u32(*client, 0, "test.peer"), 100u);
    cr_assert_eq(modex_u32(*client, 2, "test.peer"), 102u, "the kept value of rank 2 was older");
    ValuePtr mine;
    cr_assert_eq(client->fetch_modex(kNs, 1, PMIX_REMOTE, "test.peer", &mine), PMIX_SUCCESS);
    cr_assert_eq(mine->data.uint32, 7u, "the client's own put comes first");
    cr_assert_eq(modex_u32(*client, 0, "test.other", PMIX_ERR_NOT_FOUND), 0u);
    pmixpp::store::InfoArray all;
    cr_assert_eq(client->fetch_modex_all(kNs, 0, PMIX_LOCAL, &all), PMIX_SUCCESS);
    cr_assert_eq(all.size(), 1u);

    // The next fence: new values, one more key, a new generation.
    std::vector<ProcData> second(1);
    second[0].rank = 0;
    second[0].info.add_u32("test.peer", 200);
    second[0].info.add_u32("test.other", 5);
    blob = shared(*server, second);
    cr_assert_eq(client->import_modex(kNs, blob, 1), PMIX_SUCCESS);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    cr_assert_eq(modex_u32(*client, 0, "test.peer"), 200u);
    cr_assert_eq(modex_u32(*client, 0, "test.other"), 5u);
    cr_assert_eq(modex_u32(*client, 2, "test.peer"), 102u, "earlier shared data stays");
    cr_assert_eq(modex_segments_in(dir).size(), 1u, "superseded generations are unlinked");

    cr_assert_eq(server->remove_nspace(kNs), PMIX_SUCCESS);
    cr_assert(segments_in(dir).empty(), "remove_nspace left the shared fence data behind");
    client.reset();
    server.reset();
    cr_assert_eq(::rmdir(dir.c_str()), 0);
}

// A client that cannot reach the shared file answers "not found" (its core
// then asks the server) instead of failing or returning stale data.
Test(shmem, unreachable_shared_fence_data_reads_as_not_found)
{
    const std::string dir = make_directory();
    auto server = new_store();
    register_job(*server, dir, 2, 1);
    std::vector<ProcData> procs(1);
    procs[0].rank = 0;
    procs[0].info.add_u32("test.peer", 1);
    pmix_byte_object_t blob = shared(*server, procs);
    for (const auto &file : modex_segments_in(dir)) ::unlink(file.c_str());
    auto client = new_store();
    cr_assert_eq(client->import_modex(kNs, blob, PMIX_RANK_UNDEF), PMIX_SUCCESS);
    cr_assert_eq(modex_u32(*client, 0, "test.peer", PMIX_ERR_NOT_FOUND), 0u);
    cr_assert_eq(modex_u32(*client, 0, "test.peer", PMIX_ERR_NOT_FOUND), 0u, "and again, without a retry storm");
    // Malformed objects and a namespace the server does not hold are refused.
    pmix_byte_object_t junk{const_cast<char *>("junk"), 4};
    cr_assert_neq(client->import_modex(kNs, junk, PMIX_RANK_UNDEF), PMIX_SUCCESS);
    cr_assert_eq(client->import_modex("other.ns", blob, PMIX_RANK_UNDEF), PMIX_ERR_BAD_PARAM);
    pmix_byte_object_t none{};
    cr_assert_eq(server->share_modex("not.registered", nullptr, 0, &none), PMIX_ERR_NOT_FOUND);
    PMIX_BYTE_OBJECT_DESTRUCT(&blob);
    server.reset();
    ::rmdir(dir.c_str());
}
