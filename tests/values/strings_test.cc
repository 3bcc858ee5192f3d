// Converters: status names, enum names, data type names, version.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include <pmix.h>

#include "values/samples.h"
#include "values/tsv_reader.h"

// OpenPMIx's texts, not the constants' names: tools print and compare them.
Test(strings, statuses_read_as_openpmix_spells_them)
{
    cr_expect_str_eq(PMIx_Error_string(PMIX_SUCCESS), "SUCCESS");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERROR), "ERROR");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_BAD_PARAM), "BAD-PARAM");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_NOT_FOUND), "NOT-FOUND");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_UNREACH), "UNREACHABLE");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_SILENT), "SILENT_ERROR");
    cr_expect_str_eq(PMIx_Error_string(PMIX_EVENT_JOB_END), "JOB ENDED");
    cr_expect_str_eq(PMIx_Error_string(PMIX_ERR_PROC_RESTART), "PROC_RESTART");
}

Test(strings, every_status_of_the_recorded_table)
{
    size_t checked = 0;
    for (const auto &[value, text] : tsv::read_pairs("openpmix-4.2.2-status-strings.tsv")) {
        const char *ours = PMIx_Error_string(std::atoi(value.c_str()));
        cr_assert_not_null(ours);
        cr_expect_str_eq(ours, text.c_str(), "status %s", value.c_str());
        ++checked;
    }
    cr_expect_gt(checked, 100u, "the TSV was read");
}

Test(strings, unknown_status_has_openpmix_text)
{
    // PMIX_ERR_IOF_XOFF and PMIX_EXTERNAL_ERR_BASE are constants OpenPMIx's
    // converter does not know either.
    const pmix_status_t odd[] = {1, 12345, -9999, -3001, -3000, -405, -1000000, 2147483647};
    for (pmix_status_t status : odd) {
        const char *text = PMIx_Error_string(status);
        cr_assert_not_null(text);
        cr_expect_str_eq(text, "ERROR STRING NOT FOUND", "status %d", status);
    }
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
