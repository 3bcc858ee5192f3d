// PMIx_Get_credential / PMIx_Validate_credential end to end, under every
// ptl x psec pair of the suite: credentials of clients, of the host process
// and of singletons (one of another user), checked by the host process and
// by other clients; a host without the credential upcalls (psec answers)
// and one with them (the host's own system answers, in the requester's name).
#include "integration/cases/itest_support.h"

#include <pmix.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

#include "integration/host/host_internal.h"

using namespace pmixpp::itest;

namespace {

// The psec module of this run of the suite: PMIX_MCA_psec of the pair.
std::string psec_of_this_run()
{
    const char *psec = std::getenv("PMIX_MCA_psec");
    return psec != nullptr ? psec : "native";
}

std::string scratch_dir()
{
    const std::string dir = host().tmpdir() + "/credentials";
    mkdir(dir.c_str(), 0700);
    return dir;
}

// A directory uid 65534 can write in (the host's tmpdir is root's alone);
// removed when the test ends.
class SharedDir {
public:
    SharedDir()
    {
        char pattern[] = "/tmp/pmixpp-cred-XXXXXX";
        cr_assert(mkdtemp(pattern) != nullptr, "mkdtemp: %s", std::strerror(errno));
        path_ = pattern;
        chmod(path_.c_str(), 0777);
    }
    ~SharedDir() { std::filesystem::remove_all(path_); }
    SharedDir(const SharedDir &) = delete;
    SharedDir &operator=(const SharedDir &) = delete;
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

std::string read_bytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    cr_assert(out.good(), "cannot write %s", path.c_str());
}

// One credentials client in a job of its own; fails the test unless it succeeded.
ProcResult run_client(const char *nspace, const std::vector<std::string> &args)
{
    register_local_job(nspace, 1);
    Launch launch;
    launch.program = client_path("itest_credentials");
    launch.args = args;
    pid_t pid = -1;
    cr_assert_eq(host().spawn(nspace, 0, launch, &pid), PMIX_SUCCESS);
    const auto results = host().wait({pid}, kJobTimeoutMs);
    cr_assert_eq(results.size(), 1u);
    cr_expect(results[0].succeeded(), "%s", results[0].describe().c_str());
    cr_assert_eq(host().deregister_job(nspace), PMIX_SUCCESS);
    return results[0];
}

bool mentions(const ProcResult &result, const std::string &text)
{
    return result.output.find(text) != std::string::npos;
}

// The credentials client with no server in its environment (a singleton:
// psec answers), optionally as uid/gid 65534. Bounded; killed when late.
ProcResult run_singleton(const std::vector<std::string> &args, const std::string &dir)
{
    const std::string output_path = dir + "/singleton.out." + std::to_string(getpid());
    const std::string program = client_path("itest_credentials");
    // Everything is built before the fork: the child of a threaded process
    // only opens, dups and execs (under ASan an allocation there can hang on
    // a lock another thread held at the fork).
    std::vector<std::string> env_text{"TMPDIR=" + dir};
    for (char **entry = environ; *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        const bool server_var = name == "TMPDIR" || name == "PMIXPP_SERVER_URIS" || name == "PMIX_NAMESPACE" ||
                                name == "PMIX_RANK" || name.substr(0, 15) == "PMIX_SERVER_URI";
        if (!server_var) env_text.emplace_back(text);
    }
    std::vector<char *> env;
    for (std::string &entry : env_text) env.push_back(entry.data());
    env.push_back(nullptr);
    std::vector<char *> argv{const_cast<char *>(program.c_str())};
    for (const auto &arg : args) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", std::strerror(errno));
    if (pid == 0) {
        const int fd = open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execve(program.c_str(), argv.data(), env.data());
        _exit(127);
    }
    ProcResult result;
    result.nspace = "(singleton)";
    result.pid = pid;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kJobTimeoutMs);
    while (waitpid(pid, &result.wait_status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &result.wait_status, 0);
            result.timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    result.output = read_bytes(output_path);
    return result;
}

struct Validation {
    pmix_status_t status = PMIX_ERROR;
    std::string type;
    long uid = -1;
    std::string validated_for;
};

Validation validation_of(pmix_status_t status, const pmix_info_t *info, size_t ninfo)
{
    Validation v;
    v.status = status;
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_CRED_TYPE)) v.type = info[i].value.data.string;
        if (PMIX_CHECK_KEY(&info[i], PMIX_USERID)) v.uid = info[i].value.data.uint32;
        if (PMIX_CHECK_KEY(&info[i], kHostValidatedFor)) v.validated_for = info[i].value.data.string;
    }
    return v;
}

// PMIx_Validate_credential in the host process itself.
Validation validate_in_host(const std::string &bytes)
{
    pmix_byte_object_t credential{const_cast<char *>(bytes.data()), bytes.size()};
    pmix_info_t *info = nullptr;
    size_t ninfo = 0;
    const pmix_status_t rc = PMIx_Validate_credential(&credential, nullptr, 0, &info, &ninfo);
    Validation v = validation_of(rc, info, ninfo);
    if (info != nullptr) PMIX_INFO_FREE(info, ninfo);
    return v;
}

