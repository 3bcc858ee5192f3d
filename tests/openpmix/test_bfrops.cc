// OpenPMIx's bfrops encodings (src/common/openpmix): round trips of every
// type in v41, v3 and fully described buffers, the bytes measured from real
// OpenPMIx peers (docs of the dialect: openpmix-wire.md section 2), and
// truncated or garbage input.
#include <criterion/criterion.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "buffer/samples.h"
#include "common/openpmix/bfrops.h"
#include "common/openpmix/bfrops_codec.h"
#include "common/values/type_ops.h"

using namespace pmixpp::openpmix;
namespace values = pmixpp::values;

namespace {

const Encoding kEncodings[] = {
    {Bfrops::v41, BufferType::non_desc},
    {Bfrops::v41, BufferType::fully_desc},
    {Bfrops::v3, BufferType::non_desc},
    {Bfrops::v3, BufferType::fully_desc},
};

std::string hex(const std::vector<uint8_t> &bytes)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (uint8_t b : bytes) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

std::vector<uint8_t> unhex(std::string text)
{
    std::vector<uint8_t> out;
    std::string digits;
    for (char c : text) {
        if (c != ' ') {
            digits += c;
        }
    }
    for (size_t i = 0; i + 1 < digits.size(); i += 2) {
        out.push_back(static_cast<uint8_t>(std::stoul(digits.substr(i, 2), nullptr, 16)));
    }
    return out;
}

// Types the codec packs for an encoding (samples cover every type).
bool packable(Encoding enc, pmix_data_type_t type)
{
    return codec::type_supported(enc.bfrops, type) && type != PMIX_KVAL && type != PMIX_POINTER && type != PMIX_TOPO &&
           type != PMIX_PROC_STATS && type != PMIX_DISK_STATS && type != PMIX_NET_STATS && type != PMIX_NODE_STATS;
}

std::string describe(Encoding enc, pmix_data_type_t type)
{
    return std::string(bfrops_name(enc.bfrops)) + (enc.described() ? "/desc " : " ") + PMIx_Data_type_string(type);
}

}  // namespace

Test(openpmix_bfrops, round_trip_every_type)
{
    for (Encoding enc : kEncodings) {
        for (pmix_data_type_t type : samples::packable_types()) {
            void *element = samples::make(type);
            Writer w(enc);
            pmix_status_t rc = w.pack(type, element, 1);
            if (!packable(enc, type)) {
                cr_expect_eq(rc, PMIX_ERR_UNKNOWN_DATA_TYPE, "%s packed", describe(enc, type).c_str());
                cr_expect(w.bytes().empty());
                samples::release(element, type);
                continue;
            }
            cr_assert_eq(rc, PMIX_SUCCESS, "%s: %d", describe(enc, type).c_str(), rc);
            void *back = values::alloc_elements(type, 1);
            Reader r(enc, w.bytes());
            int32_t n = 1;
            rc = r.unpack(type, back, &n);
            cr_assert_eq(rc, PMIX_SUCCESS, "%s unpack: %d %s", describe(enc, type).c_str(), rc, r.reason().c_str());
            cr_expect(r.at_end(), "%s: %zu bytes left", describe(enc, type).c_str(), r.remaining());
            Writer again(enc);
            cr_assert_eq(again.pack(type, back, 1), PMIX_SUCCESS);
            cr_expect_eq(hex(again.bytes()), hex(w.bytes()), "%s", describe(enc, type).c_str());
            values::free_elements(back, 1, type);
            samples::release(element, type);
        }
    }
}

