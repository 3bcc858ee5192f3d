// PMIx_Compute_distances(_nb) over a topology of two packages with devices
// in each (data/two_packages_with_devices.xml), over this machine's own, and
// on input it must refuse.
#include <criterion/criterion.h>

#include <hwloc.h>
#include <pmix.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

hwloc_topology_t g_topology = nullptr;
pmix_topology_t g_topo;

void load_fixture()
{
    cr_assert_eq(hwloc_topology_init(&g_topology), 0);
    // I/O objects in an XML are dropped unless the filter keeps them.
    cr_assert_eq(hwloc_topology_set_io_types_filter(g_topology, HWLOC_TYPE_FILTER_KEEP_ALL), 0);
    cr_assert_eq(hwloc_topology_set_xml(g_topology, DISTANCES_XML), 0, "cannot read %s", DISTANCES_XML);
    cr_assert_eq(hwloc_topology_load(g_topology), 0);
    PMIX_TOPOLOGY_CONSTRUCT(&g_topo);
    g_topo.source = const_cast<char *>("hwloc");
    g_topo.topology = g_topology;
}

void drop_fixture()
{
    if (g_topology != nullptr) hwloc_topology_destroy(g_topology);
    g_topology = nullptr;
}

struct Cpus {
    pmix_cpuset_t set;
    explicit Cpus(const char *text) { cr_assert_eq(PMIx_Parse_cpuset_string(text, &set), PMIX_SUCCESS, "%s", text); }
    ~Cpus() { PMIx_Cpuset_destruct(&set); }
};

const pmix_device_distance_t *named(const pmix_device_distance_t *d, size_t n, const char *osname)
{
    for (size_t i = 0; i < n; ++i) {
        if (std::strcmp(d[i].osname, osname) == 0) return &d[i];
    }
    return nullptr;
}

std::string host()
{
    char name[256] = {};
    (void)gethostname(name, sizeof name - 1);
    return name;
}

}  // namespace

TestSuite(client_distances, .init = load_fixture, .fini = drop_fixture);

Test(client_distances, devices_of_the_own_package_are_nearer)
{
    Cpus pu0("hwloc:0");
    pmix_device_distance_t *d = nullptr;
    size_t n = 0;
    cr_assert_eq(PMIx_Compute_distances(&g_topo, &pu0.set, nullptr, 0, &d, &n), PMIX_SUCCESS);
    cr_expect_eq(n, 5, "eth0, ib0, eth1, mlx5_0, cuda0 (card0 and the disk are not reported)");

    const pmix_device_distance_t *eth0 = named(d, n, "eth0");
    const pmix_device_distance_t *eth1 = named(d, n, "eth1");
    const pmix_device_distance_t *ib0 = named(d, n, "ib0");
    const pmix_device_distance_t *mlx = named(d, n, "mlx5_0");
    const pmix_device_distance_t *gpu = named(d, n, "cuda0");
    cr_assert(eth0 && eth1 && ib0 && mlx && gpu);
    cr_expect_null(named(d, n, "card0"));
    cr_expect_null(named(d, n, "sda"));

    cr_expect_str_eq(eth0->uuid, "ipv4://02:00:00:00:00:01");
    cr_expect_str_eq(ib0->uuid, "ipv6://00:00:10:87:fe:80:00:00:00:00:00:00:00:11:22:33:44:55:66:77");
    cr_expect_str_eq(mlx->uuid, "fab://0011:2233:4455:6677::0011:2233:4455:6600");
    const std::string gpu_uuid = "gpu://" + host() + "::cuda0";
    cr_expect_str_eq(gpu->uuid, gpu_uuid.c_str());
    cr_expect_eq(eth0->type, PMIX_DEVTYPE_NETWORK);
    cr_expect_eq(mlx->type, PMIX_DEVTYPE_OPENFABRICS);
    cr_expect_eq(gpu->type, PMIX_DEVTYPE_GPU);

    // PU 0 -> core -> package 0 holds eth0; everything else is met at the machine.
    cr_expect_eq(eth0->mindist, 2);
    cr_expect_eq(eth0->maxdist, 2);
    for (const pmix_device_distance_t *far : {eth1, ib0, mlx, gpu}) {
        cr_expect_eq(far->mindist, 3, "%s", far->osname);
        cr_expect_eq(far->maxdist, 3, "%s", far->osname);
    }
    PMIX_DEVICE_DIST_FREE(d, n);
}

