/*
 * topology: a client of a server started with PMIX_SERVER_SHARE_TOPOLOGY.
 * Its node's data holds the server's topology as hwloc v2 XML
 * (PMIX_HWLOC_XML_V2), and PMIx_Load_topology gives a topology that a
 * PMIx_Topology_destruct does not take away.
 */
#include "client_util.h"

static void check_shared_xml(void)
{
    pmix_value_t *value = NULL;
    pmix_status_t rc = PMIx_Get(&itc_me, PMIX_NODEID, NULL, 0, &value);
    ITC_CHECK(rc == PMIX_SUCCESS && value->type == PMIX_UINT32, "get my %s: %s", PMIX_NODEID, itc_err(rc));
    if (rc != PMIX_SUCCESS) return;
    const uint32_t nodeid = value->data.uint32;
    PMIX_VALUE_RELEASE(value);

    pmix_info_t qualifiers[2];
    const bool yes = true;
    PMIX_INFO_LOAD(&qualifiers[0], PMIX_NODE_INFO, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&qualifiers[1], PMIX_NODEID, &nodeid, PMIX_UINT32);
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, itc_me.nspace, PMIX_RANK_WILDCARD);
    value = NULL;
    rc = PMIx_Get(&job, PMIX_HWLOC_XML_V2, qualifiers, 2, &value);
    ITC_CHECK(rc == PMIX_SUCCESS, "get %s: %s", PMIX_HWLOC_XML_V2, itc_err(rc));
    if (rc == PMIX_SUCCESS) {
        ITC_CHECK(value->type == PMIX_STRING && value->data.string != NULL &&
                      strstr(value->data.string, "<topology") != NULL,
                  "%s is not hwloc XML", PMIX_HWLOC_XML_V2);
        PMIX_VALUE_RELEASE(value);
    }
    PMIX_INFO_DESTRUCT(&qualifiers[0]);
    PMIX_INFO_DESTRUCT(&qualifiers[1]);
}

static void check_load_topology(void)
{
    pmix_topology_t topo;
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    pmix_status_t rc = PMIx_Load_topology(&topo);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Load_topology: %s", itc_err(rc));
    if (rc != PMIX_SUCCESS) return;
    ITC_CHECK(topo.topology != NULL, "no topology");
    ITC_CHECK(topo.source != NULL && strncmp(topo.source, "hwloc", 5) == 0, "source \"%s\"",
              topo.source != NULL ? topo.source : "(null)");
    void *first = topo.topology;
    PMIx_Topology_destruct(&topo);
    PMIX_TOPOLOGY_CONSTRUCT(&topo);
    rc = PMIx_Load_topology(&topo);
    ITC_CHECK(rc == PMIX_SUCCESS && topo.topology == first, "a second load gave another topology (%s)", itc_err(rc));
    PMIx_Topology_destruct(&topo);
}

int main(void)
{
    itc_start();
    pmix_status_t rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s\n", itc_err(rc));
        return 1;
    }
    itc_step("shared xml");
    check_shared_xml();
    itc_step("load topology");
    check_load_topology();
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "finalize: %s", itc_err(rc));
    return itc_finish();
}