Test(openpmix_bfrops, every_type_in_a_value)
{
    for (Encoding enc : kEncodings) {
        for (pmix_data_type_t type : samples::packable_types()) {
            if (!packable(enc, type) || type == PMIX_VALUE || type == PMIX_INFO || type == PMIX_APP ||
                type == PMIX_PDATA || type == PMIX_QUERY || type == PMIX_BUFFER) {
                continue;
            }
            void *element = samples::make(type);
            pmix_value_t v{};
            cr_assert_eq(PMIx_Value_load(&v, element, type), PMIX_SUCCESS, "%s", describe(enc, type).c_str());
            Writer w(enc);
            cr_assert_eq(w.pack_kval("pmix.test.key", v), PMIX_SUCCESS, "%s", describe(enc, type).c_str());
            Reader r(enc, w.bytes());
            std::string key;
            pmix_value_t back{};
            cr_assert_eq(r.unpack_kval(&key, &back), PMIX_SUCCESS, "%s: %s", describe(enc, type).c_str(),
                         r.reason().c_str());
            cr_expect_eq(key, "pmix.test.key");
            cr_expect_eq(back.type, type);
            Writer again(enc);
            cr_assert_eq(again.pack_kval(key.c_str(), back), PMIX_SUCCESS);
            cr_expect_eq(hex(again.bytes()), hex(w.bytes()), "%s", describe(enc, type).c_str());
            PMIx_Value_destruct(&v);
            PMIx_Value_destruct(&back);
            samples::release(element, type);
        }
    }
}

// Measured from a real OpenPMIx 4.2.2 client (openpmix-wire.md section 2).
Test(openpmix_bfrops, golden_fence_request_v41)
{
    const std::string golden =
        "0203 0201 02 12 70726f62652e6e7300 feffffff0f 0201 02 1a706d69782e636f6c6c65637400 00 01 01";
    Writer w(Encoding{});
    pmix_proc_t proc{};
    std::strcpy(proc.nspace, "probe.ns");
    proc.rank = PMIX_RANK_WILDCARD;
    pmix_info_t info{};
    std::strcpy(info.key, "pmix.collect");
    info.value.type = PMIX_BOOL;
    info.value.data.flag = true;
    cr_assert_eq(w.pack_command(3), PMIX_SUCCESS);
    cr_assert_eq(w.pack_counted(PMIX_PROC, &proc, 1), PMIX_SUCCESS);
    cr_assert_eq(w.pack_counted(PMIX_INFO, &info, 1), PMIX_SUCCESS);
    cr_expect_eq(hex(w.bytes()), hex(unhex(golden)));

    const std::vector<uint8_t> bytes = unhex(golden);
    Reader r(Encoding{}, bytes);
    uint8_t cmd = 0;
    cr_assert_eq(r.unpack_command(&cmd), PMIX_SUCCESS);
    cr_expect_eq(cmd, 3);
    void *procs = nullptr;
    size_t nprocs = 0;
    cr_assert_eq(r.unpack_counted(PMIX_PROC, &procs, &nprocs), PMIX_SUCCESS, "%s", r.reason().c_str());
    cr_assert_eq(nprocs, 1u);
    cr_expect_str_eq(static_cast<pmix_proc_t *>(procs)->nspace, "probe.ns");
    cr_expect_eq(static_cast<pmix_proc_t *>(procs)->rank, PMIX_RANK_WILDCARD);
    void *infos = nullptr;
    size_t ninfo = 0;
    cr_assert_eq(r.unpack_counted(PMIX_INFO, &infos, &ninfo), PMIX_SUCCESS, "%s", r.reason().c_str());
    cr_assert_eq(ninfo, 1u);
    auto *i0 = static_cast<pmix_info_t *>(infos);
    cr_expect_str_eq(i0->key, "pmix.collect");
    cr_expect_eq(i0->value.type, PMIX_BOOL);
    cr_expect(i0->value.data.flag);
    cr_expect(r.at_end());
    values::free_elements(procs, nprocs, PMIX_PROC);
    values::free_elements(infos, ninfo, PMIX_INFO);
}