Test(client_distances, a_cpuset_over_both_packages_spans_near_and_far)
{
    Cpus both("hwloc:0,2");
    pmix_device_distance_t *d = nullptr;
    size_t n = 0;
    cr_assert_eq(PMIx_Compute_distances(&g_topo, &both.set, nullptr, 0, &d, &n), PMIX_SUCCESS);
    const pmix_device_distance_t *eth0 = named(d, n, "eth0");
    const pmix_device_distance_t *mlx = named(d, n, "mlx5_0");
    const pmix_device_distance_t *eth1 = named(d, n, "eth1");
    cr_assert(eth0 && mlx && eth1);
    cr_expect(eth0->mindist == 2 && eth0->maxdist == 3, "eth0 %u-%u", eth0->mindist, eth0->maxdist);
    cr_expect(mlx->mindist == 2 && mlx->maxdist == 3, "mlx5_0 %u-%u", mlx->mindist, mlx->maxdist);
    cr_expect(eth1->mindist == 3 && eth1->maxdist == 3, "eth1 %u-%u", eth1->mindist, eth1->maxdist);
    PMIX_DEVICE_DIST_FREE(d, n);
}

Test(client_distances, type_and_id_narrow_the_answer)
{
    Cpus pu3("hwloc:3");
    pmix_device_distance_t *d = nullptr;
    size_t n = 0;
    pmix_info_t only;
    pmix_device_type_t gpus = PMIX_DEVTYPE_GPU;
    PMIX_INFO_LOAD(&only, PMIX_DEVICE_TYPE, &gpus, PMIX_DEVTYPE);
    cr_assert_eq(PMIx_Compute_distances(&g_topo, &pu3.set, &only, 1, &d, &n), PMIX_SUCCESS);
    cr_assert_eq(n, 1);
    cr_expect_str_eq(d[0].osname, "cuda0");
    cr_expect_eq(d[0].mindist, 2, "cuda0 is in PU 3's package");
    PMIX_DEVICE_DIST_FREE(d, n);
    PMIX_INFO_DESTRUCT(&only);

    PMIX_INFO_LOAD(&only, PMIX_DEVICE_ID, "ipv4://02:00:00:00:00:02", PMIX_STRING);
    cr_assert_eq(PMIx_Compute_distances(&g_topo, &pu3.set, &only, 1, &d, &n), PMIX_SUCCESS);
    cr_assert_eq(n, 1);
    cr_expect_str_eq(d[0].osname, "eth1", "found by uuid");
    PMIX_DEVICE_DIST_FREE(d, n);
    PMIX_INFO_DESTRUCT(&only);

    PMIX_INFO_LOAD(&only, PMIX_DEVICE_ID, "no-such-device", PMIX_STRING);
    cr_expect_eq(PMIx_Compute_distances(&g_topo, &pu3.set, &only, 1, &d, &n), PMIX_ERR_NOT_FOUND);
    cr_expect(d == nullptr && n == 0);
    PMIX_INFO_DESTRUCT(&only);
}

