// The job's environment directives: each kind, their order, what is refused.
#include "server/fork/envars.h"

#include <criterion/criterion.h>
#include <pmix.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace pmixpp::server::pnet;

namespace {

// A malloc'ed argv-style environment.
struct Env {
    char **vars = static_cast<char **>(std::calloc(1, sizeof(char *)));
    ~Env()
    {
        for (char **v = vars; *v != nullptr; ++v) std::free(*v);
        std::free(vars);
    }
    void put(const char *entry)
    {
        std::size_t n = 0;
        while (vars[n] != nullptr) ++n;
        vars = static_cast<char **>(std::realloc(vars, (n + 2) * sizeof(char *)));
        vars[n] = strdup(entry);
        vars[n + 1] = nullptr;
    }
    std::string get(const char *name) const
    {
        const std::size_t len = std::strlen(name);
        for (char **v = vars; *v != nullptr; ++v) {
            if (std::strncmp(*v, name, len) == 0 && (*v)[len] == '=') return *v + len + 1;
        }
        return "(unset)";
    }
};

pmix_info_t envar_info(const char *key, const char *name, const char *value, char separator = ':')
{
    pmix_envar_t envar{const_cast<char *>(name), const_cast<char *>(value), separator};
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, &envar, PMIX_ENVAR);
    return info;
}

std::vector<EnvarDirective> collected(std::vector<pmix_info_t> &info)
{
    std::vector<EnvarDirective> out;
    std::string why;
    cr_assert_eq(collect_envars(info.data(), info.size(), &out, &why), PMIX_SUCCESS, "%s", why.c_str());
    for (pmix_info_t &i : info) PMIX_INFO_DESTRUCT(&i);
    return out;
}

}  // namespace

Test(pnet_envars, every_kind_applies_in_the_order_given)
{
    std::vector<pmix_info_t> info;
    info.push_back(envar_info(PMIX_SET_ENVAR, "A", "1"));
    info.push_back(envar_info(PMIX_ADD_ENVAR, "A", "ignored"));  // A is set: no change
    info.push_back(envar_info(PMIX_ADD_ENVAR, "B", "2"));
    info.push_back(envar_info(PMIX_PREPEND_ENVAR, "PATH", "/first"));
    info.push_back(envar_info(PMIX_APPEND_ENVAR, "PATH", "/last"));
    info.push_back(envar_info(PMIX_APPEND_ENVAR, "LIST", "x", ','));  // unset before: just the value
    info.push_back(envar_info(PMIX_FIRST_ENVAR, "ORDER", "b", ','));
    pmix_info_t unset;
    PMIX_INFO_LOAD(&unset, PMIX_UNSET_ENVAR, "GONE", PMIX_STRING);
    info.push_back(unset);
    info.push_back(envar_info(PMIX_SET_ENVAR, "A", "3"));  // later wins
    const std::vector<EnvarDirective> directives = collected(info);
    cr_assert_eq(directives.size(), 9u);

    Env env;
    env.put("PATH=/usr/bin");
    env.put("ORDER=a,b,c");
    env.put("GONE=yes");
    env.put("KEEP=me");
    cr_assert_eq(apply_envars(directives, &env.vars), PMIX_SUCCESS);
    cr_assert(env.get("A") == "3", "A=%s", env.get("A").c_str());
    cr_assert(env.get("B") == "2", "B=%s", env.get("B").c_str());
    cr_assert(env.get("PATH") == "/first:/usr/bin:/last", "PATH=%s", env.get("PATH").c_str());
    cr_assert(env.get("LIST") == "x", "LIST=%s", env.get("LIST").c_str());
    cr_assert(env.get("ORDER") == "b,a,c", "ORDER=%s", env.get("ORDER").c_str());
    cr_assert(env.get("GONE") == "(unset)", "GONE=%s", env.get("GONE").c_str());
    cr_assert(env.get("KEEP") == "me", "KEEP=%s", env.get("KEEP").c_str());
}

Test(pnet_envars, strings_and_nested_job_arrays_count_too)
{
    std::vector<pmix_info_t> inner(2);
    PMIX_INFO_LOAD(&inner[0], PMIX_SET_ENVAR, "NESTED=yes", PMIX_STRING);
    uint32_t size = 4;
    PMIX_INFO_LOAD(&inner[1], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    pmix_data_array_t array{PMIX_INFO, inner.size(), inner.data()};
    std::vector<pmix_info_t> info(2);
    PMIX_INFO_LOAD(&info[0], PMIX_SET_ENVAR, "FLAT=1", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_INFO_ARRAY, &array, PMIX_DATA_ARRAY);
    for (pmix_info_t &i : inner) PMIX_INFO_DESTRUCT(&i);
    const std::vector<EnvarDirective> directives = collected(info);
    cr_assert_eq(directives.size(), 2u);
    cr_assert_str_eq(directives[0].name.c_str(), "FLAT");
    cr_assert_str_eq(directives[1].name.c_str(), "NESTED");
    cr_assert_str_eq(directives[1].value.c_str(), "yes");
}

Test(pnet_envars, malformed_directives_are_named)
{
    EnvarDirective d;
    std::string why;
    pmix_info_t info;
    uint32_t number = 1;
    PMIX_INFO_LOAD(&info, PMIX_SET_ENVAR, &number, PMIX_UINT32);
    cr_assert_eq(parse_envar(info, &d, &why), PMIX_ERR_TYPE_MISMATCH);
    cr_assert(why.find(PMIX_SET_ENVAR) != std::string::npos, "%s", why.c_str());
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_SET_ENVAR, "NOVALUE", PMIX_STRING);
    cr_assert_eq(parse_envar(info, &d, &why), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&info);
    info = envar_info(PMIX_PREPEND_ENVAR, "BAD=NAME", "x");
    cr_assert_eq(parse_envar(info, &d, &why), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&info);
    PMIX_INFO_LOAD(&info, PMIX_UNSET_ENVAR, "JUSTNAME", PMIX_STRING);
    cr_assert_eq(parse_envar(info, &d, &why), PMIX_SUCCESS, "unset takes a bare name");
    PMIX_INFO_DESTRUCT(&info);
}
