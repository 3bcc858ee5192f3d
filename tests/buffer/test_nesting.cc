// Nesting: packing has no depth bound, unpacking stops hostile input at
// kMaxUnpackDepth, and the deepest legal input fits a small thread stack.
#include <criterion/criterion.h>
#include <pthread.h>

#include <cstdint>
#include <string>
#include <vector>

#include "buffer/test_helpers.h"
#include "common/buffer/packer.h"
#include "common/values/type_ops.h"

using pmixpp::buffer::kMaxUnpackDepth;

// Deeper than the old pack limit (64).
constexpr int kDeep = 100;

Test(buffer_nesting, data_arrays_100_deep_round_trip)
{
    std::vector<pmix_data_array_t> chain(kDeep);
    int32_t leaf = 4242;
    for (int i = 0; i < kDeep - 1; ++i) {
        chain[i] = {PMIX_DATA_ARRAY, 1, &chain[i + 1]};
    }
    chain[kDeep - 1] = {PMIX_INT32, 1, &leaf};

    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &chain[0], 1, PMIX_DATA_ARRAY), PMIX_SUCCESS);
    pmix_data_array_t out{};
    int32_t n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), &out, &n, PMIX_DATA_ARRAY), PMIX_SUCCESS);
    const pmix_data_array_t *level = &out;
    for (int i = 0; i < kDeep - 1; ++i) {
        cr_assert_eq(level->type, PMIX_DATA_ARRAY, "level %d", i);
        cr_assert_eq(level->size, 1u);
        level = static_cast<const pmix_data_array_t *>(level->array);
    }
    cr_assert_eq(level->type, PMIX_INT32);
    cr_expect_eq(*static_cast<const int32_t *>(level->array), 4242);
    pmixpp::values::destruct_element(&out, PMIX_DATA_ARRAY);
}

Test(buffer_nesting, infos_100_deep_round_trip)
{
    // info "k" = data array holding one info "k" = ... = uint32 7
    std::vector<pmix_info_t> infos(kDeep);
    std::vector<pmix_data_array_t> arrays(kDeep);
    for (int i = 0; i < kDeep; ++i) {
        memset(&infos[i], 0, sizeof infos[i]);
        strcpy(infos[i].key, "k");
        if (i == kDeep - 1) {
            infos[i].value.type = PMIX_UINT32;
            infos[i].value.data.uint32 = 7;
        } else {
            arrays[i] = {PMIX_INFO, 1, &infos[i + 1]};
            infos[i].value.type = PMIX_DATA_ARRAY;
            infos[i].value.data.darray = &arrays[i];
        }
    }
    ScopedBuffer b;
    cr_assert_eq(PMIx_Data_pack(nullptr, b.get(), &infos[0], 1, PMIX_INFO), PMIX_SUCCESS);
    pmix_info_t out;
    memset(&out, 0, sizeof out);
    int32_t n = 1;
    cr_assert_eq(PMIx_Data_unpack(nullptr, b.get(), &out, &n, PMIX_INFO), PMIX_SUCCESS);
    const pmix_info_t *level = &out;
    for (int i = 0; i < kDeep - 1; ++i) {
        cr_assert_eq(level->value.type, PMIX_DATA_ARRAY, "level %d", i);
        level = static_cast<const pmix_info_t *>(level->value.data.darray->array);
    }
    cr_expect_eq(level->value.type, PMIX_UINT32);
    cr_expect_eq(level->value.data.uint32, 7u);
    pmixpp::values::destruct_element(&out, PMIX_INFO);
}

