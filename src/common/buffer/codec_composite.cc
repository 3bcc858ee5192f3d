// Codecs of the containers: value, info, pdata, app, query, data array and
// data buffer. Values and data arrays carry their own type tag.
#include <cstdlib>

#include "common/buffer/codec.h"
#include "common/buffer/codec_util.h"
#include "common/values/type_ops.h"
#include "common/values/type_table.h"

namespace pmixpp::buffer {

namespace {

using values::ValueHolding;

// How pmix_value_t keeps a value of this type; the values area owns the answer
// because it also releases what the value holds.
ValueHolding value_holding(pmix_data_type_t type)
{
    const values::TypeTraits *traits = values::find_type(type);
    return traits == nullptr ? ValueHolding::kNotHeld : traits->holding;
}

pmix_status_t pack_value_payload(Packer &p, const pmix_value_t &v)
{
    // An address means nothing in another process: a pointer travels as its
    // type tag alone and arrives as NULL (what OpenPMIx's receivers see too).
    if (v.type == PMIX_UNDEF || v.type == PMIX_POINTER) {
        return PMIX_SUCCESS;
    }
    if (find_codec(v.type) == nullptr) {
        return no_codec_status(v.type);
    }
    switch (value_holding(v.type)) {
    case ValueHolding::kInline: return pack_elements(p, &v.data, 1, v.type);
    case ValueHolding::kBoxed:
        // A presence byte, because some hosts leave the box empty.
        if (v.data.ptr == nullptr) {
            return p.put_u8(0);
        }
        return chain([&] { return p.put_u8(1); }, [&] { return pack_elements(p, v.data.ptr, 1, v.type); });
    default: return PMIX_ERR_NOT_SUPPORTED;
    }
}

pmix_status_t unpack_boxed_payload(Unpacker &u, pmix_value_t *v)
{
    uint8_t present;
    pmix_status_t rc = u.get_u8(&present);
    if (rc != PMIX_SUCCESS || present == 0) {
        return rc;
    }
    if (present != 1) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    void *box = values::alloc_elements(v->type, 1);
    if (box == nullptr) {
        return PMIX_ERR_NOMEM;
    }
    v->data.ptr = box;  // owned by the value from here on, even on failure
    return unpack_elements(u, box, 1, v->type);
}

pmix_status_t pack_value(Packer &p, const void *element)
{
    const auto *v = static_cast<const pmix_value_t *>(element);
    pmix_status_t rc = p.put_u16(v->type);
    return rc == PMIX_SUCCESS ? pack_value_payload(p, *v) : rc;
}

pmix_status_t unpack_value(Unpacker &u, void *element)
{
    auto *v = static_cast<pmix_value_t *>(element);
    pmix_data_type_t type;
    pmix_status_t rc = u.get_u16(&type);
    if (rc != PMIX_SUCCESS || type == PMIX_UNDEF) {
        return rc;
    }
    if (type == PMIX_POINTER) {  // tag only, see pack_value_payload
        v->type = PMIX_POINTER;
        v->data.ptr = nullptr;
        return PMIX_SUCCESS;
    }
    if (find_codec(type) == nullptr) {
        return no_codec_status(type);
    }
    ValueHolding holding = value_holding(type);
    if (holding != ValueHolding::kInline && holding != ValueHolding::kBoxed) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    v->type = type;
    if (holding == ValueHolding::kBoxed) {
        return unpack_boxed_payload(u, v);
    }
    return unpack_elements(u, &v->data, 1, type);
}

pmix_status_t pack_info(Packer &p, const void *element)
{
    const auto *info = static_cast<const pmix_info_t *>(element);
    return chain([&] { return put_key(p, info->key); }, [&] { return p.put_u32(info->flags); },
                 [&] { return pack_value(p, &info->value); });
}

pmix_status_t unpack_info(Unpacker &u, void *element)
{
    auto *info = static_cast<pmix_info_t *>(element);
    pmix_status_t rc = chain([&] { return get_key(u, info->key); }, [&] { return u.get_u32(&info->flags); },
                             [&] { return unpack_value(u, &info->value); });
    // The sender's "persistent" (someone else frees the data) described the
    // sender's memory. What was just unpacked belongs to the receiver, and
    // PMIX_INFO_DESTRUCT must free it, so the flag never survives the wire.
    info->flags &= ~static_cast<pmix_info_directives_t>(PMIX_INFO_PERSISTENT);
    return rc;
}

pmix_status_t pack_pdata(Packer &p, const void *element)
{
    const auto *pd = static_cast<const pmix_pdata_t *>(element);
    return chain([&] { return put_proc(p, pd->proc); }, [&] { return put_key(p, pd->key); },
                 [&] { return pack_value(p, &pd->value); });
}

pmix_status_t unpack_pdata(Unpacker &u, void *element)
{
    auto *pd = static_cast<pmix_pdata_t *>(element);
    return chain([&] { return get_proc(u, &pd->proc); }, [&] { return get_key(u, pd->key); },
                 [&] { return unpack_value(u, &pd->value); });
}

pmix_status_t pack_app(Packer &p, const void *element)
{
    const auto *app = static_cast<const pmix_app_t *>(element);
    return chain([&] { return p.put_string(app->cmd); }, [&] { return p.put_argv(app->argv); },
                 [&] { return p.put_argv(app->env); }, [&] { return p.put_string(app->cwd); },
                 [&] { return put_integer(p, app->maxprocs); },
                 [&] { return pack_array(p, app->info, app->ninfo, PMIX_INFO); });
}

pmix_status_t unpack_app(Unpacker &u, void *element)
{
    auto *app = static_cast<pmix_app_t *>(element);
    void *info = nullptr;
    pmix_status_t rc = chain([&] { return u.get_string(&app->cmd); }, [&] { return u.get_argv(&app->argv); },
                             [&] { return u.get_argv(&app->env); }, [&] { return u.get_string(&app->cwd); },
                             [&] { return get_integer(u, &app->maxprocs); },
                             [&] { return unpack_array(u, &info, &app->ninfo, PMIX_INFO); });
    app->info = static_cast<pmix_info_t *>(info);
    return rc;
}

pmix_status_t pack_query(Packer &p, const void *element)
{
    const auto *q = static_cast<const pmix_query_t *>(element);
    return chain([&] { return p.put_argv(q->keys); },
                 [&] { return pack_array(p, q->qualifiers, q->nqual, PMIX_INFO); });
}

pmix_status_t unpack_query(Unpacker &u, void *element)
{
    auto *q = static_cast<pmix_query_t *>(element);
    void *quals = nullptr;
    pmix_status_t rc =
        chain([&] { return u.get_argv(&q->keys); }, [&] { return unpack_array(u, &quals, &q->nqual, PMIX_INFO); });
    q->qualifiers = static_cast<pmix_info_t *>(quals);
    return rc;
}

pmix_status_t pack_data_array(Packer &p, const void *element)
{
    const auto *da = static_cast<const pmix_data_array_t *>(element);
    pmix_status_t rc = p.put_u16(da->type);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    if (da->size == 0) {  // an empty array of any (even unknown) type
        return p.put_count(0);
    }
    return pack_array(p, da->array, da->size, da->type);
}

pmix_status_t unpack_data_array(Unpacker &u, void *element)
{
    auto *da = static_cast<pmix_data_array_t *>(element);
    pmix_data_type_t type;
    pmix_status_t rc = u.get_u16(&type);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    da->type = type;
    if (find_codec(type) == nullptr) {
        uint32_t n;
        rc = u.get_u32(&n);
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
        return n == 0 ? PMIX_SUCCESS : no_codec_status(type);
    }
    return unpack_array(u, &da->array, &da->size, type);
}

pmix_status_t pack_data_buffer(Packer &p, const void *element)
{
    const auto *db = static_cast<const pmix_data_buffer_t *>(element);
    if (!buffer_is_consistent(db)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return p.put_bytes(db->base_ptr, db->bytes_used);
}

pmix_status_t unpack_data_buffer(Unpacker &u, void *element)
{
    auto *db = static_cast<pmix_data_buffer_t *>(element);
    char *bytes = nullptr;
    size_t size = 0;
    pmix_status_t rc = u.get_bytes(&bytes, &size);
    if (rc != PMIX_SUCCESS) {
        return rc;
    }
    db->base_ptr = bytes;
    db->pack_ptr = bytes == nullptr ? nullptr : bytes + size;
    db->unpack_ptr = bytes;
    db->bytes_allocated = size;
    db->bytes_used = size;
    return PMIX_SUCCESS;
}

constexpr Codec kCompositeCodecs[] = {
    {PMIX_VALUE, sizeof(pmix_value_t), 2, pack_value, unpack_value},
    {PMIX_INFO, sizeof(pmix_info_t), 10, pack_info, unpack_info},
    {PMIX_PDATA, sizeof(pmix_pdata_t), 14, pack_pdata, unpack_pdata},
    {PMIX_APP, sizeof(pmix_app_t), 24, pack_app, unpack_app},
    {PMIX_QUERY, sizeof(pmix_query_t), 8, pack_query, unpack_query},
    {PMIX_DATA_ARRAY, sizeof(pmix_data_array_t), 6, pack_data_array, unpack_data_array},
    {PMIX_DATA_BUFFER, sizeof(pmix_data_buffer_t), 8, pack_data_buffer, unpack_data_buffer},
};

}  // namespace

CodecSpan composite_codecs()
{
    return {kCompositeCodecs, sizeof kCompositeCodecs / sizeof kCompositeCodecs[0]};
}

}  // namespace pmixpp::buffer
