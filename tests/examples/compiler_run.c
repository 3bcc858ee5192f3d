/* Running a compiler from a test and reading what it said. */
#define _GNU_SOURCE /* asprintf, strndup, dprintf */
#include "compiler_run.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char *read_whole_file(int fd)
{
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity);
    ssize_t got;
    if (NULL == text) {
        return NULL;
    }
    lseek(fd, 0, SEEK_SET);
    while (0 < (got = read(fd, text + size, capacity - size - 1))) {
        size += (size_t)got;
        if (capacity - size - 1 == 0) {
            char *grown = realloc(text, capacity * 2);
            if (NULL == grown) {
                break;
            }
            text = grown;
            capacity *= 2;
        }
    }
    text[size] = '\0';
    return text;
}

/* The environment without BXFI_MAP: Criterion's sandbox passes it to the
 * test process, and a Criterion program started from a test (the clang-built
 * macro test) would take it as its own and abort. */
static char **environment_for_child(void)
{
    size_t n = 0, kept = 0, i;
    char **env;
    while (NULL != environ[n]) {
        ++n;
    }
    env = calloc(n + 1, sizeof(char *));
    for (i = 0; NULL != env && i < n; ++i) {
        if (0 != strncmp(environ[i], "BXFI_MAP=", 9)) {
            env[kept++] = environ[i];
        }
    }
    return env;
}

static int spawn_and_wait(char *const argv[], int output_fd)
{
    char **env = environment_for_child();
    posix_spawn_file_actions_t actions;
    pid_t pid;
    int status = 0, rc;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, output_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output_fd, STDERR_FILENO);
    rc = (NULL == env) ? ENOMEM : posix_spawnp(&pid, argv[0], &actions, NULL, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    free(env);
    if (0 != rc) {
        dprintf(output_fd, "cannot run %s: %s\n", argv[0], strerror(rc));
        return -1;
    }
    while (pid != waitpid(pid, &status, 0)) {
        if (EINTR != errno) {
            dprintf(output_fd, "waiting for %s failed: %s\n", argv[0], strerror(errno));
            return -1;
        }
    }
    if (WIFSIGNALED(status)) {
        dprintf(output_fd, "%s was killed by signal %d\n", argv[0], WTERMSIG(status));
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void compiler_run(char *const argv[], const char *scratch_dir, compiler_run_t *run_p)
{
    char path[4096];
    int fd;
    run_p->exit_status = -1;
    snprintf(path, sizeof(path), "%s/compiler-output-XXXXXX", scratch_dir);
    fd = mkstemp(path);
    if (0 > fd) {
        run_p->output = strdup("cannot create a temporary file for the compiler output");
        return;
    }
    unlink(path);
    run_p->exit_status = spawn_and_wait(argv, fd);
    run_p->output = read_whole_file(fd);
    close(fd);
    if (NULL == run_p->output) {
        run_p->output = strdup("");
    }
}

void compiler_run_release(compiler_run_t *run)
{
    free(run->output);
    run->output = NULL;
}

char *compiler_lines_with(const char *output, const char *needle, int max_lines)
{
    size_t length = strlen(output);
    char *picked = calloc(1, length + 1);
    const char *line = output;
    int found = 0;
    if (NULL == picked) {
        return NULL;
    }
    while ('\0' != *line && found < max_lines) {
        const char *end = strchr(line, '\n');
        size_t line_length = (NULL == end) ? strlen(line) : (size_t)(end - line);
        char *copy = strndup(line, line_length);
        if (NULL != copy && NULL != strstr(copy, needle)) {
            strcat(picked, copy);
            strcat(picked, "\n");
            ++found;
        }
        free(copy);
        line += line_length + (NULL == end ? 0 : 1);
    }
    return picked;
}

char *compiler_warning_under(const char *output, const char *path_prefix)
{
    const char *line = output;
    size_t prefix_length = strlen(path_prefix);
    while ('\0' != *line) {
        const char *end = strchr(line, '\n');
        size_t line_length = (NULL == end) ? strlen(line) : (size_t)(end - line);
        if (0 == strncmp(line, path_prefix, prefix_length)) {
            char *copy = strndup(line, line_length);
            if (NULL != copy && NULL != strstr(copy, " warning: ")) {
                return copy;
            }
            free(copy);
        }
        line += line_length + (NULL == end ? 0 : 1);
    }
    return NULL;
}

bool make_directories(const char *path)
{
    char partial[4096];
    size_t i, length = strlen(path);
    if (0 == length || sizeof(partial) <= length) {
        return false;
    }
    memcpy(partial, path, length + 1);
    for (i = 1; i <= length; ++i) {
        if ('/' == partial[i] || '\0' == partial[i]) {
            char saved = partial[i];
            partial[i] = '\0';
            if (0 != mkdir(partial, 0755) && EEXIST != errno) {
                return false;
            }
            partial[i] = saved;
        }
    }
    return true;
}

const char *env_or_empty(const char *name)
{
    const char *value = getenv(name);
    return (NULL == value) ? "" : value;
}
