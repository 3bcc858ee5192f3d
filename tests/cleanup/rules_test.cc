// The RFC0027 bookkeeping: lists, absolute paths, de-duplication, merging
// and conflicts (server/cleanup/paths.h, rules.h).
#include "server/cleanup/paths.h"
#include "server/cleanup/rules.h"

#include <criterion/criterion.h>

#include <pmix.h>

#include <cstring>
#include <string>
#include <vector>

using namespace pmixpp::cleanup;

namespace {

// A directive array built with the public loaders.
class Directives {
public:
    ~Directives()
    {
        for (auto &info : infos_) PMIX_INFO_DESTRUCT(&info);
    }
    Directives &text(const char *key, const char *value)
    {
        infos_.emplace_back();
        PMIX_INFO_LOAD(&infos_.back(), key, value, PMIX_STRING);
        return *this;
    }
    Directives &flag(const char *key)
    {
        const bool yes = true;
        infos_.emplace_back();
        PMIX_INFO_LOAD(&infos_.back(), key, &yes, PMIX_BOOL);
        return *this;
    }
    Directives &number(const char *key, int value)
    {
        infos_.emplace_back();
        PMIX_INFO_LOAD(&infos_.back(), key, &value, PMIX_INT);
        return *this;
    }
    const pmix_info_t *data() const { return infos_.data(); }
    size_t size() const { return infos_.size(); }

private:
    std::vector<pmix_info_t> infos_;
};

Registration parsed(const Directives &directives)
{
    Registration reg;
    std::string why;
    const pmix_status_t rc = parse_registration(directives.data(), directives.size(), &reg, &why);
    cr_assert_eq(rc, PMIX_SUCCESS, "parse: %s (%s)", PMIx_Error_string(rc), why.c_str());
    return reg;
}

pmix_status_t parse_status(const Directives &directives, std::string *why_p)
{
    Registration reg;
    return parse_registration(directives.data(), directives.size(), &reg, why_p);
}

const Owner kOwner{1000, 1000};

}  // namespace

Test(cleanup_paths, lists_are_split_on_commas_and_trimmed)
{
    const auto entries = split_list(" /a , /b/c,,/d ,");
    cr_assert_eq(entries.size(), 3u);
    cr_expect_eq(entries[0], "/a");
    cr_expect_eq(entries[1], "/b/c");
    cr_expect_eq(entries[2], "/d");
    cr_expect(split_list("").empty());
}

Test(cleanup_paths, paths_are_normalized_without_resolving_links)
{
    std::string normal, why;
    cr_assert_eq(normalize_path("//tmp//x/./y/", &normal, &why), PMIX_SUCCESS);
    cr_expect_eq(normal, "/tmp/x/y");
}