Test(openpmix_bfrops, golden_small_pieces)
{
    Writer count(Encoding{});
    cr_assert_eq(count.pack_rank(PMIX_RANK_WILDCARD), PMIX_SUCCESS);
    cr_expect_eq(hex(count.bytes()), "02feffffff0f");

    Writer req3(Encoding{Bfrops::v3, BufferType::non_desc});
    cr_assert_eq(req3.pack_command(0), PMIX_SUCCESS);
    cr_expect_eq(hex(req3.bytes()), "0000000100");

    Writer req_desc(Encoding{Bfrops::v41, BufferType::fully_desc});
    cr_assert_eq(req_desc.pack_command(0), PMIX_SUCCESS);
    cr_expect_eq(hex(req_desc.bytes()), "09022200");

    // COMMIT: [cmd][scope][BUFFER of 16 bytes] per scope
    Writer commit(Encoding{});
    uint8_t blob[16];
    for (uint8_t i = 0; i < 16; ++i) {
        blob[i] = i;
    }
    pmix_data_buffer_t buf{};
    buf.base_ptr = reinterpret_cast<char *>(blob);
    buf.bytes_used = 16;
    const pmix_scope_t local = PMIX_LOCAL;
    const pmix_scope_t remote = PMIX_REMOTE;
    cr_assert_eq(commit.pack_command(2), PMIX_SUCCESS);
    cr_assert_eq(commit.pack(PMIX_SCOPE, &local, 1), PMIX_SUCCESS);
    cr_assert_eq(commit.pack(PMIX_BUFFER, &buf, 1), PMIX_SUCCESS);
    cr_assert_eq(commit.pack(PMIX_SCOPE, &remote, 1), PMIX_SUCCESS);
    cr_assert_eq(commit.pack(PMIX_BUFFER, &buf, 1), PMIX_SUCCESS);
    const std::string b16 = "000102030405060708090a0b0c0d0e0f";
    cr_expect_eq(hex(commit.bytes()), "0202"
                                      "0201"
                                      "020110" +
                                          b16 +
                                          "0202"
                                          "020110" +
                                          b16);
}

Test(openpmix_bfrops, varint_limits)
{
    const uint64_t values64[] = {0,           1, 127, 128, 16383, 16384, (uint64_t{1} << 56) - 1, uint64_t{1} << 56,
                                 ~uint64_t{0}};
    for (uint64_t v : values64) {
        Writer w(Encoding{});
        cr_assert_eq(w.pack(PMIX_UINT64, &v, 1), PMIX_SUCCESS);
        cr_expect_leq(w.bytes().size(), 1u + 9u);
        Reader r(Encoding{}, w.bytes());
        uint64_t back = 0;
        int32_t n = 1;
        cr_assert_eq(r.unpack(PMIX_UINT64, &back, &n), PMIX_SUCCESS);
        cr_expect_eq(back, v);
    }
    const int64_t signed64[] = {0, -1, 1, INT64_MIN, INT64_MAX};
    for (int64_t v : signed64) {
        Writer w(Encoding{});
        cr_assert_eq(w.pack(PMIX_INT64, &v, 1), PMIX_SUCCESS);
        Reader r(Encoding{}, w.bytes());
        int64_t back = 0;
        int32_t n = 1;
        cr_assert_eq(r.unpack(PMIX_INT64, &back, &n), PMIX_SUCCESS);
        cr_expect_eq(back, v);
    }
    // a UINT16 wider than 16 bits is refused
    const std::vector<uint8_t> wide = {0x02, 0xff, 0xff, 0x7f};
    Reader r(Encoding{}, wide);
    uint16_t v16 = 0;
    int32_t n = 1;
    cr_expect_eq(r.unpack(PMIX_UINT16, &v16, &n), PMIX_ERR_UNPACK_FAILURE);
    cr_expect_eq(r.offset(), 0u);
}

Test(openpmix_bfrops, floats_are_printf_text)
{
    const double d = 2.5;
    Writer w(Encoding{});
    cr_assert_eq(w.pack(PMIX_DOUBLE, &d, 1), PMIX_SUCCESS);
    cr_expect_eq(hex(w.bytes()), "0212" + hex(std::vector<uint8_t>{'2', '.', '5', '0', '0', '0', '0', '0', 0}));
}

