// How forwarded output is shown: the directives of PMIx_IOF_pull and of a
// namespace's registration (PMIX_IOF_TAG_OUTPUT, PMIX_IOF_RANK_OUTPUT,
// PMIX_IOF_TIMESTAMP_OUTPUT, PMIX_IOF_XML_OUTPUT) applied to one chunk.
// Used by a tool's pull handlers and by a server that prints its
// children's output itself (PMIX_IOF_LOCAL_OUTPUT).
#ifndef PMIXPP_COMMON_IOF_FORMAT_H
#define PMIXPP_COMMON_IOF_FORMAT_H

#include <pmix_common.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace pmixpp::iof {

struct Format {
    bool tag = false;        // PMIX_IOF_TAG_OUTPUT: "[nspace,rank]<stdout>: " before each line
    bool rank = false;       // PMIX_IOF_RANK_OUTPUT: "[rank]<stdout>: " before each line
    bool timestamp = false;  // PMIX_IOF_TIMESTAMP_OUTPUT: the local time before each line
    bool xml = false;        // PMIX_IOF_XML_OUTPUT: each chunk as <stdout nspace=".." rank="..">..</stdout>
};

// The format the directives ask for (a bool, or any other value as "on").
// Directives it does not know are left alone.
Format format_of(const pmix_info_t directives[], std::size_t ndirs);

// Applies the format to one chunk (bytes from source on channel).
std::string apply(const Format &format, const pmix_proc_t &source, uint16_t channel, const std::string &bytes);

}  // namespace pmixpp::iof

#endif