void expect_valid_psec(const Validation &v, const char *whose)
{
    cr_expect_eq(v.status, PMIX_SUCCESS, "%s credential: %s", whose, status_name(v.status).c_str());
    cr_expect_eq(v.type, psec_of_this_run(), "%s credential: PMIX_CRED_TYPE '%s'", whose, v.type.c_str());
    cr_expect_eq(v.uid, static_cast<long>(geteuid()), "%s credential: PMIX_USERID %ld", whose, v.uid);
}

// PMIx_Get_credential_nb in the host process, waited for.
struct NbCredential {
    std::mutex lock;
    std::condition_variable changed;
    bool done = false;
    pmix_status_t status = PMIX_ERROR;
    std::string bytes;
    std::string type;
};

void nb_credential_done(pmix_status_t status, pmix_byte_object_t *credential, pmix_info_t info[], size_t ninfo,
                        void *cbdata)
{
    auto *nb = static_cast<NbCredential *>(cbdata);
    std::lock_guard<std::mutex> guard(nb->lock);
    nb->status = status;
    if (credential != nullptr) nb->bytes.assign(credential->bytes, credential->size);
    nb->type = validation_of(status, info, ninfo).type;
    nb->done = true;
    nb->changed.notify_all();
}

void get_in_host_nb(NbCredential *nb)
{
    cr_assert_eq(PMIx_Get_credential_nb(nullptr, 0, nb_credential_done, nb), PMIX_SUCCESS);
    std::unique_lock<std::mutex> guard(nb->lock);
    cr_assert(nb->changed.wait_for(guard, std::chrono::seconds(30), [nb] { return nb->done; }),
              "PMIx_Get_credential_nb never called back");
}

std::string status_arg(pmix_status_t status)
{
    return std::to_string(status);
}

}  // namespace

TestSuite(credentials, .fini = stop_host, .timeout = 300);

// Without the host's upcalls a client's credential comes from its own psec
// module and the host process checks it with its own.
Test(credentials, client_credential_is_validated_by_the_host_process)
{
    start_host();
    const std::string file = scratch_dir() + "/client.cred";
    run_client("itest-cred-get", {"--get", file, "--nb", "--type", psec_of_this_run()});
    const std::string bytes = read_bytes(file);
    cr_assert(!bytes.empty(), "the client wrote no credential");
    expect_valid_psec(validate_in_host(bytes), "the client's");
}

Test(credentials, client_credential_is_validated_by_another_client)
{
    start_host();
    const std::string dir = scratch_dir();
    run_client("itest-cred-a", {"--get", dir + "/a.cred"});
    const ProcResult b = run_client("itest-cred-b", {"--validate", dir + "/a.cred", "--type", psec_of_this_run()});
    cr_expect(mentions(b, "validated type=" + psec_of_this_run()), "%s", b.describe().c_str());
    // The same with the _nb forms on both sides.
    run_client("itest-cred-c", {"--get", dir + "/c.cred", "--nb", "--type", psec_of_this_run()});
    const ProcResult d =
        run_client("itest-cred-d", {"--validate", dir + "/c.cred", "--nb", "--type", psec_of_this_run()});
    cr_expect(mentions(d, "validated type=" + psec_of_this_run()), "%s", d.describe().c_str());
}

Test(credentials, host_process_credential_is_validated_by_a_client)
{
    start_host();
    const std::string file = scratch_dir() + "/host.cred";
    pmix_byte_object_t credential{nullptr, 0};
    cr_assert_eq(PMIx_Get_credential(nullptr, 0, &credential), PMIX_SUCCESS);
    cr_assert_gt(credential.size, 0u);
    write_bytes(file, std::string(credential.bytes, credential.size));
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
    run_client("itest-cred-check-host", {"--validate", file, "--type", psec_of_this_run()});

    NbCredential nb;
    get_in_host_nb(&nb);
    cr_expect_eq(nb.status, PMIX_SUCCESS);
    cr_expect_eq(nb.type, psec_of_this_run(), "PMIX_CRED_TYPE '%s'", nb.type.c_str());
    expect_valid_psec(validate_in_host(nb.bytes), "the host's own");
}

// NULL, empty and garbage credentials are refused in a client and in the
// host process with clear statuses; everyone goes on being served.
Test(credentials, null_empty_and_garbage_are_refused_and_service_goes_on)
{
    start_host();
    run_client("itest-cred-bad", {"--bad"});
    cr_expect_eq(validate_in_host("definitely not a credential").status, PMIX_ERR_INVALID_CRED);
    pmix_info_t *info = nullptr;
    size_t ninfo = 7;
    cr_expect_eq(PMIx_Validate_credential(nullptr, nullptr, 0, &info, &ninfo), PMIX_ERR_BAD_PARAM);
    cr_expect(info == nullptr && ninfo == 0);
    pmix_byte_object_t empty{nullptr, 0};
    cr_expect_eq(PMIx_Validate_credential(&empty, nullptr, 0, &info, &ninfo), PMIX_ERR_BAD_PARAM);
    const std::string file = scratch_dir() + "/after.cred";
    run_client("itest-cred-after", {"--get", file});
    expect_valid_psec(validate_in_host(read_bytes(file)), "a later client's");
}

