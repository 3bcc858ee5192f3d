/* The macros of pmix_common.h / pmix_deprecated.h, used from C, behave as
 * the standard (and OpenPMIx 4.2.2) defines them. */
#include <criterion/criterion.h>
#include <pmix.h>

Test(macros_c, info_arrays_are_created_loaded_copied_and_freed)
{
    pmix_info_t *info = NULL;
    int timeout = 7;
    PMIX_INFO_CREATE(info, 3);
    cr_assert_not_null(info);
    cr_expect(PMIX_INFO_IS_END(&info[2]), "the last element carries PMIX_INFO_ARRAY_END");
    cr_expect(!PMIX_INFO_IS_END(&info[0]));

    PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &timeout, PMIX_INT);
    cr_expect(PMIX_CHECK_KEY(&info[0], PMIX_TIMEOUT));
    cr_expect_eq(info[0].value.type, PMIX_INT);
    cr_expect_eq(info[0].value.data.integer, 7);

    PMIX_INFO_REQUIRED(&info[0]);
    cr_expect(PMIX_INFO_IS_REQUIRED(&info[0]));
    PMIX_INFO_OPTIONAL(&info[0]);
    cr_expect(PMIX_INFO_IS_OPTIONAL(&info[0]));

    PMIX_INFO_LOAD(&info[1], PMIX_NSPACE, "job-1", PMIX_STRING);
    PMIX_INFO_XFER(&info[2], &info[1]);
    cr_expect_str_eq(info[2].value.data.string, "job-1");
    cr_expect_neq(info[2].value.data.string, info[1].value.data.string, "xfer copies the string");

    PMIX_INFO_FREE(info, 3);
    cr_expect_null(info);
}

Test(macros_c, info_true_reads_bools_and_strings)
{
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_CONSTRUCT(&info);
    cr_expect(PMIX_INFO_TRUE(&info), "a flag without a value means true");
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    cr_expect(PMIX_INFO_TRUE(&info));
    PMIX_INFO_DESTRUCT(&info);

    const char *cases[] = {"yes", " TRUE", "1", "no", "0", "false", "maybe"};
    const bool truth[] = {true, true, true, false, false, false, false};
    const bool boolean[] = {true, true, true, true, true, true, false};
    for (size_t i = 0; i < sizeof(truth) / sizeof(truth[0]); ++i) {
        pmix_value_t value;
        PMIX_VALUE_CONSTRUCT(&value);
        value.type = PMIX_STRING;
        value.data.string = (char *)cases[i];
        cr_expect_eq(PMIX_CHECK_TRUE(&value), truth[i], "\"%s\"", cases[i]);
        cr_expect_eq(PMIX_CHECK_BOOL(&value), boolean[i], "\"%s\"", cases[i]);
    }
}

Test(macros_c, keys_and_namespaces_are_truncated_and_terminated)
{
    pmix_info_t info;
    char long_key[700];
    memset(long_key, 'k', sizeof(long_key) - 1);
    long_key[sizeof(long_key) - 1] = '\0';
    memset(&info, 0x55, sizeof(info));
    PMIX_LOAD_KEY(info.key, long_key);
    cr_expect_eq(strlen(info.key), PMIX_MAX_KEYLEN);

    pmix_nspace_t ns;
    PMIX_LOAD_NSPACE(ns, NULL);
    cr_expect(PMIX_NSPACE_INVALID(ns));
    PMIX_LOAD_NSPACE(ns, "job");
    cr_expect(!PMIX_NSPACE_INVALID(ns));
    cr_expect(PMIX_CHECK_NSPACE(ns, "job"));
    cr_expect(!PMIX_CHECK_NSPACE(ns, "other"));
    cr_expect(PMIX_CHECK_NSPACE(ns, ""), "an empty namespace matches any");
    cr_expect(PMIX_CHECK_RESERVED_KEY("pmix.foo"));
    cr_expect(!PMIX_CHECK_RESERVED_KEY("opal.foo"));
}

