// The pieces every part of the seed generator (seedgen.cc) shares: where
// seeds go, and small builders of what the seeds carry.
#ifndef PMIXPP_TESTS_FUZZ_SEEDGEN_H
#define PMIXPP_TESTS_FUZZ_SEEDGEN_H

#include <pmix.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/openpmix/commands.h"
#include "common/openpmix/connect.h"
#include "common/openpmix/frame.h"
#include "common/regex/regex.h"
#include "common/rendezvous/rendezvous.h"
#include "common/values/type_ops.h"
#include "common/values/type_table.h"
#include "common/values/value_ops.h"
#include "common/wire/messages.h"
#include "common/wire/messages_fields.h"

namespace seedgen {

namespace fs = std::filesystem;
using namespace pmixpp::wire;

inline fs::path g_root;  // where the targets' folders go

inline void write(const std::string &target, const std::string &name, const std::vector<uint8_t> &bytes)
{
    const fs::path dir = g_root / target;
    fs::create_directories(dir);
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) {
        std::fprintf(stderr, "seedgen: cannot write %s\n", (dir / name).c_str());
        std::exit(1);
    }
}

inline std::vector<uint8_t> with_prefix(std::initializer_list<uint8_t> prefix, const std::vector<uint8_t> &rest)
{
    std::vector<uint8_t> bytes(prefix);
    bytes.insert(bytes.end(), rest.begin(), rest.end());
    return bytes;
}

inline std::vector<uint8_t> text_bytes(const std::string &text)
{
    return {text.begin(), text.end()};
}

inline void must(pmix_status_t rc, const char *what)
{
    if (rc != PMIX_SUCCESS) {
        std::fprintf(stderr, "seedgen: %s failed: %s\n", what, PMIx_Error_string(rc));
        std::exit(1);
    }
}

inline pmix_proc_t proc(const char *nspace, pmix_rank_t rank)
{
    pmix_proc_t p{};
    std::snprintf(p.nspace, sizeof(p.nspace), "%s", nspace);
    p.rank = rank;
    return p;
}

// An info list built entry by entry; nested() wraps a list as a data array.
class Infos {
public:
    Infos &add(const char *key, const void *data, pmix_data_type_t type)
    {
        list_.emplace_back();
        std::memset(&list_.back(), 0, sizeof(pmix_info_t));
        must(pmixpp::values::info_load(&list_.back(), key, data, type), key);
        return *this;
    }
    Infos &u32(const char *key, uint32_t v) { return add(key, &v, PMIX_UINT32); }
    Infos &rank(const char *key, pmix_rank_t v) { return add(key, &v, PMIX_PROC_RANK); }
    Infos &str(const char *key, const char *v) { return add(key, v, PMIX_STRING); }
    Infos &flag(const char *key, bool v) { return add(key, &v, PMIX_BOOL); }
    pmix_info_t *data() { return list_.data(); }
    size_t size() const { return list_.size(); }
    Infos &nested(const char *key, const Infos &inner)
    {
        pmix_data_array_t array{};
        array.type = PMIX_INFO;
        array.size = inner.list_.size();
        array.array = const_cast<pmix_info_t *>(inner.list_.data());
        return add(key, &array, PMIX_DATA_ARRAY);
    }
    InfoArray array() const
    {
        InfoArray out;
        must(out.assign_copy(list_.data(), list_.size()), "copy infos");
        return out;
    }
    // u32 count + infos, the encoding decode_info_array reads.
    std::vector<uint8_t> encoded() const
    {
        pmix_data_buffer_t buf{};
        pmixpp::buffer::Packer p(&buf);
        must(fields::put_array(p, array()), "pack infos");
        std::vector<uint8_t> bytes(reinterpret_cast<uint8_t *>(buf.base_ptr),
                                   reinterpret_cast<uint8_t *>(buf.base_ptr) + buf.bytes_used);
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        return bytes;
    }
    ~Infos()
    {
        for (pmix_info_t &info : list_) PMIX_INFO_DESTRUCT(&info);
    }

private:
    std::vector<pmix_info_t> list_;
};

template <typename Message> std::vector<uint8_t> bytes_of(const Message &msg)
{
    Bytes bytes;
    must(encode_to_bytes(msg, &bytes), "encode");
    return bytes;
}

inline InfoArray sample_infos()
{
    Infos inner;
    inner.u32("pmix.test.inner", 7);
    Infos infos;
    pmix_proc_t p = proc("ns-sample", 3);
    double d = 2.5;
    infos.str("pmix.test.str", "a value")
        .u32("pmix.test.u32", 42)
        .flag(PMIX_COLLECT_DATA, true)
        .add("pmix.test.proc", &p, PMIX_PROC)
        .add("pmix.test.double", &d, PMIX_DOUBLE)
        .nested("pmix.test.array", inner);
    return infos.array();
}

// The seeds of the OpenPMIx dialect's targets (seedgen_openpmix.cc).
void openpmix_bfrops();
void openpmix_connect();
void openpmix_requests();
void openpmix_job_data();

}  // namespace seedgen

#endif
