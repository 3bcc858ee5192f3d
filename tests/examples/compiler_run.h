/* Running a compiler from a test and reading what it said. */
#ifndef PMIXPP_TESTS_EXAMPLES_COMPILER_RUN_H
#define PMIXPP_TESTS_EXAMPLES_COMPILER_RUN_H

#include <stdbool.h>
#include <stddef.h>

/* What one compiler invocation produced. */
typedef struct {
    int exit_status; /* the compiler's exit code; -1 when it could not be run */
    char *output;    /* its stdout and stderr together, malloc'ed, never NULL */
} compiler_run_t;

/* Runs argv (argv[0] is looked up in PATH when it has no slash) and waits for
 * it. The combined output goes through a temporary file in scratch_dir. */
void compiler_run(char *const argv[], const char *scratch_dir, compiler_run_t *run_p);

void compiler_run_release(compiler_run_t *run);

/* Up to max_lines lines of output that contain needle, newline-separated, in a
 * malloc'ed string (empty when none matched). */
char *compiler_lines_with(const char *output, const char *needle, int max_lines);

/* The first line of output that is a warning located in a file under
 * path_prefix, malloc'ed, or NULL. Used to insist that OUR headers compile
 * without warnings even inside programs whose own warnings we tolerate. */
char *compiler_warning_under(const char *output, const char *path_prefix);

/* mkdir -p */
bool make_directories(const char *path);

/* The environment variable, or "" when unset. */
const char *env_or_empty(const char *name);

#endif
