/*
 * Existing PMIx programs compile UNMODIFIED against our headers and link
 * against our libpmix.so.2: every example program that Debian's libpmix-dev
 * ships with OpenPMIx is built with the system C compiler (and with clang when
 * it is installed), with our tests/examples/examples.h standing in for the
 * helper header those programs include. The example sources are not ours, so
 * their own warnings are tolerated; any error, and any warning located in our
 * headers or in the shim, fails.
 */
#define _GNU_SOURCE /* asprintf, strndup, dprintf */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_run.h"

/* One example program, by file name; an empty name stands for "no examples". */
typedef struct {
    char file[256];
} example_t;

/* Examples that cannot be built outside OpenPMIx's own tree, and why. */
static const struct {
    const char *file;
    const char *reason;
} kSkipped[] = {
    {"server.c", "needs OpenPMIx internals (src/include/pmix_config.h, pmix_list_t, "
                 "PMIX_CLASS_INSTANCE), which no installed PMIx provides"},
    {"pmi1client.c", "needs pmi.h from the PMI-1 compatibility library, not a PMIx header"},
};

/* The same extra diagnostics for every compiler: these are hard errors in
 * current GCC and clang releases, and would hide a function or a conversion
 * that our headers lack. */
#define STRICT_FLAGS                                                                                                   \
    "-Werror=implicit-function-declaration", "-Werror=int-conversion", "-Werror=incompatible-pointer-types",           \
        "-Werror=implicit-int"

static const char *skip_reason(const char *file)
{
    size_t i;
    for (i = 0; i < sizeof(kSkipped) / sizeof(kSkipped[0]); ++i) {
        if (0 == strcmp(file, kSkipped[i].file)) {
            return kSkipped[i].reason;
        }
    }
    return NULL;
}

static int is_c_source(const struct dirent *entry)
{
    size_t length = strlen(entry->d_name);
    return 2 < length && 0 == strcmp(entry->d_name + length - 2, ".c");
}

static void free_examples(struct criterion_test_params *params)
{
    cr_free(params->params);
}

/* Criterion copies parameters between processes, so they live in cr_malloc
 * memory and hold their names inline. */
static struct criterion_test_params list_examples(void)
{
    struct dirent **entries = NULL;
    int count = scandir(env_or_empty("PMIXPP_EXAMPLES_DIR"), &entries, is_c_source, alphasort);
    size_t n = (0 < count) ? (size_t)count : 1;
    example_t *examples = cr_calloc(n, sizeof(example_t));
    int i;
    for (i = 0; i < count; ++i) {
        snprintf(examples[i].file, sizeof(examples[i].file), "%s", entries[i]->d_name);
        free(entries[i]);
    }
    free(entries);
    return cr_make_param_array(example_t, examples, n, free_examples);
}

static char *output_directory(const char *compiler_tag)
{
    char *directory = NULL;
    cr_assert_neq(asprintf(&directory, "%s/tests/examples/%s", env_or_empty("PMIXPP_BUILD_DIR"), compiler_tag), -1);
    cr_assert(make_directories(directory), "cannot create %s", directory);
    return directory;
}

static void skip_unless_buildable(const example_t *example)
{
    const char *reason;
    if ('\0' == example->file[0]) {
        cr_skip_test("OpenPMIx's example programs are not installed in '%s' (Debian package "
                     "libpmix-dev)",
                     env_or_empty("PMIXPP_EXAMPLES_DIR"));
    }
    reason = skip_reason(example->file);
    if (NULL != reason) {
        cr_skip_test("%s: %s", example->file, reason);
    }
}

/* Fails when output carries a warning located in one of our directories. */
static void assert_no_warning_from(const char *output, const char *directory, const char *what)
{
    char *prefix = NULL, *warning;
    cr_assert_neq(asprintf(&prefix, "%s/", directory), -1);
    warning = compiler_warning_under(output, prefix);
    cr_expect_null(warning, "%s warns: %s", what, warning);
    free(warning);
    free(prefix);
}

static void build_example(const char *compiler, const char *compiler_tag, const example_t *example)
{
    const char *source_dir = env_or_empty("PMIXPP_SOURCE_DIR");
    const char *shim_dir = env_or_empty("PMIXPP_EXAMPLES_SHIM_DIR");
    char *out_dir = output_directory(compiler_tag);
    char *source = NULL, *program = NULL, *include = NULL, *shim = NULL, *libdir = NULL;
    char *errors;
    compiler_run_t run;

    cr_assert_neq(asprintf(&source, "%s/%s", env_or_empty("PMIXPP_EXAMPLES_DIR"), example->file), -1);
    cr_assert_neq(asprintf(&program, "%s/%.*s", out_dir, (int)strlen(example->file) - 2, example->file), -1);
    cr_assert_neq(asprintf(&include, "-I%s/include", source_dir), -1);
    cr_assert_neq(asprintf(&shim, "-I%s", shim_dir), -1);
    cr_assert_neq(asprintf(&libdir, "-L%s/lib", env_or_empty("PMIXPP_BUILD_DIR")), -1);
    {
        char *const argv[] = {(char *)compiler, "-Wall", STRICT_FLAGS, shim,        include, source, "-o",
                              program,          libdir,  "-lpmix",     "-lpthread", NULL};
        compiler_run(argv, out_dir, &run);
    }
    errors = compiler_lines_with(run.output, "error", 8);
    cr_expect_eq(run.exit_status, 0, "%s: %s could not build it (exit %d):\n%s", example->file, compiler,
                 run.exit_status, ('\0' != errors[0]) ? errors : run.output);
    assert_no_warning_from(run.output, shim_dir, "the examples.h shim");
    {
        char *our_include = NULL;
        cr_assert_neq(asprintf(&our_include, "%s/include", source_dir), -1);
        assert_no_warning_from(run.output, our_include, "a pmixpp header");
        free(our_include);
    }
    free(errors);
    compiler_run_release(&run);
    free(libdir);
    free(shim);
    free(include);
    free(program);
    free(source);
    free(out_dir);
}

ParameterizedTestParameters(examples, build_with_cc)
{
    return list_examples();
}

ParameterizedTest(example_t *example, examples, build_with_cc)
{
    skip_unless_buildable(example);
    build_example(env_or_empty("PMIXPP_C_COMPILER"), "cc", example);
}

ParameterizedTestParameters(examples, build_with_clang)
{
    return list_examples();
}

ParameterizedTest(example_t *example, examples, build_with_clang)
{
    if ('\0' == env_or_empty("PMIXPP_CLANG")[0]) {
        cr_skip_test("clang is not installed");
    }
    skip_unless_buildable(example);
    build_example(env_or_empty("PMIXPP_CLANG"), "clang", example);
}
