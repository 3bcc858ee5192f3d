// Open MPI 4.1 across hosts on our libpmix.so.2. Each test
// makes its own hosts out of network + UTS namespaces (setup.sh), runs mpirun
// on the first with the rsh launcher pointed at netns_rsh.sh, so orted starts
// on the others, and tears the hosts down in the fixture's fini. The output
// lines prove which libpmix served mpirun, every orted and every rank.
#include "../mpi/mpirun_runner.h"

#include <criterion/criterion.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr int kHosts = 3;
constexpr const char *kSubnet = "10.251.0";

std::string g_prefix;  // this test's hosts: <prefix>n0, <prefix>n1, ...
std::string g_scratch;

std::string env_or_fail(const char *name)
{
    const char *value = std::getenv(name);
    cr_assert(value != nullptr && *value != '\0', "%s is not set: run this test through ctest", name);
    return value;
}

std::string script(const char *name)
{
    return std::string(MULTIHOST_SCRIPT_DIR) + "/" + name;
}
std::string host(int index)
{
    return g_prefix + "n" + std::to_string(index);
}

using test_support::count_lines_with;
using test_support::has_line;
using test_support::lines_of;
using test_support::Result;

Result run(const std::vector<std::string> &args, int seconds)
{
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    return test_support::run(args[0].c_str(), rest, "", seconds);
}

// COMMAND on a test host, through the same agent mpirun uses.
Result on_host(int index, const std::string &command, int seconds)
{
    return run({script("netns_rsh.sh"), host(index), command}, seconds);
}

