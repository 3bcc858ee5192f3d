// The empty answer of a blocking call that returns an array it allocates:
// set before the call can fail, so a caller that reads the count after an
// error (python3-pmix does) sees none rather than stack garbage.
#ifndef PMIXPP_CLIENT_NO_RESULTS_H
#define PMIXPP_CLIENT_NO_RESULTS_H

#include <cstddef>

namespace pmixpp::client {

template <typename T> void no_results(T **array_p, std::size_t *count_p)
{
    if (array_p != nullptr) *array_p = nullptr;
    if (count_p != nullptr) *count_p = 0;
}

}  // namespace pmixpp::client

#endif
