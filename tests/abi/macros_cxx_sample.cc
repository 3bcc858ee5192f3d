// The header macros in a C++ translation unit. Built with the project's
// warnings (-Wold-style-cast among them), so it also proves they are clean.
#include "macros_cxx_sample.h"

#include <pmix.h>

#include <cstring>

#define CHECK(condition)                                                                                               \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            return #condition;                                                                                         \
        }                                                                                                              \
    } while (0)

const char *cxx_info_arrays(void)
{
    pmix_info_t *info = nullptr;
    int size = 16;
    PMIX_INFO_CREATE(info, 2);
    CHECK(nullptr != info);
    CHECK(PMIX_INFO_IS_END(&info[1]));
    PMIX_INFO_LOAD(&info[0], PMIX_JOB_SIZE, &size, PMIX_INT);
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, "node7", PMIX_STRING);
    CHECK(PMIX_CHECK_KEY(&info[1], PMIX_HOSTNAME));
    CHECK(0 == std::strcmp(info[1].value.data.string, "node7"));

    int got = 0;
    pmix_status_t rc;
    PMIX_VALUE_GET_NUMBER(rc, &info[0].value, got, int);
    CHECK(PMIX_SUCCESS == rc && 16 == got);
    PMIX_INFO_FREE(info, 2);
    CHECK(nullptr == info);
    return nullptr;
}

const char *cxx_static_initializers_and_procs(void)
{
    pmix_proc_t proc = PMIX_PROC_STATIC_INIT;
    CHECK(PMIX_RANK_UNDEF == proc.rank);
    pmix_info_t info = PMIX_INFO_STATIC_INIT;
    CHECK(PMIX_UNDEF == info.value.type);
    pmix_data_array_t array = PMIX_DATA_ARRAY_STATIC_INIT;
    CHECK(nullptr == array.array);
    pmix_app_t app = PMIX_APP_STATIC_INIT;
    CHECK(nullptr == app.cmd);

    pmix_proc_t peer;
    PMIX_LOAD_PROCID(&proc, "job", 0);
    PMIX_LOAD_PROCID(&peer, "job", PMIX_RANK_WILDCARD);
    CHECK(PMIX_CHECK_PROCID(&proc, &peer));
    CHECK(PMIX_CHECK_NSPACE(proc.nspace, "job"));
    return nullptr;
}

const char *cxx_argv_and_environment(void)
{
    char **argv = nullptr;
    pmix_status_t rc;
    int count = 0;
    PMIX_ARGV_SPLIT(argv, "a:b:c", ':');
    PMIX_ARGV_COUNT(count, argv);
    CHECK(3 == count);
    PMIX_ARGV_APPEND(rc, argv, "d");
    CHECK(PMIX_SUCCESS == rc);
    char *joined = nullptr;
    PMIX_ARGV_JOIN(joined, argv, ':');
    CHECK(0 == std::strcmp(joined, "a:b:c:d"));
    free(joined);
    PMIX_ARGV_FREE(argv);

    char **env = nullptr;
    PMIX_SETENV(rc, "K", "V", &env);
    CHECK(PMIX_SUCCESS == rc && 0 == std::strcmp(env[0], "K=V"));
    PMIX_ARGV_FREE(env);
    return nullptr;
}

const char *cxx_data_buffers_and_arrays(void)
{
    pmix_data_buffer_t *buffer = nullptr;
    PMIX_DATA_BUFFER_CREATE(buffer);
    CHECK(nullptr != buffer);
    char *bytes = static_cast<char *>(malloc(3));
    CHECK(nullptr != bytes);
    std::memcpy(bytes, "xyz", 3);
    PMIX_DATA_BUFFER_LOAD(buffer, bytes, 3);
    CHECK(3 == buffer->bytes_used);
    char *out = nullptr;
    size_t size = 0;
    PMIX_DATA_BUFFER_UNLOAD(buffer, out, size);
    CHECK(3 == size && 0 == std::memcmp(out, "xyz", 3));
    free(out);
    PMIX_DATA_BUFFER_RELEASE(buffer);
    CHECK(nullptr == buffer);

    pmix_data_array_t *array = nullptr;
    PMIX_DATA_ARRAY_CREATE(array, 2, PMIX_PROC);
    CHECK(nullptr != array && 2 == array->size);
    PMIX_LOAD_PROCID(&static_cast<pmix_proc_t *>(array->array)[1], "job", 1);
    PMIX_DATA_ARRAY_FREE(array);
    CHECK(nullptr == array);
    return nullptr;
}
