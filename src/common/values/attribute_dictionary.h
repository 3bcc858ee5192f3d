// The dictionary of standard attributes: macro name, key string and the
// value type the headers declare for it (generated from data/*.tsv).
#ifndef PMIXPP_COMMON_VALUES_ATTRIBUTE_DICTIONARY_H
#define PMIXPP_COMMON_VALUES_ATTRIBUTE_DICTIONARY_H

#include <cstddef>

#include <pmix_common.h>

namespace pmixpp::values {

struct AttributeEntry {
    const char *name;       // "PMIX_JOB_SIZE"
    const char *key;        // "pmix.job.size"
    pmix_data_type_t type;  // PMIX_UINT32; PMIX_UNDEF when it varies
    bool deprecated;        // declared in pmix_deprecated.h
};

const AttributeEntry *find_attribute_by_name(const char *name);
// Where a current and a deprecated name share a key, the current one is found.
const AttributeEntry *find_attribute_by_key(const char *key);

// All entries, sorted by name.
const AttributeEntry *attribute_entries(size_t *count_p);

}  // namespace pmixpp::values

#endif