Test(macros_c, proc_ids_compare_with_wildcards)
{
    pmix_proc_t a, b, *procs = NULL;
    PMIX_LOAD_PROCID(&a, "job", 3);
    PMIX_PROC_LOAD(&b, "job", PMIX_RANK_WILDCARD);
    cr_expect(PMIX_CHECK_PROCID(&a, &b));
    b.rank = 4;
    cr_expect(!PMIX_CHECK_PROCID(&a, &b));
    PMIX_XFER_PROCID(&b, &a);
    cr_expect(PMIX_CHECK_PROCID(&a, &b));
    cr_expect(!PMIX_PROCID_INVALID(&a));
    a.rank = PMIX_RANK_INVALID;
    cr_expect(PMIX_PROCID_INVALID(&a));
    cr_expect(PMIX_RANK_IS_VALID(5u));
    cr_expect(!PMIX_RANK_IS_VALID(PMIX_RANK_WILDCARD));
    cr_expect(PMIX_SYSTEM_EVENT(PMIX_EVENT_NODE_DOWN));
    cr_expect(!PMIX_SYSTEM_EVENT(PMIX_ERROR));

    PMIX_PROC_CREATE(procs, 4);
    cr_assert_not_null(procs);
    cr_expect_eq(procs[3].rank, 0);
    PMIX_PROC_FREE(procs, 4);
    cr_expect_null(procs);
}

Test(macros_c, argv_helpers)
{
    char **argv = NULL, **copy = NULL, *joined = NULL;
    pmix_status_t rc;
    int count;
    PMIX_ARGV_APPEND(rc, argv, "b");
    cr_expect_eq(rc, PMIX_SUCCESS);
    PMIX_ARGV_PREPEND(rc, argv, "a");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "b");
    PMIX_ARGV_APPEND_UNIQUE(rc, &argv, "c");
    PMIX_ARGV_COUNT(count, argv);
    cr_expect_eq(count, 3);
    PMIX_ARGV_JOIN(joined, argv, ',');
    cr_expect_str_eq(joined, "a,b,c");
    free(joined);
    PMIX_ARGV_COPY(copy, argv);
    PMIX_ARGV_FREE(argv);
    cr_expect_str_eq(copy[2], "c");
    cr_expect_null(copy[3]);
    PMIX_ARGV_FREE(copy);

    PMIX_ARGV_SPLIT(argv, ",x,,y,", ',');
    PMIX_ARGV_COUNT(count, argv);
    cr_expect_eq(count, 2, "empty tokens are dropped");
    cr_expect_str_eq(argv[1], "y");
    PMIX_ARGV_FREE(argv);

    PMIX_ARGV_JOIN(joined, NULL, ',');
    cr_expect_str_eq(joined, "");
    free(joined);
}

Test(macros_c, setenv_on_an_array_and_on_environ)
{
    char **env = NULL;
    pmix_status_t rc;
    PMIX_SETENV(rc, "PMIXPP_A", "1", &env);
    cr_expect_eq(rc, PMIX_SUCCESS);
    PMIX_SETENV(rc, "PMIXPP_A", "2", &env);
    PMIX_SETENV(rc, "PMIXPP_B", NULL, &env);
    cr_expect_str_eq(env[0], "PMIXPP_A=2");
    cr_expect_str_eq(env[1], "PMIXPP_B=");
    cr_expect_null(env[2]);
    PMIX_ARGV_FREE(env);

    PMIX_SETENV(rc, "PMIXPP_ENVIRON_TEST", "yes", &environ);
    cr_expect_eq(rc, PMIX_SUCCESS);
    cr_expect_str_eq(getenv("PMIXPP_ENVIRON_TEST"), "yes");
}

Test(macros_c, value_get_number_converts)
{
    pmix_value_t v = PMIX_VALUE_STATIC_INIT;
    pmix_status_t rc;
    uint16_t small = 513;
    size_t n = 0;
    PMIX_VALUE_LOAD(&v, &small, PMIX_UINT16);
    PMIX_VALUE_GET_NUMBER(rc, &v, n, size_t);
    cr_expect_eq(rc, PMIX_SUCCESS);
    cr_expect_eq(n, 513);
    PMIX_VALUE_DESTRUCT(&v);

    PMIX_VALUE_LOAD(&v, "text", PMIX_STRING);
    PMIX_VALUE_GET_NUMBER(rc, &v, n, size_t);
    cr_expect_eq(rc, PMIX_ERR_BAD_PARAM);
    pmix_value_t *copy = NULL;
    PMIX_VALUE_XFER(rc, copy, &v);
    cr_assert_not_null(copy, "PMIX_VALUE_XFER allocates the destination");
    cr_expect_str_eq(copy->data.string, "text");
    PMIX_VALUE_RELEASE(copy);
    cr_expect_null(copy);
    PMIX_VALUE_DESTRUCT(&v);
}