std::string quoted(const std::string &word)
{
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

void write_file(const std::string &path, const std::string &text)
{
    std::ofstream file(path);
    file << text;
    cr_assert(file.good(), "cannot write %s", path.c_str());
}

void setup_hosts()
{
    if (::geteuid() != 0) {
        cr_assert_fail("the multihost test makes network namespaces and needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN): "
                       "run ctest as root, or exclude it with ctest -E compat_multihost");
    }
    if (::access("/usr/sbin/ip", X_OK) != 0 && ::access("/usr/bin/ip", X_OK) != 0 && ::access("/sbin/ip", X_OK) != 0) {
        cr_assert_fail("'ip' (iproute2) not found: apt-get install iproute2");
    }
    g_prefix = "pmxmh" + std::to_string(::getpid()) + "-";
    // A crashed earlier test with the same pid may have left its hosts.
    (void)run({script("teardown.sh"), g_prefix}, 30);
    Result made = run({script("setup.sh"), g_prefix, std::to_string(kHosts), kSubnet}, 60);
    cr_assert_eq(made.code, 0,
                 "setup.sh %s failed (exit %d):\n%s%s\n(needs 'ip netns' support: root, iproute2, a kernel "
                 "with network namespaces and veth/bridge)",
                 g_prefix.c_str(), made.code, made.out.c_str(), made.err.c_str());
    char pattern[] = "/tmp/pmixpp-multihost.XXXXXX";
    cr_assert_not_null(::mkdtemp(pattern));
    g_scratch = pattern;
}

void teardown_hosts()
{
    if (!g_prefix.empty()) {
        Result gone = run({script("teardown.sh"), g_prefix}, 60);
        if (gone.code != 0)
            std::fprintf(stderr, "teardown.sh %s: exit %d\n%s", g_prefix.c_str(), gone.code, gone.err.c_str());
    }
    if (!g_scratch.empty()) (void)run({"/bin/rm", "-rf", g_scratch}, 30);
}

bool starts_with(const std::string &text, const std::string &head)
{
    return text.compare(0, head.size(), head) == 0;
}

struct Run {
    const char *program;
    int np;
    std::vector<int> hosts;  // the hostfile's, by index
    int slots;
    int seconds;
    std::string extra = "";  // more mpirun options
};

// mpirun on host 0, its rsh agent entering the other hosts; the hostfile
// names them (each host resolves the names from its own /etc/hosts). Our
// server traces its host upcalls (PMIX_MCA_pmix_server_verbose) on stderr.
Result mpirun_across(const Run &run_spec)
{
    const char *program = run_spec.program;
    const int np = run_spec.np;
    const int seconds = run_spec.seconds;
    const std::vector<int> &hosts = run_spec.hosts;
    const int slots = run_spec.slots;
    std::string hostfile = g_scratch + "/hostfile";
    std::string text;
    for (int index : hosts) text += host(index) + " slots=" + std::to_string(slots) + "\n";
    write_file(hostfile, text);
    const std::string build = env_or_fail("PMIXPP_BUILD_DIR");
    const std::string subnet = std::string(kSubnet) + ".0/24";
    std::string command = "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    command += " LD_LIBRARY_PATH=" + quoted(build + "/lib");
    command += " PMIX_MCA_mca_base_component_path=" + quoted(build + "/lib/pmixpp");
    command += " PMIX_MCA_pmix_server_verbose=1";
    command += " mpirun --timeout " + std::to_string(seconds - 15);
    command += " --mca plm_rsh_agent " + quoted(script("netns_rsh.sh"));
    command += " --hostfile " + quoted(hostfile) + " --map-by node -n " + std::to_string(np);
    command += " --mca oob_tcp_if_include " + subnet + " --mca btl_tcp_if_include " + subnet;
    command += " --mca btl tcp,vader,self --mca mpi_yield_when_idle 1";
    command += " " + run_spec.extra;
    command += " " + quoted(std::string(MULTIHOST_MPI_DIR) + "/" + program);
    Result result = on_host(0, command, seconds);
    cr_log_info("mpirun %s -n %d: exit %d\n--- stdout\n%s--- stderr\n%s", program, np, result.code, result.out.c_str(),
                result.err.c_str());
    cr_assert(!result.timed_out, "mpirun %s did not end within %d s:\n%s%s", program, seconds, result.out.c_str(),
              result.err.c_str());
    cr_assert_eq(result.code, 0, "mpirun %s -n %d exited %d:\n%s%s", program, np, result.code, result.out.c_str(),
                 result.err.c_str());
    return result;
}

// Every rank reported once, from one of `hosts`, on our libpmix; ranks on
// host 0 were started by mpirun, the others by an orted; returns the hosts
// that ran ranks.
std::set<std::string> expect_our_library_everywhere(const std::string &out, int np, const std::vector<int> &hosts)
{
    const std::string our_lib = env_or_fail("PMIXPP_BUILD_DIR") + "/lib/libpmix.so";
    std::set<std::string> allowed;
    for (int index : hosts) allowed.insert(host(index));
    std::map<int, compat_test::LibpmixReport> ranks;
    for (const compat_test::LibpmixReport &report : compat_test::libpmix_reports(out)) {
        cr_expect_eq(ranks.count(report.rank), 0u, "rank %d reported twice", report.rank);
        ranks[report.rank] = report;
    }
    cr_assert_eq(ranks.size(), static_cast<std::size_t>(np), "%zu of %d ranks reported their libpmix:\n%s",
                 ranks.size(), np, out.c_str());
    std::set<std::string> used;
    for (const auto &[rank, line] : ranks) {
        cr_assert(rank >= 0 && rank < np, "rank %d out of range", rank);
        cr_expect(allowed.count(line.host) == 1, "rank %d ran on %s, not a host of this test", rank, line.host.c_str());
        used.insert(line.host);
        cr_expect(starts_with(line.own_libpmix, our_lib), "rank %d on %s mapped %s, not ours (%s*)", rank,
                  line.host.c_str(), line.own_libpmix.c_str(), our_lib.c_str());
        const char *expected_launcher = line.host == host(0) ? "mpirun" : "orted";
        cr_expect_eq(line.launcher, expected_launcher, "rank %d on %s was launched by %s, expected %s", rank,
                     line.host.c_str(), line.launcher.c_str(), expected_launcher);
        cr_expect(starts_with(line.launcher_libpmix, our_lib), "the %s of rank %d on %s mapped %s, not ours (%s*)",
                  line.launcher.c_str(), rank, line.host.c_str(), line.launcher_libpmix.c_str(), our_lib.c_str());
    }
    return used;
}

void expect_allreduce(const std::string &out, int np)
{
    for (int rank = 0; rank < np; ++rank) {
        const std::string line = "rank " + std::to_string(rank) + " of " + std::to_string(np) + ": allreduce sum " +
                                 std::to_string(np * (np + 1) / 2);
        cr_expect(has_line(out, line), "missing '%s' in:\n%s", line.c_str(), out.c_str());
    }
}

void expect_ring(const std::string &out, int np)
{
    for (int rank = 0; rank < np; ++rank) {
        const int prev = (rank + np - 1) % np;
        const std::string line =
            "rank " + std::to_string(rank) + " got " + std::to_string(prev) + " from " + std::to_string(prev);
        cr_expect(has_line(out, line), "missing '%s' in:\n%s", line.c_str(), out.c_str());
    }
    cr_expect(has_line(out, "1000 barriers done"), "missing '1000 barriers done' in:\n%s", out.c_str());
}

// The modex went up to the host once per node with ranks: mpirun's server
// and every orted's handed their ranks' data to fence_nb and got all of it.
void expect_modex_through_host_fence(const std::string &err, std::size_t nodes)
{
    const int asked = count_lines_with(err, "pmixpp: server: asking the host's fence_nb for 1 proc set(s)");
    const int collected = count_lines_with(err, "bytes of data (collect)");
    cr_expect_eq(collected, static_cast<int>(nodes),
                 "%d servers handed the modex to the host's fence_nb, expected %zu:\n%s", collected, nodes,
                 err.c_str());
    cr_expect_geq(asked, collected);
}

}  // namespace

