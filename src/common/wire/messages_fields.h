// Field helpers shared by the messages_*.cc files: bounded strings, codes,
// statuses, procs, owning arrays and byte blobs. Private to wire/messages.
#ifndef PMIXPP_COMMON_WIRE_MESSAGES_FIELDS_H
#define PMIXPP_COMMON_WIRE_MESSAGES_FIELDS_H

#include <cstdlib>
#include <string>
#include <vector>

#include <pmix_common.h>

#include "common/buffer/codec.h"
#include "common/buffer/codec_util.h"
#include "common/wire/messages.h"

namespace pmixpp::wire::fields {

using buffer::chain;
using buffer::Packer;
using buffer::Unpacker;

// A string of at most max bytes; longer is PMIX_ERR_BAD_PARAM (the sender's bug).
pmix_status_t put_text(Packer &p, const std::string &s, size_t max);
// NULL reads as empty; longer than max is malformed.
pmix_status_t get_text(Unpacker &u, size_t max, std::string *s_p);

// The u16 discriminator that starts a payload.
inline pmix_status_t put_code(Packer &p, uint16_t code)
{
    return p.put_u16(code);
}
// Reads the discriminator; another value than expected is malformed.
pmix_status_t expect_code(Unpacker &u, uint16_t expected);

// A one-byte record tag; another value than expected is malformed.
inline pmix_status_t expect_code8(Unpacker &u, uint8_t expected)
{
    uint8_t code;
    pmix_status_t rc = u.get_u8(&code);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    return code == expected ? PMIX_SUCCESS : PMIX_ERR_UNPACK_FAILURE;
}

inline pmix_status_t put_command(Packer &p, Command cmd)
{
    return put_code(p, static_cast<uint16_t>(cmd));
}
inline pmix_status_t expect_command(Unpacker &u, Command cmd)
{
    return expect_code(u, static_cast<uint16_t>(cmd));
}

inline pmix_status_t put_status(Packer &p, pmix_status_t status)
{
    return p.put_i32(status);
}
inline pmix_status_t get_status(Unpacker &u, pmix_status_t *status_p)
{
    return u.get_i32(status_p);
}

// A proc: nspace as a bounded string, then the u32 rank.
using buffer::get_proc;
using buffer::put_proc;

pmix_status_t put_procs(Packer &p, const std::vector<pmix_proc_t> &procs);
pmix_status_t get_procs(Unpacker &u, std::vector<pmix_proc_t> *procs_p);

pmix_status_t put_blob(Packer &p, const Bytes &blob);
pmix_status_t get_blob(Unpacker &u, Bytes *blob_p);

// u32 count + elements (the codec's array encoding).
template <typename T, pmix_data_type_t Type> pmix_status_t put_array(Packer &p, const PmixArray<T, Type> &array)
{
    return buffer::pack_array(p, array.data(), array.size(), Type);
}

template <typename T, pmix_data_type_t Type> pmix_status_t get_array(Unpacker &u, PmixArray<T, Type> *array_p)
{
    void *elements = nullptr;
    size_t n = 0;
    pmix_status_t rc = buffer::unpack_array(u, &elements, &n, Type);
    // The codec hands over the array even on failure; owning it here frees it.
    PmixArray<T, Type> owned;
    owned.adopt(static_cast<T *>(elements), n);
    if (rc == PMIX_SUCCESS) {
        *array_p = std::move(owned);
    }
    return rc;
}

// Reads a message into a fresh struct and hands it over only on success, so
// *msg_p is untouched (and nothing leaks) when a field fails:
//   return decode_into(msg_p, [&](X &msg) { return chain(...); });
template <typename Message, typename ReadFields> pmix_status_t decode_into(Message *msg_p, ReadFields &&read_fields)
{
    Message msg;
    pmix_status_t rc = read_fields(msg);
    if (rc == PMIX_SUCCESS) {
        *msg_p = std::move(msg);
    }
    return rc;
}

}  // namespace pmixpp::wire::fields

#endif