Test(macros_c, data_buffer_load_and_unload_move_the_bytes)
{
    pmix_data_buffer_t *buf = NULL;
    PMIX_DATA_BUFFER_CREATE(buf);
    cr_assert_not_null(buf);
    cr_expect_null(buf->base_ptr);
    cr_expect_eq(buf->bytes_used, 0);

    char *payload = malloc(5);
    memcpy(payload, "abcde", 5);
    PMIX_DATA_BUFFER_LOAD(buf, payload, 5);
    cr_expect_eq(buf->base_ptr, payload, "the buffer takes the bytes over");
    cr_expect_eq(buf->unpack_ptr, buf->base_ptr);
    cr_expect_eq(buf->bytes_used, 5);

    char *out = NULL;
    size_t size = 0;
    PMIX_DATA_BUFFER_UNLOAD(buf, out, size);
    cr_expect_eq(size, 5);
    cr_expect_eq(memcmp(out, "abcde", 5), 0);
    free(out);
    PMIX_DATA_BUFFER_RELEASE(buf);
    cr_expect_null(buf);

    pmix_data_buffer_t local = PMIX_DATA_BUFFER_STATIC_INIT;
    PMIX_DATA_BUFFER_CONSTRUCT(&local);
    PMIX_DATA_BUFFER_DESTRUCT(&local);
    cr_expect_null(local.base_ptr);
}

Test(macros_c, data_arrays_of_structs_and_scalars)
{
    pmix_data_array_t *array = NULL;
    PMIX_DATA_ARRAY_CREATE(array, 4, PMIX_INFO);
    cr_assert_not_null(array);
    cr_expect_eq(array->type, PMIX_INFO);
    cr_expect_eq(array->size, 4);
    pmix_info_t *info = array->array;
    cr_expect(PMIX_INFO_IS_END(&info[3]));
    PMIX_INFO_LOAD(&info[0], PMIX_HOSTNAME, "node1", PMIX_STRING);
    PMIX_DATA_ARRAY_FREE(array);
    cr_expect_null(array);

    pmix_data_array_t local;
    PMIX_DATA_ARRAY_CONSTRUCT(&local, 3, PMIX_UINT32);
    ((uint32_t *)local.array)[2] = 9;
    PMIX_DATA_ARRAY_DESTRUCT(&local);
    PMIX_DATA_ARRAY_INIT(&local, PMIX_STRING);
    cr_expect_null(local.array);
    cr_expect_eq(local.size, 0);
}

Test(macros_c, info_lists_convert_to_arrays)
{
    void *list = NULL;
    pmix_status_t rc;
    int n = 3;
    pmix_data_array_t array;
    PMIX_INFO_LIST_START(list);
    cr_assert_not_null(list);
    PMIX_INFO_LIST_ADD(rc, list, PMIX_JOB_SIZE, &n, PMIX_INT);
    cr_expect_eq(rc, PMIX_SUCCESS);
    PMIX_INFO_LIST_ADD(rc, list, PMIX_NSPACE, "job", PMIX_STRING);
    PMIX_INFO_LIST_CONVERT(rc, list, &array);
    cr_expect_eq(rc, PMIX_SUCCESS);
    cr_expect_eq(array.size, 2);
    cr_expect(PMIX_CHECK_KEY(&((pmix_info_t *)array.array)[1], PMIX_NSPACE));
    PMIX_INFO_LIST_RELEASE(list);
    PMIX_DATA_ARRAY_DESTRUCT(&array);
}

