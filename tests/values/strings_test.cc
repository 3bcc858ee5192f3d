// Converters: status names, enum names, data type names, version.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include <pmix.h>

#include "values/samples.h"
#include "values/tsv_reader.h"

namespace {

bool is_status(const tsv::Row &row)
{
    return "number" == row.kind && (std::strtoll(row.value.c_str(), nullptr, 10) < 0 || "PMIX_SUCCESS" == row.name);
}

}  // namespace

Test(strings, every_status_constant_has_its_own_name)
{
    size_t checked = 0;
    for (const tsv::Row &row : tsv::read("pmix-v4.2-constants.tsv")) {
        if (!is_status(row) || "pmix_common.h" != row.header) {
            continue;
        }
        const char *name = PMIx_Error_string(std::atoi(row.value.c_str()));
        cr_assert_not_null(name);
        cr_expect_str_eq(name, row.name.c_str());
        ++checked;
    }
    cr_expect_gt(checked, 100u, "the TSV was read");
}

Test(strings, deprecated_and_newer_statuses_are_named)
{
    std::vector<tsv::Row> rows = tsv::read("pmix-v4.2-constants.tsv");
    for (const tsv::Row &row : tsv::read("pmix-master-additions.tsv")) {
        rows.push_back(row);
    }
    for (const tsv::Row &row : rows) {
        if (!is_status(row)) {
            continue;
        }
        const char *name = PMIx_Error_string(std::atoi(row.value.c_str()));
        cr_expect_eq(0, std::strncmp(name, "PMIX_", 5), "%s -> %s", row.name.c_str(), name);
    }
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_NOT_FOUND), "PMIX_ERR_NOT_FOUND");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_JOB_TERMINATED), "PMIX_EVENT_JOB_END");
}

Test(strings, unknown_status_is_never_null)
{
    const pmix_status_t odd[] = {1, 12345, -9999, -3001, -2, -1000000, 2147483647};
    for (pmix_status_t status : odd) {
        const char *name = PMIx_Error_string(status);
        cr_assert_not_null(name);
        cr_expect_neq(std::strstr(name, "PMIX_ERR_NOT_FOUND"), name);
    }
    cr_expect_str_eq(PMIx_Error_string(12345), "UNKNOWN STATUS");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_SILENT), "PMIX_ERR_SILENT");
}

Test(strings, every_data_type_has_its_name)
{
    // The data types are the block of constants from PMIX_UNDEF to PMIX_DATA_TYPE_MAX.
    std::map<long long, std::string> names;
    bool in_block = false;
    for (const tsv::Row &row : tsv::read("pmix-v4.2-constants.tsv")) {
        in_block = in_block || "PMIX_UNDEF" == row.name;
        if ("PMIX_DATA_TYPE_MAX" == row.name) {
            break;
        }
        if (in_block && "number" == row.kind) {
            names.emplace(std::strtoll(row.value.c_str(), nullptr, 10), row.name);
        }
    }
    for (pmix_data_type_t type : samples::element_types()) {
        cr_assert(names.count(type), "type %u", type);
        cr_expect_str_eq(PMIx_Data_type_string(type), names[type].c_str());
    }
    cr_expect_str_eq(PMIx_Data_type_string(PMIX_UNDEF), "PMIX_UNDEF");
    cr_expect_str_eq(PMIx_Data_type_string(PMIX_KVAL), "PMIX_KVAL");
    cr_expect_str_eq(PMIx_Data_type_string(4321), "UNKNOWN");
}

Test(strings, enumerations)
{
    cr_expect_str_eq(PMIx_Proc_state_string(PMIX_PROC_STATE_RUNNING), "RUNNING");
    cr_expect_str_eq(PMIx_Proc_state_string(200), "UNKNOWN");
    cr_expect_str_eq(PMIx_Job_state_string(PMIX_JOB_STATE_TERMINATED), "TERMINATED");
    cr_expect_str_eq(PMIx_Scope_string(PMIX_GLOBAL), "SHARE ACROSS ALL NODES");
    cr_expect_str_eq(PMIx_Persistence_string(PMIX_PERSIST_INVALID), "INVALID");
    cr_expect_str_eq(PMIx_Data_range_string(PMIX_RANGE_NAMESPACE), "AVAIL TO PROCESSES IN SAME JOB ONLY");
    cr_expect_str_eq(PMIx_Alloc_directive_string(PMIX_ALLOC_EXTEND), "EXTEND");
    cr_expect_str_eq(PMIx_Link_state_string(PMIX_LINK_UP), "ACTIVE");
    cr_expect_str_eq(PMIx_Device_type_string(PMIX_DEVTYPE_GPU), "GPU");
    cr_expect_str_eq(PMIx_Device_type_string(0x400), "UNKNOWN");
    cr_expect_str_eq(PMIx_Value_comparison_string(PMIX_VALUE_TYPE_DIFFERENT), "DIFFERENT TYPES");
    cr_expect_str_eq(PMIx_IOF_channel_string(PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL), "STDOUT STDERR");
    cr_expect_str_eq(PMIx_IOF_channel_string(0), "NONE");
    cr_expect_str_eq(PMIx_IOF_channel_string(0x100), "UNKNOWN");
    const pmix_scope_t scopes[] = {PMIX_SCOPE_UNDEF, PMIX_LOCAL, PMIX_REMOTE, PMIX_GLOBAL, PMIX_INTERNAL};
    for (pmix_scope_t s : scopes) {
        cr_expect_str_neq(PMIx_Scope_string(s), "UNKNOWN");
    }
}

Test(strings, info_directives_are_allocated)
{
    char *text = PMIx_Info_directives_string(PMIX_INFO_REQD | PMIX_INFO_QUALIFIER);
    cr_assert_not_null(text);
    cr_expect_str_eq(text, "REQUIRED:QUALIFIER");
    std::free(text);
    text = PMIx_Info_directives_string(0);
    cr_expect_str_eq(text, "NONE");
    std::free(text);
    text = PMIx_Info_directives_string(0x10000);
    cr_expect_str_eq(text, "OTHER(0x10000)");
    std::free(text);
}

Test(strings, version)
{
    const char *version = PMIx_Get_version();
    cr_assert_not_null(version);
    cr_expect_gt(version[0], '2', "Open MPI rejects versions starting with <= '2'");
    cr_expect_eq(0, std::strncmp(version, "pmixpp ", 7));
    cr_expect_not_null(std::strstr(version, "(PMIx Standard: 4.2, Stable ABI: 0.0, Provisional ABI: 0.0)"));
    cr_expect(version[7] >= '0' && version[7] <= '9', "our version follows the name");
}
