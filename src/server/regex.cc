// PMIx_generate_regex / PMIx_generate_ppn: the host-facing side of the node
// and proc map encodings in common/regex (grammar: docs/regex.md).
#include <pmix_server.h>

#include "common/regex/regex.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace {

using Generator = pmix_status_t (*)(std::string_view, std::string *);

pmix_status_t generate(const char *input, char **output, Generator generator)
{
    if (input == nullptr || output == nullptr || *input == '\0') return PMIX_ERR_BAD_PARAM;
    try {
        std::string encoded;
        const pmix_status_t rc = generator(input, &encoded);
        if (rc != PMIX_SUCCESS) return rc;
        // Callers release it with free(): hand out libc memory.
        char *copy = strdup(encoded.c_str());
        if (copy == nullptr) return PMIX_ERR_NOMEM;
        *output = copy;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace

pmix_status_t PMIx_generate_regex(const char *input, char **regex)
{
    return generate(input, regex, pmixpp::regex::generate_node_regex);
}

pmix_status_t PMIx_generate_ppn(const char *input, char **ppn)
{
    return generate(input, ppn, pmixpp::regex::generate_ppn_regex);
}
