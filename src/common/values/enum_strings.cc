// Printable names of the small PMIx enumerations (PMIx_*_string). The
// returned strings are static; only PMIx_Info_directives_string allocates.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <pmix.h>  // declares the public converters defined here

#include "common/values/named_values.h"
#include "common/values/type_table.h"

namespace pmixpp::values {
namespace {

constexpr NamedValue<int> kProcStates[] = {
    {PMIX_PROC_STATE_UNDEF, "UNDEFINED"},
    {PMIX_PROC_STATE_PREPPED, "PREPPED FOR LAUNCH"},
    {PMIX_PROC_STATE_LAUNCH_UNDERWAY, "LAUNCH UNDERWAY"},
    {PMIX_PROC_STATE_RESTART, "READY FOR RESTART"},
    {PMIX_PROC_STATE_TERMINATE, "MARKED FOR TERMINATION"},
    {PMIX_PROC_STATE_RUNNING, "RUNNING"},
    {PMIX_PROC_STATE_CONNECTED, "CONNECTED TO LOCAL PMIX SERVER"},
    {PMIX_PROC_STATE_UNTERMINATED, "NOT YET TERMINATED"},
    {PMIX_PROC_STATE_TERMINATED, "TERMINATED"},
    {PMIX_PROC_STATE_ERROR, "ERROR"},
    {PMIX_PROC_STATE_KILLED_BY_CMD, "KILLED BY COMMAND"},
    {PMIX_PROC_STATE_ABORTED, "ABORTED"},
    {PMIX_PROC_STATE_FAILED_TO_START, "FAILED TO START"},
    {PMIX_PROC_STATE_ABORTED_BY_SIG, "ABORTED BY SIGNAL"},
    {PMIX_PROC_STATE_TERM_WO_SYNC, "TERMINATED WITHOUT CALLING FINALIZE"},
    {PMIX_PROC_STATE_COMM_FAILED, "COMMUNICATION FAILED"},
    {PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED, "SENSOR BOUND EXCEEDED"},
    {PMIX_PROC_STATE_CALLED_ABORT, "CALLED PMIx_Abort"},
    {PMIX_PROC_STATE_HEARTBEAT_FAILED, "HEARTBEAT FAILED"},
    {PMIX_PROC_STATE_MIGRATING, "MIGRATING"},
    {PMIX_PROC_STATE_CANNOT_RESTART, "CANNOT RESTART"},
    {PMIX_PROC_STATE_TERM_NON_ZERO, "EXITED WITH NON-ZERO STATUS"},
    {PMIX_PROC_STATE_FAILED_TO_LAUNCH, "FAILED TO LAUNCH"},
};

constexpr NamedValue<int> kJobStates[] = {
    {PMIX_JOB_STATE_UNDEF, "UNDEFINED"},
    {PMIX_JOB_STATE_AWAITING_ALLOC, "AWAITING ALLOCATION"},
    {PMIX_JOB_STATE_LAUNCH_UNDERWAY, "LAUNCH UNDERWAY"},
    {PMIX_JOB_STATE_RUNNING, "RUNNING"},
    {PMIX_JOB_STATE_SUSPENDED, "SUSPENDED"},
    {PMIX_JOB_STATE_CONNECTED, "CONNECTED"},
    {PMIX_JOB_STATE_UNTERMINATED, "NOT YET TERMINATED"},
    {PMIX_JOB_STATE_TERMINATED, "TERMINATED"},
    {PMIX_JOB_STATE_TERMINATED_WITH_ERROR, "TERMINATED WITH ERROR"},
};

constexpr NamedValue<int> kScopes[] = {
    {PMIX_SCOPE_UNDEF, "UNDEFINED"},
    {PMIX_LOCAL, "SHARE ON LOCAL NODE ONLY"},
    {PMIX_REMOTE, "SHARE ON REMOTE NODES ONLY"},
    {PMIX_GLOBAL, "SHARE ACROSS ALL NODES"},
    {PMIX_INTERNAL, "STORE INTERNALLY"},
};

constexpr NamedValue<int> kPersistences[] = {
    {PMIX_PERSIST_INDEF, "INDEFINITE"},
    {PMIX_PERSIST_FIRST_READ, "DELETE ON FIRST ACCESS"},
    {PMIX_PERSIST_PROC, "RETAIN UNTIL PUBLISHING PROCESS TERMINATES"},
    {PMIX_PERSIST_APP, "RETAIN UNTIL APPLICATION OF PUBLISHING PROCESS TERMINATES"},
    {PMIX_PERSIST_SESSION, "RETAIN UNTIL ALLOCATION OF PUBLISHING PROCESS TERMINATES"},
    {PMIX_PERSIST_INVALID, "INVALID"},
};

constexpr NamedValue<int> kRanges[] = {
    {PMIX_RANGE_UNDEF, "UNDEFINED"},
    {PMIX_RANGE_RM, "INTENDED FOR HOST RESOURCE MANAGER ONLY"},
    {PMIX_RANGE_LOCAL, "AVAIL ON LOCAL NODE ONLY"},
    {PMIX_RANGE_NAMESPACE, "AVAIL TO PROCESSES IN SAME JOB ONLY"},
    {PMIX_RANGE_SESSION, "AVAIL TO PROCESSES IN SAME ALLOCATION ONLY"},
    {PMIX_RANGE_GLOBAL, "AVAIL TO ANYONE WITH AUTHORIZATION"},
    {PMIX_RANGE_CUSTOM, "AVAIL AS SPECIFIED IN DIRECTIVES"},
    {PMIX_RANGE_PROC_LOCAL, "AVAIL ON LOCAL PROC ONLY"},
    {PMIX_RANGE_INVALID, "INVALID"},
};

constexpr NamedValue<int> kAllocDirectives[] = {
    {PMIX_ALLOC_NEW, "NEW"},           {PMIX_ALLOC_EXTEND, "EXTEND"},
    {PMIX_ALLOC_RELEASE, "RELEASE"},   {PMIX_ALLOC_REAQUIRE, "REACQUIRE"},
    {PMIX_ALLOC_EXTERNAL, "EXTERNAL"},
};

constexpr NamedValue<int> kLinkStates[] = {
    {PMIX_LINK_STATE_UNKNOWN, "UNKNOWN"},
    {PMIX_LINK_DOWN, "INACTIVE"},
    {PMIX_LINK_UP, "ACTIVE"},
};

constexpr NamedValue<pmix_device_type_t> kDeviceTypes[] = {
    {PMIX_DEVTYPE_UNKNOWN, "UNKNOWN"},
    {PMIX_DEVTYPE_BLOCK, "BLOCK"},
    {PMIX_DEVTYPE_GPU, "GPU"},
    {PMIX_DEVTYPE_NETWORK, "NETWORK"},
    {PMIX_DEVTYPE_OPENFABRICS, "OPENFABRICS"},
    {PMIX_DEVTYPE_DMA, "DMA"},
    {PMIX_DEVTYPE_COPROC, "COPROCESSOR"},
};

constexpr NamedValue<int> kComparisons[] = {
    {PMIX_EQUAL, "EQUAL"},
    {PMIX_VALUE1_GREATER, "VALUE1 GREATER"},
    {PMIX_VALUE2_GREATER, "VALUE2 GREATER"},
    {PMIX_VALUE_TYPE_DIFFERENT, "DIFFERENT TYPES"},
    {PMIX_VALUE_INCOMPATIBLE_OBJECTS, "INCOMPATIBLE OBJECTS"},
    {PMIX_VALUE_COMPARISON_NOT_AVAIL, "COMPARISON NOT AVAILABLE"},
};

// Every combination of the four channel bits, indexed by the bit mask, so
// that a static string can be returned without a buffer.
constexpr const char *kChannelSets[16] = {
    "NONE",
    "STDIN",
    "STDOUT",
    "STDIN STDOUT",
    "STDERR",
    "STDIN STDERR",
    "STDOUT STDERR",
    "STDIN STDOUT STDERR",
    "STDDIAG",
    "STDIN STDDIAG",
    "STDOUT STDDIAG",
    "STDIN STDOUT STDDIAG",
    "STDERR STDDIAG",
    "STDIN STDERR STDDIAG",
    "STDOUT STDERR STDDIAG",
    "STDIN STDOUT STDERR STDDIAG",
};

constexpr NamedValue<pmix_info_directives_t> kDirectiveBits[] = {
    {PMIX_INFO_REQD, "REQUIRED"},
    {PMIX_INFO_ARRAY_END, "END-OF-ARRAY"},
    {PMIX_INFO_REQD_PROCESSED, "REQUIRED-PROCESSED"},
    {PMIX_INFO_QUALIFIER, "QUALIFIER"},
    {PMIX_INFO_PERSISTENT, "PERSISTENT"},
};

constexpr const char kUnknown[] = "UNKNOWN";

}  // namespace
}  // namespace pmixpp::values

