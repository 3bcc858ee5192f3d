// Open MPI 4.x's ranks send their help messages to the launcher (the
// "MPI_ABORT was invoked on rank 1 ..." box, errors of its components) as
// one PMIx_Log entry: PMIX_LOG_MSG holding a byte object that Open MPI's
// own DSS packed. mpirun unpacks and prints the text; pmixrun does too.
//
// The layout (DSS, non-described buffer: every pack call writes a 32-bit
// big-endian count of values, then the values):
//   [1][len][help file name\0]  [1][len][topic\0]  [1][flag: int8]
//   [1][len][rendered text\0]   (the text only when the flag is 1)
// where a string's len counts its NUL.
#ifndef PMIXPP_BIN_PMIXRUN_OPEN_MPI_LOG_H
#define PMIXPP_BIN_PMIXRUN_OPEN_MPI_LOG_H

#include <pmix_common.h>

#include <string>

namespace pmixrun {

// The rendered text of an Open MPI help message; false when `bytes` is not
// one (anything else a client logs as a byte object).
bool open_mpi_help_text(const pmix_byte_object_t &bytes, std::string *text_p);

}  // namespace pmixrun

#endif
