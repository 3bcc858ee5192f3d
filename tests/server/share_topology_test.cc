// PMIX_SERVER_SHARE_TOPOLOGY: the server's topology travels as hwloc v2 XML in
// the node data of this node, inside the job data of the Welcome.
#include "server/server_fixture.h"

#include "common/store/store.h"
#include "common/values/value_ops.h"
#include "framework/src/selected_modules.h"

#include <criterion/criterion.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace server_test;
using namespace pmixpp;

namespace {

void start_sharing_server(bool share)
{
    const std::string tmpdir = make_tmpdir();
    pmix_info_t info[3];
    values::info_load(&info[0], PMIX_SERVER_TMPDIR, tmpdir.c_str(), PMIX_STRING);
    values::info_load(&info[1], PMIX_HOSTNAME, kHost, PMIX_STRING);
    values::info_load(&info[2], PMIX_SERVER_SHARE_TOPOLOGY, &share, PMIX_BOOL);
    const pmix_status_t rc = PMIx_server_init(nullptr, info, 3);
    for (auto &item : info) values::info_destruct(&item);
    cr_assert_eq(rc, PMIX_SUCCESS, "PMIx_server_init: %s", PMIx_Error_string(rc));
    register_job(kJob, 1);
}

// The node-level PMIX_HWLOC_XML_V2 of node 0 in the job data a client of
// kJob is welcomed with; status of the fetch.
pmix_status_t welcomed_xml(std::string *xml_p)
{
    RawClient client;
    wire::Welcome welcome;
    cr_assert_eq(client.hello(kJob, 0, &welcome), PMIX_SUCCESS);
    std::vector<framework::SelectedModule> modules;
    cr_assert_eq(framework::select("gds", &modules), PMIX_SUCCESS);
    cr_assert(!modules.empty());
    std::unique_ptr<store::Store> store;
    cr_assert_eq(store::Store::create(static_cast<const pmixpp_gds_module_t *>(modules[0].module), &store),
                 PMIX_SUCCESS);
    pmix_byte_object_t blob;
    blob.bytes = reinterpret_cast<char *>(welcome.job_data.data());
    blob.size = welcome.job_data.size();
    cr_assert_eq(store->import_nspace(kJob, blob), PMIX_SUCCESS);
    store::ValuePtr value;
    const pmix_status_t rc = store->fetch(kJob, PMIXPP_GDS_LEVEL_NODE, 0, PMIX_HWLOC_XML_V2, &value);
    if (rc == PMIX_SUCCESS) {
        cr_assert_eq(value->type, PMIX_STRING);
        *xml_p = value->data.string;
    }
    return rc;
}

void teardown()
{
    PMIx_server_finalize();
}

}  // namespace

Test(server_share_topology, xml_in_the_node_data_of_the_welcome, .fini = teardown)
{
    start_sharing_server(true);
    std::string xml;
    cr_assert_eq(welcomed_xml(&xml), PMIX_SUCCESS, "no PMIX_HWLOC_XML_V2 in the node data");
    cr_expect(xml.find("<topology") != std::string::npos, "not hwloc XML: %.80s", xml.c_str());
    cr_expect(xml.find("version=\"2.0\"") != std::string::npos, "not the v2 format: %.200s", xml.c_str());
}

Test(server_share_topology, nothing_shared_unless_asked, .fini = teardown)
{
    start_sharing_server(false);
    std::string xml;
    cr_expect_eq(welcomed_xml(&xml), PMIX_ERR_NOT_FOUND);
}
