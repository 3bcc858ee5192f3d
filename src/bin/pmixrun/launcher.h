// Starting the job's processes: each is registered with the server, gets
// setup_fork's environment plus its application's -x variables, runs in a
// process group of its own (Ctrl-C reaches pmixrun, which passes it on
// once), writes stdout and stderr into pipes pmixrun reads, and reads stdin
// from a pipe (the ranks --stdin names) or /dev/null (the others).
#ifndef PMIXPP_BIN_PMIXRUN_LAUNCHER_H
#define PMIXPP_BIN_PMIXRUN_LAUNCHER_H

#include "job.h"
#include "stdin_forwarder.h"

#include <string>
#include <vector>

namespace pmixrun {

// The path execve runs for `program`, which is to run in `cwd` (empty:
// pmixrun's own): absolute as given; holding a '/', relative to cwd; else
// the first executable match on PATH, then in cwd. False with *why_p when none.
bool resolve_program(const std::string &program, const std::string &cwd, std::string *path_p, std::string *why_p);

// Starts every process of the job, in rank order. With feeds_p, the ranks
// `target` names read their stdin from pipes whose write ends are appended
// to *feeds_p; without, every process reads /dev/null. On failure *why_p
// says which rank and why; processes already started keep running (the
// caller ends them; the pipes already made are in *feeds_p).
bool launch_job(Job &job, const StdinTarget &target, std::vector<StdinFeed> *feeds_p, std::string *why_p);

// Ends whatever was started (a launch that failed half-way): SIGTERM, then
// SIGKILL, and reaps them.
void end_started(Job &job);

}  // namespace pmixrun

#endif