// munge refuses a credential decoded once already; native has no such
// memory (its credential only names a user: docs/credentials.md).
Test(credentials, a_second_validation_of_one_credential)
{
    start_host();
    const std::string file = scratch_dir() + "/twice.cred";
    run_client("itest-cred-twice", {"--get", file});
    const std::string bytes = read_bytes(file);
    expect_valid_psec(validate_in_host(bytes), "a fresh");
    const pmix_status_t again = validate_in_host(bytes).status;
    if (psec_of_this_run() == "munge") {
        cr_expect_eq(again, PMIX_ERR_INVALID_CRED, "munge accepted a replayed credential: %s",
                     status_name(again).c_str());
    } else {
        cr_expect_eq(again, PMIX_SUCCESS, "native: %s", status_name(again).c_str());
    }
}

// A singleton has no server: its own psec makes and checks its credential.
Test(credentials, singleton_makes_and_checks_its_own)
{
    start_host();
    const std::string dir = scratch_dir();
    const std::string file = dir + "/singleton.cred";
    const ProcResult result =
        run_singleton({"--get", file, "--validate", file, "--nb", "--type", psec_of_this_run()}, dir);
    cr_expect(result.succeeded(), "%s", result.describe().c_str());
    cr_expect(mentions(result, "validated type=" + psec_of_this_run()), "%s", result.describe().c_str());
}

// A credential of uid 65534 made by a real process of that user: the host
// process and a client (both root) refuse it.
Test(credentials, another_users_credential_is_refused)
{
    if (geteuid() != 0) cr_skip_test("needs root to run a process as uid 65534 (nobody)");
    start_host();
    const SharedDir shared;
    const std::string &dir = shared.path();
    const std::string file = dir + "/nobody.cred";
    const ProcResult nobody = run_singleton({"--become-nobody", "--get", file}, dir);
    cr_assert(nobody.succeeded(), "%s", nobody.describe().c_str());
    const std::string bytes = read_bytes(file);
    cr_assert(!bytes.empty());
    if (psec_of_this_run() == "munge") {
        // munge refuses a replay: the client gets a credential of its own to check.
        const std::string second = dir + "/nobody2.cred";
        cr_assert(run_singleton({"--become-nobody", "--get", second}, dir).succeeded());
        run_client("itest-cred-nobody", {"--validate", second, "--expect", status_arg(PMIX_ERR_INVALID_CRED)});
    } else {
        run_client("itest-cred-nobody", {"--validate", file, "--expect", status_arg(PMIX_ERR_INVALID_CRED)});
    }
    cr_expect_eq(validate_in_host(bytes).status, PMIX_ERR_INVALID_CRED);
}

// ---- a host with get_credential / validate_credential

// The client's credential is the host's, made in the client's name; another
// client has it validated by the host, which learns who asked.
Test(credentials, host_upcalls_make_and_check_in_the_requesters_name)
{
    HostOptions options;
    options.credential_upcalls = true;
    start_host(options);
    const std::string file = scratch_dir() + "/host-made.cred";
    run_client("itest-cred-up-get", {"--get", file, "--nb", "--type", kHostCredentialType});
    cr_expect_eq(read_bytes(file), std::string(kHostCredentialPrefix) + "itest-cred-up-get.0");
    cr_expect_eq(host().counters().credentials_made.load(), 1);
    const ProcResult checker = run_client("itest-cred-up-check", {"--validate", file, "--type", kHostCredentialType});
    cr_expect(mentions(checker, "for=itest-cred-up-check.0"), "%s", checker.describe().c_str());
    cr_expect_eq(host().counters().credentials_checked.load(), 1);
    // The host's system refuses what it did not make (garbage, NULL, empty).
    run_client("itest-cred-up-bad", {"--bad"});
}

// The host process asking for itself: its own upcalls, in the server's name.
Test(credentials, host_process_uses_its_own_upcalls, .timeout = 120)
{
    HostOptions options;
    options.credential_upcalls = true;
    options.async_upcalls = true;  // answered from a host thread
    start_host(options);
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    const std::string expected = std::string(kHostCredentialPrefix) + me.nspace + "." + std::to_string(me.rank);
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
    NbCredential nb;
    get_in_host_nb(&nb);
    cr_expect_eq(nb.status, PMIX_SUCCESS);
    cr_expect_eq(nb.bytes, expected);
    cr_expect_eq(nb.type, kHostCredentialType);
    const Validation v = validate_in_host(nb.bytes);
    cr_expect_eq(v.status, PMIX_SUCCESS);
    cr_expect_eq(v.validated_for, std::string(me.nspace) + "." + std::to_string(me.rank));
    cr_expect_eq(validate_in_host("a psec credential means nothing to this host").status, PMIX_ERR_INVALID_CRED);
    cr_expect_eq(host().counters().credentials_made.load(), 1);
    cr_expect_eq(host().counters().credentials_checked.load(), 2);
}
