/*
 * The static inline helpers that OpenPMIx 4.2's pmix_common.h gives programs
 * (pmix_argv_split, pmix_setenv, pmix_strncpy, ...) exist in our header with
 * the same names, the same signatures and the same behaviour.
 */
#include <criterion/criterion.h>

#include <pmix.h>

/* Assigning each helper to a pointer of its OpenPMIx type fails to compile
 * (-Werror=incompatible-pointer-types) when a signature differs. */
Test(openpmix_inlines, have_the_openpmix_signatures)
{
    void *(*malloc_fn)(size_t) = pmix_malloc;
    void (*free_fn)(void *) = pmix_free;
    void *(*calloc_fn)(size_t, size_t) = pmix_calloc;
    void (*strncpy_fn)(char *, const char *, size_t) = pmix_strncpy;
    size_t (*keylen_fn)(const char *) = pmix_keylen;
    size_t (*nslen_fn)(const char *) = pmix_nslen;
    int (*count_fn)(char **) = pmix_argv_count;
    pmix_status_t (*append_fn)(char ***, const char *) = pmix_argv_append_nosize;
    pmix_status_t (*prepend_fn)(char ***, const char *) = pmix_argv_prepend_nosize;
    pmix_status_t (*unique_fn)(char ***, const char *) = pmix_argv_append_unique_nosize;
    void (*argv_free_fn)(char **) = pmix_argv_free;
    char **(*split_inter_fn)(const char *, int, bool) = pmix_argv_split_inter;
    char **(*split_empty_fn)(const char *, int) = pmix_argv_split_with_empty;
    char **(*split_fn)(const char *, int) = pmix_argv_split;
    char *(*join_fn)(char **, int) = pmix_argv_join;
    char **(*copy_fn)(char **) = pmix_argv_copy;
    pmix_status_t (*setenv_fn)(const char *, const char *, bool, char ***) = pmix_setenv;
    pmix_boolean_t (*check_true_fn)(const pmix_value_t *) = pmix_check_true;
    void (*proc_stats_fn)(pmix_proc_stats_t *, size_t) = pmix_proc_stats_free;
    void (*disk_stats_fn)(pmix_disk_stats_t *, size_t) = pmix_disk_stats_free;
    void (*net_stats_fn)(pmix_net_stats_t *, size_t) = pmix_net_stats_free;
    void (*node_stats_fn)(pmix_node_stats_t *, size_t) = pmix_node_stats_free;
    void (*app_free_fn)(pmix_app_t *, size_t) = pmix_app_free;
    void (*pdata_free_fn)(pmix_pdata_t *, size_t) = pmix_pdata_free;
    const void *all[] = {(void *)malloc_fn,      (void *)free_fn,       (void *)calloc_fn,     (void *)strncpy_fn,
                         (void *)keylen_fn,      (void *)nslen_fn,      (void *)count_fn,      (void *)append_fn,
                         (void *)prepend_fn,     (void *)unique_fn,     (void *)argv_free_fn,  (void *)split_inter_fn,
                         (void *)split_empty_fn, (void *)split_fn,      (void *)join_fn,       (void *)copy_fn,
                         (void *)setenv_fn,      (void *)check_true_fn, (void *)proc_stats_fn, (void *)disk_stats_fn,
                         (void *)net_stats_fn,   (void *)node_stats_fn, (void *)app_free_fn,   (void *)pdata_free_fn};
    size_t i;
    for (i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
        cr_assert_not_null(all[i], "helper %zu", i);
    }
}

Test(openpmix_inlines, split_drops_or_keeps_empty_tokens)
{
    char **plain = pmix_argv_split(",a,,b,", ',');
    char **with_empty = pmix_argv_split_with_empty(",a,,b,", ',');
    cr_assert_eq(pmix_argv_count(plain), 2);
    cr_assert_str_eq(plain[0], "a");
    cr_assert_str_eq(plain[1], "b");
    /* a trailing delimiter gives no empty last token, as in OpenPMIx */
    cr_assert_eq(pmix_argv_count(with_empty), 4);
    cr_assert_str_eq(with_empty[0], "");
    cr_assert_str_eq(with_empty[2], "");
    cr_assert_str_eq(with_empty[3], "b");
    pmix_argv_free(plain);
    pmix_argv_free(with_empty);
    cr_assert_null(pmix_argv_split("", ','));
}

