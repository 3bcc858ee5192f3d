// The host's children's output printed by the server itself, as OpenPMIx
// does when PMIX_IOF_LOCAL_OUTPUT is on: what the host delivers
// (PMIx_server_IOF_deliver) is written to the host's own stdout and stderr,
// formatted as its namespace asked at registration (PMIX_IOF_TAG_OUTPUT,
// PMIX_IOF_RANK_OUTPUT, PMIX_IOF_TIMESTAMP_OUTPUT, PMIX_IOF_XML_OUTPUT,
// PMIX_IOF_MERGE_STDERR_STDOUT). PRRTE's prterun relies on it to show its
// job's output; pmixrun prints for itself and turns it off per namespace.
//
// On by default, as in OpenPMIx, unless a tool started the host
// (PMIX_LAUNCHER_RNDZ_URI or PMIX_KEEPALIVE_PIPE in its environment); the
// server's PMIX_IOF_LOCAL_OUTPUT sets the default, a namespace's overrides
// it. Writing happens on a thread of its own, so a stdout nobody reads
// never stops the server: past kMaxQueued bytes waiting, output is dropped
// and counted (one line says how much). Progress thread only, except the
// writer.
#ifndef PMIXPP_SERVER_IOF_LOCAL_OUTPUT_H
#define PMIXPP_SERVER_IOF_LOCAL_OUTPUT_H

#include <pmix_common.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "common/iof/format.h"

namespace pmixpp::server::iof {

class LocalOutput {
public:
    static constexpr std::size_t kMaxQueued = std::size_t{16} << 20;

    LocalOutput();
    ~LocalOutput();
    LocalOutput(const LocalOutput &) = delete;
    LocalOutput &operator=(const LocalOutput &) = delete;

    // PMIx_server_init's info: the default.
    void configure(const pmix_info_t info[], std::size_t ninfo);
    // A namespace's own setting and format, from its registration info.
    void namespace_registered(const std::string &nspace, const pmix_info_t info[], std::size_t ninfo);
    void namespace_deregistered(const std::string &nspace);

    // Queues one chunk for the host's stdout or stderr when its namespace
    // prints locally. Empty chunks are ignored.
    void write(const pmix_proc_t &source, uint16_t channel, const uint8_t *data, std::size_t size);

    // Waits until what is queued is written, at most `limit` (finalize: the
    // host usually exits right after).
    void flush(std::chrono::milliseconds limit);

    struct Queue;  // shared with the writer thread

private:
    struct JobSettings {
        std::optional<bool> local;
        ::pmixpp::iof::Format format;
        bool merge = false;
    };
    bool by_default_;
    std::map<std::string, JobSettings> jobs_;
    std::shared_ptr<Queue> queue_;
};

}  // namespace pmixpp::server::iof

#endif