TestSuite(multihost, .init = setup_hosts, .fini = teardown_hosts, .timeout = 280);

// The hosts themselves: own hostname, each resolves the others by name, and
// the agent passes the caller's environment through (orted depends on it).
Test(multihost, hosts_have_names_addresses_and_the_callers_environment)
{
    ::setenv("PMIXPP_MH_PROBE", "passed-through", 1);
    for (int i = 0; i < kHosts; ++i) {
        const std::string peer = host((i + 1) % kHosts);
        Result probe = on_host(i, "hostname; getent hosts " + peer + "; echo probe=$PMIXPP_MH_PROBE", 30);
        cr_assert_eq(probe.code, 0, "netns_rsh.sh %s failed (%d): %s", host(i).c_str(), probe.code, probe.err.c_str());
        const std::vector<std::string> lines = lines_of(probe.out);
        cr_assert_eq(lines.size(), 3u, "unexpected output from %s:\n%s", host(i).c_str(), probe.out.c_str());
        cr_expect_eq(lines[0], host(i));
        cr_expect(starts_with(lines[1], std::string(kSubnet) + "." + std::to_string((i + 1) % kHosts + 1) + " "),
                  "%s resolves %s as '%s'", host(i).c_str(), peer.c_str(), lines[1].c_str());
        cr_expect_eq(lines[2], "probe=passed-through");
    }
    Result unknown = run({script("netns_rsh.sh"), g_prefix + "nosuchhost", "true"}, 30);
    cr_expect_eq(unknown.code, 255, "an unknown host fails as ssh does (255), got %d", unknown.code);
    cr_expect(unknown.err.find("setup.sh") != std::string::npos, "the error names the fix: %s", unknown.err.c_str());
}

// Allreduce over three hosts: 2 ranks under mpirun on n0, 1 under each orted.
Test(multihost, hello_allreduce_on_three_hosts)
{
    const Run spec{"hello_allreduce", 4, {0, 1, 2}, 2, 120};
    Result result = mpirun_across(spec);
    const std::set<std::string> used = expect_our_library_everywhere(result.out, spec.np, spec.hosts);
    cr_expect_eq(used.size(), 3u, "--map-by node put ranks on %zu hosts, expected 3", used.size());
    expect_allreduce(result.out, spec.np);
    expect_modex_through_host_fence(result.err, used.size());
}

// mpirun hosts no rank itself: the fences run between the two orteds'
// servers, through mpirun.
Test(multihost, hello_allreduce_on_remote_hosts_only)
{
    const Run spec{"hello_allreduce", 4, {1, 2}, 2, 120};
    Result result = mpirun_across(spec);
    const std::set<std::string> used = expect_our_library_everywhere(result.out, spec.np, spec.hosts);
    cr_expect_eq(used.size(), 2u, "--map-by node put ranks on %zu hosts, expected 2", used.size());
    expect_allreduce(result.out, spec.np);
    expect_modex_through_host_fence(result.err, used.size());
}

// A ring of MPI_Sendrecv across hosts (tcp endpoints from the modex) and
// 1,000 barriers.
Test(multihost, ring_barrier_on_three_hosts)
{
    const Run spec{"ring_barrier", 8, {0, 1, 2}, 3, 240};
    Result result = mpirun_across(spec);
    const std::set<std::string> used = expect_our_library_everywhere(result.out, spec.np, spec.hosts);
    cr_expect_eq(used.size(), 3u, "--map-by node put ranks on %zu hosts, expected 3", used.size());
    expect_ring(result.out, spec.np);
    expect_modex_through_host_fence(result.err, used.size());
}

// The same ring without a data-collecting modex: each rank's first message
// to a rank on another host fetches that rank's endpoints on demand, from
// its server through the host's direct_modex and the other host's
// PMIx_server_dmodex_request.
Test(multihost, ring_barrier_with_direct_modex)
{
    const Run spec{
        "ring_barrier", 8, {0, 1, 2}, 3, 240, "--mca pmix_base_async_modex 1 --mca pmix_base_collect_data 0"};
    Result result = mpirun_across(spec);
    const std::set<std::string> used = expect_our_library_everywhere(result.out, spec.np, spec.hosts);
    cr_expect_eq(used.size(), 3u, "--map-by node put ranks on %zu hosts, expected 3", used.size());
    expect_ring(result.out, spec.np);
    cr_expect_eq(count_lines_with(result.err, "bytes of data (collect)"), 0, "a data-collecting fence ran:\n%s",
                 result.err.c_str());
    cr_expect_geq(count_lines_with(result.err, "pmixpp: server: asking the host's direct_modex for"), 2,
                  "no server asked its host's direct_modex:\n%s", result.err.c_str());
}
