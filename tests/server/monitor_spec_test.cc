// What a PMIx_Process_monitor request asks the server to run itself
// (server/monitor/monitor_spec.h): defaults, required directives and the
// reasons given, the ways to cancel, unknown monitor types.
#include "server/monitor/monitor_spec.h"

#include <criterion/criterion.h>

#include <pmix.h>

#include <string>

using namespace pmixpp::server::monitor;

namespace {

struct Infos {
    pmix_info_t monitor;
    pmix_info_t dirs[4];
    size_t ndirs = 0;
    Infos() { PMIX_INFO_CONSTRUCT(&monitor); }
    ~Infos()
    {
        PMIX_INFO_DESTRUCT(&monitor);
        for (size_t i = 0; i < ndirs; ++i) PMIX_INFO_DESTRUCT(&dirs[i]);
    }
    void add(const char *key, const void *data, pmix_data_type_t type)
    {
        PMIX_INFO_LOAD(&dirs[ndirs++], key, data, type);
    }
    pmix_status_t read(Spec *spec_p, std::string *reason_p)
    {
        return read_spec(monitor, dirs, ndirs, spec_p, reason_p);
    }
};

const bool kYes = true;

}  // namespace

Test(monitor_spec, heartbeat_defaults_and_any_integer_period)
{
    Infos in;
    PMIX_INFO_LOAD(&in.monitor, PMIX_MONITOR_HEARTBEAT, &kYes, PMIX_BOOL);
    const int period = 3;  // as python3-pmix passes it
    in.add(PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_INT);
    Spec spec;
    std::string reason;
    cr_assert_eq(in.read(&spec, &reason), PMIX_SUCCESS, "%s", reason.c_str());
    cr_expect(spec.kind == Kind::heartbeat);
    cr_expect_eq(spec.period_s, 3u);
    cr_expect_eq(spec.drops, 1u);
    cr_expect_eq(spec.range, PMIX_RANGE_NAMESPACE);
    cr_expect(spec.id.empty());
}

Test(monitor_spec, heartbeat_without_a_period_names_the_directive)
{
    Infos in;
    PMIX_INFO_LOAD(&in.monitor, PMIX_MONITOR_HEARTBEAT, &kYes, PMIX_BOOL);
    const uint32_t drops = 2;
    in.add(PMIX_MONITOR_HEARTBEAT_DROPS, &drops, PMIX_UINT32);
    Spec spec;
    std::string reason;
    cr_expect_eq(in.read(&spec, &reason), PMIX_ERR_BAD_PARAM);
    cr_expect(reason.find("PMIX_MONITOR_HEARTBEAT_TIME") != std::string::npos, "reason: %s", reason.c_str());
}

Test(monitor_spec, file_monitor_reads_its_criteria_as_bool_or_string)
{
    Infos in;
    PMIX_INFO_LOAD(&in.monitor, PMIX_MONITOR_FILE, "/var/log/x", PMIX_STRING);
    const uint32_t period = 2, drops = 5;
    in.add(PMIX_MONITOR_FILE_CHECK_TIME, &period, PMIX_UINT32);
    in.add(PMIX_MONITOR_FILE_DROPS, &drops, PMIX_UINT32);
    in.add(PMIX_MONITOR_FILE_MODIFY, "yes", PMIX_STRING);  // declared char* in the headers
    in.add(PMIX_MONITOR_ID, "log", PMIX_STRING);
    Spec spec;
    std::string reason;
    cr_assert_eq(in.read(&spec, &reason), PMIX_SUCCESS, "%s", reason.c_str());
    cr_expect(spec.kind == Kind::file);
    cr_expect(spec.path == "/var/log/x");
    cr_expect(spec.watch_modify && !spec.watch_size && !spec.watch_access);
    cr_expect_eq(spec.drops, 5u);
    cr_expect(spec.id == "log");
}

Test(monitor_spec, cancel_as_monitor_as_directive_and_of_everything)
{
    Spec spec;
    std::string reason;
    {
        Infos in;
        PMIX_INFO_LOAD(&in.monitor, PMIX_MONITOR_CANCEL, "hb", PMIX_STRING);
        cr_assert_eq(in.read(&spec, &reason), PMIX_SUCCESS);
        cr_expect(spec.kind == Kind::cancel && spec.id == "hb" && !spec.cancel_all);
    }
    {
        Infos in;  // the directive wins over the (incomplete) monitor it comes with
        PMIX_INFO_LOAD(&in.monitor, PMIX_MONITOR_HEARTBEAT, &kYes, PMIX_BOOL);
        in.add(PMIX_MONITOR_CANCEL, "other", PMIX_STRING);
        cr_assert_eq(in.read(&spec, &reason), PMIX_SUCCESS);
        cr_expect(spec.kind == Kind::cancel && spec.id == "other");
    }
    {
        Infos in;
        PMIX_INFO_LOAD(&in.monitor, PMIX_MONITOR_CANCEL, nullptr, PMIX_STRING);
        cr_assert_eq(in.read(&spec, &reason), PMIX_SUCCESS);
        cr_expect(spec.kind == Kind::cancel && spec.cancel_all);
    }
}

Test(monitor_spec, unknown_type_is_not_supported_and_named)
{
    Infos in;
    PMIX_INFO_LOAD(&in.monitor, "pmix.vendor.gpu", &kYes, PMIX_BOOL);
    Spec spec;
    std::string reason;
    cr_expect_eq(in.read(&spec, &reason), PMIX_ERR_NOT_SUPPORTED);
    cr_expect(reason.find("pmix.vendor.gpu") != std::string::npos, "reason: %s", reason.c_str());
}
