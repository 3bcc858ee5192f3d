// Helpers for the SDK tests, which drive cmake, pkg-config and the compiler
// the way a user of an installed pmixpp would.
#ifndef PMIXPP_TESTS_SDK_SHELL_H
#define PMIXPP_TESTS_SDK_SHELL_H

#include <string>

namespace pmixpp::tests {

// `text` single-quoted for /bin/sh.
std::string shell_quote(const std::string &text);

// Value of an environment variable the CTest registration sets; "" if unset.
std::string env_or_empty(const char *name);

// Runs `command` with /bin/sh, stdout and stderr into `log_path`. Returns
// true on exit status 0; otherwise prints the command and the log to stderr.
bool run_logged(const std::string &command, const std::string &log_path);

// Runs `command` and captures its stdout (stderr goes to `log_path`).
bool run_capture(const std::string &command, const std::string &log_path, std::string *out_p);

// A fresh directory under $PMIXPP_SDK_WORK_DIR, e.g. <work>/pkgconfig-XXXXXX.
std::string make_work_dir(const char *stem);

// Removes a directory tree made by make_work_dir (ignores errors).
void remove_tree(const std::string &path);

// cmake --install of the pmixpp build tree into `prefix`.
bool install_pmixpp(const std::string &prefix, const std::string &log_path);

}  // namespace pmixpp::tests

#endif