Test(macros_c, apps_queries_pdata_and_regattrs)
{
    pmix_app_t *apps = NULL;
    PMIX_APP_CREATE(apps, 2);
    apps[0].cmd = strdup("hostname");
    pmix_status_t rc;
    PMIX_ARGV_APPEND(rc, apps[0].argv, "hostname");
    cr_expect_eq(rc, PMIX_SUCCESS);
    PMIX_APP_INFO_CREATE(&apps[0], 2);
    cr_expect_eq(apps[0].ninfo, 2);
    cr_expect(PMIX_INFO_IS_END(&apps[0].info[1]));
    PMIX_APP_FREE(apps, 2);
    cr_expect_null(apps);

    pmix_query_t *queries = NULL;
    PMIX_QUERY_CREATE(queries, 1);
    PMIX_ARGV_APPEND(rc, queries[0].keys, PMIX_QUERY_NAMESPACES);
    cr_expect_eq(rc, PMIX_SUCCESS);
    PMIX_QUERY_QUALIFIERS_CREATE(&queries[0], 1);
    cr_expect_eq(queries[0].nqual, 1);
    PMIX_QUERY_FREE(queries, 1);
    cr_expect_null(queries);

    pmix_proc_t who;
    pmix_pdata_t pdata, copy;
    int value = 42;
    PMIX_LOAD_PROCID(&who, "job", 1);
    PMIX_PDATA_LOAD(&pdata, &who, "mykey", &value, PMIX_INT);
    PMIX_PDATA_XFER(&copy, &pdata);
    cr_expect_str_eq(copy.key, "mykey");
    cr_expect_eq(copy.proc.rank, 1);
    cr_expect_eq(copy.value.data.integer, 42);
    PMIX_PDATA_DESTRUCT(&pdata);
    PMIX_PDATA_DESTRUCT(&copy);

    pmix_regattr_t attr, attr_copy;
    PMIX_REGATTR_CONSTRUCT(&attr);
    PMIX_REGATTR_LOAD(&attr, "PMIX_TIMEOUT", PMIX_TIMEOUT, PMIX_INT, "seconds to wait");
    PMIX_REGATTR_XFER(&attr_copy, &attr);
    cr_expect_str_eq(attr_copy.string, PMIX_TIMEOUT);
    cr_expect_str_eq(attr_copy.description[0], "seconds to wait");
    PMIX_REGATTR_DESTRUCT(&attr);
    PMIX_REGATTR_DESTRUCT(&attr_copy);
}

Test(macros_c, small_structures)
{
    pmix_nspace_t full, cluster, nspace;
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(full, "east", "job7");
    cr_expect_str_eq(full, "east:job7");
    PMIX_MULTICLUSTER_NSPACE_PARSE(full, cluster, nspace);
    cr_expect_str_eq(cluster, "east");
    cr_expect_str_eq(nspace, "job7");

    pmix_device_distance_t *dist = NULL;
    PMIX_DEVICE_DIST_CREATE(dist, 2);
    cr_expect_eq(dist[1].mindist, UINT16_MAX);
    PMIX_DEVICE_DIST_FREE(dist, 2);
    cr_expect_null(dist);

    pmix_coord_t *coords = NULL;
    PMIX_COORD_CREATE(coords, 2, 3);
    cr_expect_eq(coords[1].dims, 3);
    cr_expect_not_null(coords[1].coord);
    PMIX_COORD_FREE(coords, 2);

    pmix_byte_object_t bo = PMIX_BYTE_OBJECT_STATIC_INIT;
    char *bytes = strdup("xy");
    size_t size = 2;
    PMIX_BYTE_OBJECT_LOAD(&bo, bytes, size);
    cr_expect_null(bytes, "LOAD takes the bytes over");
    cr_expect_eq(size, 0);
    cr_expect_eq(bo.size, 2);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);

    pmix_envar_t envar;
    PMIX_ENVAR_CONSTRUCT(&envar);
    PMIX_ENVAR_LOAD(&envar, "PATH", "/bin", ':');
    cr_expect_eq(envar.separator, ':');
    PMIX_ENVAR_DESTRUCT(&envar);

    pmix_node_stats_t *nodes = NULL;
    PMIX_NODE_STATS_CREATE(nodes, 1);
    nodes[0].node = strdup("n1");
    PMIX_DISK_STATS_CREATE(nodes[0].diskstats, 2);
    nodes[0].ndiskstats = 2;
    nodes[0].diskstats[1].disk = strdup("sda");
    PMIX_NODE_STATS_FREE(nodes, 1);
    cr_expect_null(nodes);
}
