#include "common/openpmix/kvals.h"

#include <cstring>
#include <string>

namespace pmixpp::openpmix {

pmix_status_t read_kvals(Reader &reader, std::vector<pmix_info_t> *items)
{
    pmix_status_t rc = PMIX_SUCCESS;
    while (rc == PMIX_SUCCESS && !reader.at_end()) {
        std::string key;
        pmix_info_t info{};
        rc = reader.unpack_kval(&key, &info.value);
        if (rc != PMIX_SUCCESS) break;
        std::strncpy(info.key, key.c_str(), PMIX_MAX_KEYLEN);
        items->push_back(info);  // owns the value from here
    }
    return rc;
}

pmix_status_t read_kvals(Encoding encoding, std::span<const uint8_t> bytes, wire::InfoArray *target)
{
    Reader reader(encoding, bytes);
    std::vector<pmix_info_t> items;
    pmix_status_t rc = read_kvals(reader, &items);
    if (rc == PMIX_SUCCESS) rc = target->assign_copy(items.data(), items.size());
    for (pmix_info_t &info : items) PMIX_INFO_DESTRUCT(&info);
    return rc;
}

pmix_status_t write_kvals(Writer &writer, const pmix_info_t *info, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i) {
        const pmix_status_t rc = writer.pack_kval(info[i].key, info[i].value);
        if (rc != PMIX_SUCCESS) return rc;
    }
    return PMIX_SUCCESS;
}

pmix_status_t write_info_array_kval(Writer &writer, const char *key, std::span<const pmix_info_t> items)
{
    pmix_data_array_t array{};
    array.type = PMIX_INFO;
    array.size = items.size();
    array.array = const_cast<pmix_info_t *>(items.data());  // read only
    pmix_value_t value{};
    value.type = PMIX_DATA_ARRAY;
    value.data.darray = &array;
    return writer.pack_kval(key, value);
}

pmix_status_t read_counted_infos(Reader &reader, wire::InfoArray *infos_p)
{
    pmix_info_t *info = nullptr;
    std::size_t n = 0;
    const pmix_status_t rc = reader.unpack_counted(PMIX_INFO, reinterpret_cast<void **>(&info), &n);
    if (rc == PMIX_SUCCESS) infos_p->adopt(info, n);
    return rc;
}

}  // namespace pmixpp::openpmix