Test(openpmix_bfrops, refusals_name_the_reason)
{
    int x = 0;
    void *ptr = &x;
    Writer w(Encoding{});
    cr_expect_eq(w.pack(PMIX_POINTER, &ptr, 1), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(w.pack(200, &x, 1), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect(w.bytes().empty());
    const std::vector<uint8_t> bogus = {0x02, 0x7f, 0x01};  // value of type 127
    Reader r(Encoding{}, bogus);
    pmix_value_t v{};
    int32_t n = 1;
    cr_expect_eq(r.unpack(PMIX_VALUE, &v, &n), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect(!r.reason().empty());
    // a fully described buffer holding another type
    Writer d(Encoding{Bfrops::v41, BufferType::fully_desc});
    cr_assert_eq(d.pack_uint32(7), PMIX_SUCCESS);
    Reader rd(Encoding{Bfrops::v41, BufferType::fully_desc}, d.bytes());
    int32_t i32 = 0;
    n = 1;
    cr_expect_eq(rd.unpack(PMIX_INT32, &i32, &n), PMIX_ERR_PACK_MISMATCH);
}

// A 3.2 client's v3 has no PMIX_REGEX, PMIX_LOCTYPE or PMIX_PROC_NSPACE: such
// a value goes as the older type carrying the same datum, so the key arrives
// (pmixrun's PMIX_NODE_MAP is a regex); a type with no older form is refused,
// with the reason.
Test(openpmix_bfrops, v3_gets_older_types)
{
    const Encoding v3{Bfrops::v3, BufferType::non_desc};
    char regex[] = "pmix[vm]";
    pmix_value_t as_regex{};
    as_regex.type = PMIX_REGEX;
    as_regex.data.bo.bytes = regex;
    as_regex.data.bo.size = sizeof(regex);
    pmix_value_t as_string{};
    as_string.type = PMIX_STRING;
    as_string.data.string = regex;
    Writer w(v3), expected(v3);
    cr_assert_eq(w.pack_kval(PMIX_NODE_MAP, as_regex), PMIX_SUCCESS, "%s", w.reason().c_str());
    cr_assert_eq(expected.pack_kval(PMIX_NODE_MAP, as_string), PMIX_SUCCESS);
    cr_expect_eq(hex(w.bytes()), hex(expected.bytes()));

    pmix_value_t locality{};
    locality.type = PMIX_LOCTYPE;
    locality.data.locality = PMIX_LOCALITY_SHARE_NODE;
    Writer l(v3);
    cr_assert_eq(l.pack_kval(PMIX_LOCALITY, locality), PMIX_SUCCESS);
    Reader r(v3, l.bytes());
    std::string key;
    pmix_value_t back{};
    cr_assert_eq(r.unpack_kval(&key, &back), PMIX_SUCCESS, "%s", r.reason().c_str());
    cr_expect_eq(back.type, PMIX_UINT16);
    cr_expect_eq(back.data.uint16, PMIX_LOCALITY_SHARE_NODE);

    pmix_nspace_t nspace = "job-7";
    pmix_value_t ns_value{};
    ns_value.type = PMIX_PROC_NSPACE;
    ns_value.data.nspace = &nspace;
    Writer n(v3), n_expected(v3);
    cr_assert_eq(n.pack_kval(PMIX_NSPACE, ns_value), PMIX_SUCCESS);
    pmix_value_t ns_string{};
    ns_string.type = PMIX_STRING;
    ns_string.data.string = nspace;
    cr_assert_eq(n_expected.pack_kval(PMIX_NSPACE, ns_string), PMIX_SUCCESS);
    cr_expect_eq(hex(n.bytes()), hex(n_expected.bytes()));

    // v41 keeps the type itself.
    Writer v41(Encoding{});
    cr_assert_eq(v41.pack_kval(PMIX_NODE_MAP, as_regex), PMIX_SUCCESS);
    cr_expect_neq(hex(v41.bytes()), hex(Writer(Encoding{}).bytes()));
    Reader r41(Encoding{}, v41.bytes());
    pmix_value_t back41{};
    cr_assert_eq(r41.unpack_kval(&key, &back41), PMIX_SUCCESS);
    cr_expect_eq(back41.type, PMIX_REGEX);
    PMIx_Value_destruct(&back41);

    pmix_geometry_t geometry{};
    pmix_value_t g{};
    g.type = PMIX_GEOMETRY;
    g.data.geometry = &geometry;
    Writer refused(v3);
    cr_expect_eq(refused.pack_kval("pmix.test.geometry", g), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect(refused.bytes().empty());
    cr_expect(refused.reason().find("v3") != std::string::npos, "reason: %s", refused.reason().c_str());
}

// Every prefix of a valid encoding fails cleanly and leaves the reader where it was.
Test(openpmix_bfrops, truncated_composites_fail_cleanly)
{
    for (Encoding enc : kEncodings) {
        for (pmix_data_type_t type : samples::composite_types()) {
            if (!packable(enc, type)) {
                continue;
            }
            void *element = samples::make(type);
            Writer w(enc);
            cr_assert_eq(w.pack(type, element, 1), PMIX_SUCCESS, "%s", describe(enc, type).c_str());
            const std::vector<uint8_t> &full = w.bytes();
            for (size_t len = 0; len < full.size(); ++len) {
                std::vector<uint8_t> prefix(full.begin(), full.begin() + static_cast<long>(len));
                Reader r(enc, prefix);
                void *back = values::alloc_elements(type, 1);
                int32_t n = 1;
                pmix_status_t rc = r.unpack(type, back, &n);
                cr_expect_neq(rc, PMIX_SUCCESS, "%s prefix %zu of %zu", describe(enc, type).c_str(), len, full.size());
                cr_expect_eq(r.offset(), 0u);
                values::free_elements(back, 1, type);
            }
            samples::release(element, type);
        }
    }
}

Test(openpmix_bfrops, oversized_counts_are_refused_before_allocating)
{
    // count 2^31-1 of INFO with three bytes behind it
    const std::vector<uint8_t> huge = {0xfe, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x00, 0x00};
    Reader r(Encoding{}, huge);
    void *array = nullptr;
    size_t n = 0;
    cr_expect_neq(r.unpack_counted(PMIX_INFO, &array, &n), PMIX_SUCCESS);
    cr_expect_null(array);
    // a data array claiming 2^40 elements
    const std::vector<uint8_t> darray = {0x02, 0x27, 0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20};
    Reader rd(Encoding{}, darray);
    pmix_value_t v{};
    int32_t one = 1;
    cr_expect_neq(rd.unpack(PMIX_VALUE, &v, &one), PMIX_SUCCESS);
    // nesting: values in data arrays in values, far deeper than the bound
    std::vector<uint8_t> deep = {0x02};
    for (int i = 0; i < 5000; ++i) {
        deep.insert(deep.end(), {0x27, 0x15, 0x01});  // DATA_ARRAY of one VALUE
    }
    Reader rn(Encoding{}, deep);
    one = 1;
    cr_expect_neq(rn.unpack(PMIX_VALUE, &v, &one), PMIX_SUCCESS);
    cr_expect(!rn.reason().empty());
}

Test(openpmix_bfrops, garbage_never_crashes)
{
    std::mt19937 rng(1234);
    for (Encoding enc : kEncodings) {
        for (pmix_data_type_t type : samples::composite_types()) {
            if (!packable(enc, type)) {
                continue;
            }
            for (int round = 0; round < 200; ++round) {
                std::vector<uint8_t> bytes(rng() % 64);
                for (uint8_t &b : bytes) {
                    b = static_cast<uint8_t>(rng());
                }
                Reader r(enc, bytes);
                void *back = values::alloc_elements(type, 4);
                int32_t n = 4;
                if (r.unpack(type, back, &n) == PMIX_SUCCESS) {
                    values::free_elements(back, static_cast<size_t>(n), type);
                } else {
                    values::free_elements(back, 4, type);
                }
            }
        }
    }
}
