// The zlib functions libpmix calls (large values and job data travel
// compressed), each loading libz on its first use (shared_library.h): a
// process that never compresses never maps it.
#include <zlib.h>

#include "common/on_demand/shared_library.h"

namespace {

pmixpp::on_demand::SharedLibrary zlib_library("libz.so.1", "zlib1g");

}  // namespace

#define ZLIB_CALL(name) PMIXPP_ON_DEMAND(zlib_library, name)

extern "C" {

uLong compressBound(uLong sourceLen)
{
    auto fn = ZLIB_CALL(compressBound);
    return fn != nullptr ? fn(sourceLen) : 0;
}

int compress2(Bytef *dest, uLongf *destLen, const Bytef *source, uLong sourceLen, int level)
{
    auto fn = ZLIB_CALL(compress2);
    return fn != nullptr ? fn(dest, destLen, source, sourceLen, level) : Z_VERSION_ERROR;
}

int uncompress2(Bytef *dest, uLongf *destLen, const Bytef *source, uLong *sourceLen)
{
    auto fn = ZLIB_CALL(uncompress2);
    return fn != nullptr ? fn(dest, destLen, source, sourceLen) : Z_VERSION_ERROR;
}

}  // extern "C"
