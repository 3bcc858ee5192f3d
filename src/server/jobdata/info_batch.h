// A reusable array of pmix_info_t for one store call: derived values are
// scalars or text the batch keeps, the host's values are borrowed (never
// released here). The store copies what it is given, so a batch is cleared
// after each put.
#ifndef PMIXPP_SERVER_JOBDATA_INFO_BATCH_H
#define PMIXPP_SERVER_JOBDATA_INFO_BATCH_H

#include "common/store/store.h"
#include "server/jobdata/collect.h"

#include <pmix_common.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace pmixpp::jobdata {

class InfoBatch {
public:
    InfoBatch() = default;
    InfoBatch(const InfoBatch &) = delete;
    InfoBatch &operator=(const InfoBatch &) = delete;
    ~InfoBatch() { clear(); }

    void add_u32(const char *key, uint32_t value);
    void add_rank(const char *key, pmix_rank_t value);
    void add_u16(const char *key, uint16_t value);
    void add_string(const char *key, const std::string &value);
    // `text` must stay valid until the next put (the store copies it).
    void add_borrowed_string(const char *key, const char *text);
    // The host's entry, normalized to the attribute's declared type.
    void add_given(const pmix_info_t &info);
    void add_given(const std::vector<const pmix_info_t *> &infos);
    // The proc's entries, but none with key `skip` (when not NULL).
    void add_given(const GivenProc &proc, const char *skip = nullptr);

    bool empty() const { return count_ == 0; }
    // Stores everything at (nspace, level, id) and clears the batch.
    pmix_status_t put(const store::Store &store, const char *nspace, store::Level level, uint32_t id);
    void clear();

private:
    pmix_info_t &append(const char *key);

    std::vector<pmix_info_t> infos_;  // slots [0, count_) are in use
    std::size_t count_ = 0;
    std::deque<std::string> strings_;  // stable addresses for add_string
};

}  // namespace pmixpp::jobdata

#endif