Test(openpmix_inlines, append_prepend_unique_join_copy)
{
    char **argv = NULL, **copy, *joined;
    cr_assert_eq(pmix_argv_append_nosize(&argv, "b"), PMIX_SUCCESS);
    cr_assert_eq(pmix_argv_prepend_nosize(&argv, "a"), PMIX_SUCCESS);
    cr_assert_eq(pmix_argv_append_unique_nosize(&argv, "a"), PMIX_SUCCESS);
    cr_assert_eq(pmix_argv_append_unique_nosize(&argv, "c"), PMIX_SUCCESS);
    cr_assert_eq(pmix_argv_count(argv), 3);
    copy = pmix_argv_copy(argv);
    joined = pmix_argv_join(copy, ':');
    cr_assert_str_eq(joined, "a:b:c");
    free(joined);
    pmix_argv_free(copy);
    pmix_argv_free(argv);
    joined = pmix_argv_join(NULL, ':');
    cr_assert_str_eq(joined, "");
    free(joined);
    cr_assert_eq(pmix_argv_append_nosize(&argv, NULL), PMIX_ERR_BAD_PARAM);
}

Test(openpmix_inlines, setenv_edits_a_private_environment)
{
    char **env = NULL;
    cr_assert_eq(pmix_setenv("A", "1", true, &env), PMIX_SUCCESS);
    cr_assert_eq(pmix_setenv("A", "2", false, &env), PMIX_ERR_EXISTS);
    cr_assert_eq(pmix_setenv("A", "3", true, &env), PMIX_SUCCESS);
    cr_assert_eq(pmix_setenv("B", NULL, true, &env), PMIX_SUCCESS);
    cr_assert_eq(pmix_argv_count(env), 2);
    cr_assert_str_eq(env[0], "A=3");
    cr_assert_str_eq(env[1], "B=");
    pmix_argv_free(env);
    cr_assert_eq(pmix_setenv("A", "1", true, NULL), PMIX_ERR_BAD_PARAM);
}

Test(openpmix_inlines, bounded_string_helpers)
{
    char dest[8];
    char overlong[PMIX_MAX_KEYLEN + 10];
    pmix_strncpy(dest, "abcdefghij", sizeof(dest) - 1);
    cr_assert_str_eq(dest, "abcdefg");
    memset(overlong, 'k', sizeof(overlong)); /* not terminated on purpose */
    cr_assert_eq(pmix_keylen(overlong), PMIX_MAX_KEYLEN + 1);
    cr_assert_eq(pmix_keylen("key"), 3);
    cr_assert_eq(pmix_keylen(NULL), 0);
    cr_assert_eq(pmix_nslen("nspace"), 6);
}

Test(openpmix_inlines, check_true_reads_strings_and_bools)
{
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    cr_assert_eq(pmix_check_true(&v), PMIX_BOOL_TRUE);
    v.type = PMIX_STRING;
    v.data.string = "No";
    cr_assert_eq(pmix_check_true(&v), PMIX_BOOL_FALSE);
    v.data.string = "maybe";
    cr_assert_eq(pmix_check_true(&v), PMIX_NON_BOOL);
    v.type = PMIX_BOOL;
    v.data.flag = true;
    cr_assert_eq(pmix_check_true(&v), PMIX_BOOL_TRUE);
}

/* OpenPMIx's *_free helpers release what the elements own; the array itself
 * stays with the caller, as the PMIX_*_FREE macros then free it. */
Test(openpmix_inlines, free_helpers_leave_the_array_to_the_caller)
{
    pmix_app_t *apps;
    pmix_pdata_t *pdata;
    PMIX_APP_CREATE(apps, 2);
    apps[1].cmd = strdup("hostname");
    pmix_app_free(apps, 2);
    cr_assert_null(apps[1].cmd);
    free(apps);

    PMIX_PDATA_CREATE(pdata, 1);
    PMIX_VALUE_LOAD(&pdata[0].value, "text", PMIX_STRING);
    pmix_pdata_free(pdata, 1);
    cr_assert_neq(pdata[0].value.type, PMIX_STRING);
    free(pdata);
}