namespace values = pmixpp::values;

extern "C" {

PMIX_EXPORT const char *PMIx_Proc_state_string(pmix_proc_state_t state)
{
    return values::name_of(values::kProcStates, state, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Job_state_string(pmix_job_state_t state)
{
    return values::name_of(values::kJobStates, state, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Scope_string(pmix_scope_t scope)
{
    return values::name_of(values::kScopes, scope, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Persistence_string(pmix_persistence_t persist)
{
    return values::name_of(values::kPersistences, persist, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Data_range_string(pmix_data_range_t range)
{
    return values::name_of(values::kRanges, range, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Alloc_directive_string(pmix_alloc_directive_t directive)
{
    return values::name_of(values::kAllocDirectives, directive, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Link_state_string(pmix_link_state_t state)
{
    return values::name_of(values::kLinkStates, state, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Device_type_string(pmix_device_type_t type)
{
    return values::name_of(values::kDeviceTypes, type, values::kUnknown);
}

PMIX_EXPORT const char *PMIx_Value_comparison_string(pmix_value_cmp_t cmp)
{
    return values::name_of(values::kComparisons, static_cast<int>(cmp), values::kUnknown);
}

PMIX_EXPORT const char *PMIx_IOF_channel_string(pmix_iof_channel_t channel)
{
    if (channel > 15) {
        return values::kUnknown;
    }
    return values::kChannelSets[channel];
}

PMIX_EXPORT const char *PMIx_Data_type_string(pmix_data_type_t type)
{
    const values::TypeTraits *traits = values::find_type(type);
    return nullptr == traits ? values::kUnknown : traits->name;
}

// Names each set bit, joined by ':'; "NONE" for 0. The caller frees it.
PMIX_EXPORT char *PMIx_Info_directives_string(pmix_info_directives_t directives)
{
    std::string text;
    try {
        pmix_info_directives_t known = 0;
        for (const auto &bit : values::kDirectiveBits) {
            known |= bit.value;
            if (0 != (directives & bit.value)) {
                text += text.empty() ? "" : ":";
                text += bit.name;
            }
        }
        if (0 != (directives & ~known)) {
            char extra[32];
            std::snprintf(extra, sizeof(extra), "%sOTHER(0x%x)", text.empty() ? "" : ":",
                          static_cast<unsigned>(directives & ~known));
            text += extra;
        }
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
    return strdup(text.empty() ? "NONE" : text.c_str());
}

}  // extern "C"