Test(cleanup_paths, relative_dotdot_and_root_paths_are_refused_with_the_path)
{
    std::string normal, why;
    cr_expect_eq(normalize_path("tmp/x", &normal, &why), PMIX_ERR_BAD_PARAM);
    cr_expect(why.find("\"tmp/x\"") != std::string::npos, "why: %s", why.c_str());
    cr_expect_eq(normalize_path("/tmp/../etc", &normal, &why), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(normalize_path("//", &normal, &why), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(normalize_path("", &normal, &why), PMIX_ERR_BAD_PARAM);
}

Test(cleanup_rules, cleanup_keys_make_a_local_request)
{
    cr_expect(is_cleanup_request(Directives().text(PMIX_REGISTER_CLEANUP, "/a").data(), 1));
    cr_expect(is_cleanup_request(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "/a").data(), 1));
    cr_expect(is_cleanup_request(Directives().text(PMIX_CLEANUP_IGNORE, "/a").data(), 1));
    cr_expect_not(is_cleanup_request(Directives().flag(PMIX_JOB_CTRL_KILL).data(), 1));
    cr_expect_not(is_cleanup_request(nullptr, 0));
}

Test(cleanup_rules, every_list_and_directive_of_a_request_is_read)
{
    Directives directives;
    directives.text(PMIX_REGISTER_CLEANUP, "/f1,/f2")
        .text(PMIX_REGISTER_CLEANUP, "/f3")
        .text(PMIX_REGISTER_CLEANUP_DIR, "/d1/")
        .text(PMIX_CLEANUP_IGNORE, "/d1/keep")
        .text(PMIX_CLEANUP_IGNORE, "/d1/sub//keep2")
        .flag(PMIX_CLEANUP_RECURSIVE)
        .flag(PMIX_CLEANUP_LEAVE_TOPDIR)
        .flag(PMIX_CLEANUP_EMPTY);
    const Registration reg = parsed(directives);
    cr_expect_eq(reg.files, (std::vector<std::string>{"/f1", "/f2", "/f3"}));
    cr_expect_eq(reg.directories, (std::vector<std::string>{"/d1"}));
    cr_expect_eq(reg.ignores, (std::vector<std::string>{"/d1/keep", "/d1/sub/keep2"}));
    cr_expect(reg.recursive && reg.leave_top && reg.empty_only);
}

Test(cleanup_rules, a_relative_path_anywhere_refuses_the_request)
{
    std::string why;
    cr_expect_eq(parse_status(Directives().text(PMIX_REGISTER_CLEANUP, "/ok,rel/file"), &why), PMIX_ERR_BAD_PARAM);
    cr_expect(why.find("rel/file") != std::string::npos, "why: %s", why.c_str());
    cr_expect_eq(parse_status(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "dir"), &why), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(parse_status(Directives().text(PMIX_CLEANUP_IGNORE, "./x"), &why), PMIX_ERR_BAD_PARAM);
}

Test(cleanup_rules, values_of_the_wrong_type_are_refused)
{
    std::string why;
    cr_expect_eq(parse_status(Directives().number(PMIX_REGISTER_CLEANUP, 3), &why), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(
        parse_status(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "/d").number(PMIX_CLEANUP_RECURSIVE, 1), &why),
        PMIX_ERR_BAD_PARAM);
}

Test(cleanup_rules, removing_and_ignoring_one_path_in_a_request_conflicts)
{
    std::string why;
    Directives directives;
    directives.text(PMIX_REGISTER_CLEANUP, "/x/file").text(PMIX_CLEANUP_IGNORE, "/x//file/");
    cr_expect_eq(parse_status(directives, &why), PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES);
    cr_expect(why.find("/x/file") != std::string::npos, "why: %s", why.c_str());
    Directives dirs;
    dirs.text(PMIX_REGISTER_CLEANUP_DIR, "/x").text(PMIX_CLEANUP_IGNORE, "/x");
    cr_expect_eq(parse_status(dirs, &why), PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES);
}

Test(cleanup_rules, a_later_request_that_contradicts_an_earlier_one_is_refused_whole)
{
    CleanupSet set;
    std::string why;
    const Registration first = parsed(Directives().text(PMIX_REGISTER_CLEANUP, "/a").text(PMIX_CLEANUP_IGNORE, "/b"));
    cr_assert_eq(set.check(first, &why), PMIX_SUCCESS);
    set.merge(first, kOwner);

    // It removes what the first ignores (and adds another file, which must not be kept).
    const Registration removes_ignored = parsed(Directives().text(PMIX_REGISTER_CLEANUP, "/c,/b"));
    cr_expect_eq(set.check(removes_ignored, &why), PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES);
    // It ignores what the first removes.
    const Registration ignores_removed = parsed(Directives().text(PMIX_CLEANUP_IGNORE, "/a"));
    cr_expect_eq(set.check(ignores_removed, &why), PMIX_ERR_CONFLICTING_CLEANUP_DIRECTIVES);
    cr_expect(why.find("\"/a\"") != std::string::npos, "why: %s", why.c_str());

    cr_expect_eq(set.files().size(), 1u, "nothing of a refused request is kept");
    cr_expect_eq(set.ignores().size(), 1u);
}

Test(cleanup_rules, duplicate_files_are_dropped)
{
    CleanupSet set;
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP, "/a,/a/,//a")), kOwner);
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP, "/a,/b")), kOwner);
    cr_assert_eq(set.files().size(), 2u);
    cr_expect_eq(set.files()[0].path, "/a");
    cr_expect_eq(set.files()[1].path, "/b");
}

Test(cleanup_rules, duplicate_directories_merge_recursive_and_leave_top_win)
{
    CleanupSet set;
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "/d").flag(PMIX_CLEANUP_EMPTY)), kOwner);
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "/d/").flag(PMIX_CLEANUP_RECURSIVE)), kOwner);
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "/d").flag(PMIX_CLEANUP_LEAVE_TOPDIR)), kOwner);
    cr_assert_eq(set.directories().size(), 1u);
    const DirectoryEntry &dir = set.directories()[0];
    cr_expect(dir.recursive, "recursive wins over non-recursive");
    cr_expect(dir.leave_top, "leave-top wins");
    cr_expect_not(dir.empty_only, "the wider removal wins over only-empty");
}

Test(cleanup_rules, nested_directories_stay_separate_entries)
{
    CleanupSet set;
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP_DIR, "/d,/d/sub").flag(PMIX_CLEANUP_RECURSIVE)), kOwner);
    cr_expect_eq(set.directories().size(), 2u);
}

Test(cleanup_rules, entries_of_another_owner_are_not_duplicates)
{
    CleanupSet set;
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP, "/a")), kOwner);
    set.merge(parsed(Directives().text(PMIX_REGISTER_CLEANUP, "/a")), Owner{1001, 1001});
    cr_expect_eq(set.files().size(), 2u);
}