// Raw encodings whose nesting costs exactly `levels` unpack levels, in the
// shapes that cost the most stack per level.
namespace {

std::string key(const char *k)
{
    return le32(static_cast<uint32_t>(strlen(k) + 1)) + k;
}

const std::string kPresent(1, '\x01');  // a boxed value's presence byte

std::string data_array_chain(unsigned levels)
{
    std::string raw = le16(PMIX_DATA_ARRAY) + le32(1);
    for (unsigned i = 1; i < levels; ++i) {
        raw += le16(PMIX_DATA_ARRAY) + le32(1);
    }
    return raw + le16(PMIX_INT32) + le32(0);
}

// info -> data array of infos -> info ...: two levels per step.
std::string info_chain(unsigned levels)
{
    std::string raw = le16(PMIX_INFO) + le32(1);
    for (unsigned i = 1; i + 1 < levels; i += 2) {
        raw += key("k") + le32(0) + le16(PMIX_DATA_ARRAY) + kPresent + le16(PMIX_INFO) + le32(1);
    }
    return raw + key("k") + le32(0) + le16(PMIX_UNDEF);
}

// app -> its info -> data array of apps -> app ...: three levels per step.
std::string app_chain(unsigned levels)
{
    const std::string empty_app = le32(0) + le32(0) + le32(0) + le32(0) + le32(1);
    std::string raw = le16(PMIX_APP) + le32(1);
    for (unsigned i = 1; i + 2 < levels; i += 3) {
        raw += empty_app + le32(1) + key("k") + le32(0) + le16(PMIX_DATA_ARRAY) + kPresent + le16(PMIX_APP) + le32(1);
    }
    return raw + empty_app + le32(0);
}

struct DeepJob {
    std::string raw;
    pmix_data_type_t type;
    pmix_status_t unpack_rc = PMIX_ERR_INIT;
    pmix_status_t print_rc = PMIX_ERR_INIT;
    pmix_status_t copy_rc = PMIX_ERR_INIT;
    pmix_status_t repack_rc = PMIX_ERR_INIT;
};

// Everything a receiver does with deep input: unpack, print, copy, pack
// again, destruct.
void *handle_deep_input(void *arg)
{
    auto *job = static_cast<DeepJob *>(arg);
    ScopedBuffer b;
    b.assign(job->raw);
    void *element = pmixpp::values::alloc_elements(job->type, 1);
    int32_t n = 1;
    job->unpack_rc = PMIx_Data_unpack(nullptr, b.get(), element, &n, job->type);
    if (job->unpack_rc == PMIX_SUCCESS) {
        char *text = nullptr;
        job->print_rc = PMIx_Data_print(&text, nullptr, element, job->type);
        free(text);
        void *copy = nullptr;
        job->copy_rc = PMIx_Data_copy(&copy, element, job->type);
        if (job->copy_rc == PMIX_SUCCESS) {
            pmixpp::values::free_elements(copy, 1, job->type);
        }
        ScopedBuffer again;
        job->repack_rc = PMIx_Data_pack(nullptr, again.get(), element, 1, job->type);
    }
    pmixpp::values::free_elements(element, 1, job->type);
    return nullptr;
}

// glibc's smallest default thread stack (RLIMIT_STACK unlimited on x86_64);
// the progress thread gets at least this unless the user lowers ulimit -s.
constexpr size_t kSmallThreadStack = 2u << 20;

void run_on_small_stack(DeepJob *job)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    cr_assert_eq(pthread_attr_setstacksize(&attr, kSmallThreadStack), 0);
    pthread_t thread;
    cr_assert_eq(pthread_create(&thread, &attr, handle_deep_input, job), 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
}

}  // namespace

Test(buffer_nesting, deepest_legal_input_fits_a_small_thread_stack)
{
    const struct {
        std::string raw;
        pmix_data_type_t type;
    } shapes[] = {
        {data_array_chain(kMaxUnpackDepth), PMIX_DATA_ARRAY},
        {info_chain(kMaxUnpackDepth), PMIX_INFO},
        {app_chain(kMaxUnpackDepth), PMIX_APP},
    };
    for (const auto &shape : shapes) {
        DeepJob job;
        job.raw = shape.raw;
        job.type = shape.type;
        run_on_small_stack(&job);
        const char *name = PMIx_Data_type_string(shape.type);
        cr_expect_eq(job.unpack_rc, PMIX_SUCCESS, "%s chain: unpack", name);
        cr_expect_eq(job.print_rc, PMIX_SUCCESS, "%s chain: print", name);
        cr_expect_eq(job.copy_rc, PMIX_SUCCESS, "%s chain: copy", name);
        cr_expect_eq(job.repack_rc, PMIX_SUCCESS, "%s chain: pack", name);
    }
}

Test(buffer_nesting, one_level_past_the_bound_is_refused)
{
    const struct {
        std::string raw;
        pmix_data_type_t type;
    } shapes[] = {
        {data_array_chain(kMaxUnpackDepth + 1), PMIX_DATA_ARRAY},
        {info_chain(kMaxUnpackDepth + 1), PMIX_INFO},
    };
    for (const auto &shape : shapes) {
        ScopedBuffer b;
        b.assign(shape.raw);
        void *element = pmixpp::values::alloc_elements(shape.type, 1);
        int32_t n = 1;
        cr_expect_eq(PMIx_Data_unpack(nullptr, b.get(), element, &n, shape.type), PMIX_ERR_UNPACK_FAILURE, "%s chain",
                     PMIx_Data_type_string(shape.type));
        cr_expect_eq(b.buf.unpack_ptr, b.buf.base_ptr);
        pmixpp::values::free_elements(element, 1, shape.type);
    }
}
