// Runs of KVALs (a key and its value, one PACK each), as OpenPMIx puts a
// commit's scopes, a get's answer and its job-data blobs on the wire; and
// the counted infos its answers end with.
#ifndef PMIXPP_COMMON_OPENPMIX_KVALS_H
#define PMIXPP_COMMON_OPENPMIX_KVALS_H

#include <pmix_common.h>

#include <cstdint>
#include <span>
#include <vector>

#include "common/openpmix/bfrops.h"
#include "common/wire/messages.h"

namespace pmixpp::openpmix {

// KVALs until the end of `bytes`, as infos into *target (replaced).
pmix_status_t read_kvals(Encoding encoding, std::span<const uint8_t> bytes, wire::InfoArray *target);
// KVALs until the end of the reader's bytes, appended to *items; the caller
// owns (destructs) the values.
pmix_status_t read_kvals(Reader &reader, std::vector<pmix_info_t> *items);
// One KVAL per info.
pmix_status_t write_kvals(Writer &writer, const pmix_info_t *info, std::size_t n);
// One KVAL whose value is an info array of `items` (borrowed): how OpenPMIx
// carries a node's, an app's or a session's data and a qualified value.
pmix_status_t write_info_array_kval(Writer &writer, const char *key, std::span<const pmix_info_t> items);

// [n SIZE][INFO × n], as most answers end, into *infos_p.
pmix_status_t read_counted_infos(Reader &reader, wire::InfoArray *infos_p);

}  // namespace pmixpp::openpmix

#endif
