// --output-filename DIR: each rank's output goes to files instead of
// pmixrun's own, laid out as Open MPI's mpirun does:
// DIR/<job number>/rank.<N>/stdout and .../stderr. Directories are made as
// needed (0755); the files are created or emptied (0644) and never opened
// through a symbolic link.
#ifndef PMIXPP_BIN_PMIXRUN_OUTPUT_FILES_H
#define PMIXPP_BIN_PMIXRUN_OUTPUT_FILES_H

#include <cstdint>
#include <string>

namespace pmixrun {

struct RankFiles {
    int out = -1;
    int err = -1;  // -1 with merged stderr
};

// False with *why_p naming the path and the cause; nothing is left open.
bool open_rank_files(const std::string &dir, const std::string &job_number, uint32_t rank, bool with_stderr,
                     RankFiles *files_p, std::string *why_p);

}  // namespace pmixrun

#endif