Test(client_distances, refuses_what_it_cannot_use)
{
    pmix_device_distance_t *d = nullptr;
    size_t n = 0;
    Cpus pu0("hwloc:0");
    Cpus elsewhere("hwloc:64-65");
    cr_expect_eq(PMIx_Compute_distances(&g_topo, &elsewhere.set, nullptr, 0, &d, &n), PMIX_ERR_BAD_PARAM,
                 "no PU of the topology");
    pmix_info_t wrong;
    PMIX_INFO_LOAD(&wrong, PMIX_DEVICE_TYPE, "gpu", PMIX_STRING);
    cr_expect_eq(PMIx_Compute_distances(&g_topo, &pu0.set, &wrong, 1, &d, &n), PMIX_ERR_BAD_PARAM, "a string type");
    PMIX_INFO_DESTRUCT(&wrong);
    pmix_topology_t other = g_topo;
    other.source = const_cast<char *>("netloc");
    cr_expect_eq(PMIx_Compute_distances(&other, &pu0.set, nullptr, 0, &d, &n), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_eq(PMIx_Compute_distances(&g_topo, &pu0.set, nullptr, 0, nullptr, &n), PMIX_ERR_BAD_PARAM);
    cr_expect(d == nullptr && n == 0, "nothing handed out on a refusal");
    cr_expect_eq(PMIx_Compute_distances_nb(
                     &g_topo, &pu0.set, nullptr, 0,
                     [](pmix_status_t, pmix_device_distance_t *, size_t, void *, pmix_release_cbfunc_t, void *) {},
                     nullptr),
                 PMIX_ERR_INIT, "the _nb form answers on the progress thread: PMIx must be initialized");
}

// This machine, its own binding: every network device hwloc names with an
// address is there, and nothing is nearer than 1 hop or inside out.
Test(client_distances, this_machine_from_its_own_binding)
{
    hwloc_topology_t here = nullptr;
    cr_assert_eq(hwloc_topology_init(&here), 0);
    cr_assert_eq(hwloc_topology_set_io_types_filter(here, HWLOC_TYPE_FILTER_KEEP_IMPORTANT), 0);
    cr_assert_eq(hwloc_topology_load(here), 0);
    size_t nics = 0;
    for (hwloc_obj_t dev = hwloc_get_next_osdev(here, nullptr); dev != nullptr; dev = hwloc_get_next_osdev(here, dev)) {
        const char *address = hwloc_obj_get_info_by_name(dev, "Address");
        if (dev->attr->osdev.type == HWLOC_OBJ_OSDEV_NETWORK && address != nullptr) {
            const long colons = std::count(address, address + std::strlen(address), ':');
            nics += colons == 5 || colons == 19 ? 1 : 0;
        }
    }
    hwloc_topology_destroy(here);

    pmix_device_distance_t *d = nullptr;
    size_t n = 0;
    pmix_info_t only;
    pmix_device_type_t network = PMIX_DEVTYPE_NETWORK;
    PMIX_INFO_LOAD(&only, PMIX_DEVICE_TYPE, &network, PMIX_DEVTYPE);
    const pmix_status_t rc = PMIx_Compute_distances(nullptr, nullptr, &only, 1, &d, &n);
    PMIX_INFO_DESTRUCT(&only);
    if (nics == 0) {
        cr_expect_eq(rc, PMIX_ERR_NOT_FOUND, "no network device here");
        return;
    }
    cr_assert_eq(rc, PMIX_SUCCESS);
    cr_expect_eq(n, nics);
    for (size_t i = 0; i < n; ++i) {
        cr_expect(std::strncmp(d[i].uuid, "ipv", 3) == 0, "%s: uuid %s", d[i].osname, d[i].uuid);
        cr_expect(d[i].mindist >= 1 && d[i].mindist <= d[i].maxdist, "%s: %u-%u", d[i].osname, d[i].mindist,
                  d[i].maxdist);
    }
    PMIX_DEVICE_DIST_FREE(d, n);
}

namespace {

struct NbAnswer {
    std::atomic<bool> done{false};
    pmix_status_t status = PMIX_ERROR;
    size_t count = 0;
    std::string first;
};

}  // namespace

Test(client_distances, the_nb_form_answers_on_the_progress_thread)
{
    for (const char *name : {"PMIXPP_SERVER_URIS", "PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                             "PMIX_SERVER_URI2", "PMIX_SERVER_URI21", "PMIX_NAMESPACE", "PMIX_RANK"}) {
        unsetenv(name);
    }
    pmix_proc_t me;
    cr_assert_eq(PMIx_Init(&me, nullptr, 0), PMIX_SUCCESS);
    Cpus pu0("hwloc:0");
    NbAnswer answer;
    cr_assert_eq(PMIx_Compute_distances_nb(
                     &g_topo, &pu0.set, nullptr, 0,
                     [](pmix_status_t status, pmix_device_distance_t *d, size_t n, void *cbdata,
                        pmix_release_cbfunc_t release, void *release_data) {
                         auto *a = static_cast<NbAnswer *>(cbdata);
                         a->status = status;
                         a->count = n;
                         if (n > 0) a->first = d[0].osname;
                         if (release != nullptr) release(release_data);
                         a->done = true;
                     },
                     &answer),
                 PMIX_SUCCESS);
    for (int waited = 0; !answer.done && waited < 10000; waited += 5) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    cr_assert(answer.done.load(), "no answer within 10 s");
    cr_expect_eq(answer.status, PMIX_SUCCESS);
    cr_expect_eq(answer.count, 5);
    cr_expect_str_eq(answer.first.c_str(), "eth0");
    cr_expect_eq(PMIx_Finalize(nullptr, 0), PMIX_SUCCESS);
}
