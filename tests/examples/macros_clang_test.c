/*
 * The header macro test of tests/abi (C and C++ translation units) built with
 * clang/clang++ instead of the project compiler, linked against our
 * libpmix.so, and run. Our headers must compile warning-free under both
 * compiler families. Skipped when clang is not installed.
 */
#define _GNU_SOURCE /* asprintf, strndup, dprintf */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler_run.h"

#define OUR_WARNINGS "-Wall", "-Wextra", "-Wshadow", "-Wformat=2", "-Wundef", "-Werror"

typedef struct {
    const char *build_dir;
    const char *abi_tests;   /* tests/abi, where the macro test lives */
    char *include;           /* -I<source>/include */
    char *local_include;     /* -I<source>/tests/abi */
    char *criterion_include; /* -I<criterion headers> or a harmless -I. */
    char *out_dir;
} clang_build_t;

static void run_or_fail(char *const argv[], const clang_build_t *b, const char *step)
{
    compiler_run_t run;
    compiler_run(argv, b->out_dir, &run);
    cr_assert_eq(run.exit_status, 0, "%s failed (exit %d):\n%s", step, run.exit_status, run.output);
    compiler_run_release(&run);
}

static void compile_unit(const clang_build_t *b, const char *compiler, const char *standard, const char *source_name,
                         const char *object_name)
{
    char *source = NULL, *object = NULL;
    cr_assert_neq(asprintf(&source, "%s/%s", b->abi_tests, source_name), -1);
    cr_assert_neq(asprintf(&object, "%s/%s", b->out_dir, object_name), -1);
    {
        char *const argv[] = {(char *)compiler,
                              (char *)standard,
                              OUR_WARNINGS,
                              b->include,
                              b->local_include,
                              b->criterion_include,
                              "-c",
                              source,
                              "-o",
                              object,
                              NULL};
        run_or_fail(argv, b, source_name);
    }
    free(object);
    free(source);
}

static void prepare(clang_build_t *b)
{
    const char *source_dir = env_or_empty("PMIXPP_SOURCE_DIR");
    const char *criterion_include = env_or_empty("PMIXPP_CRITERION_INCLUDE");
    b->build_dir = env_or_empty("PMIXPP_BUILD_DIR");
    b->abi_tests = NULL;
    cr_assert_neq(asprintf(&b->include, "-I%s/include", source_dir), -1);
    cr_assert_neq(asprintf(&b->local_include, "-I%s/tests/abi", source_dir), -1);
    cr_assert_neq(asprintf(&b->criterion_include, "-I%s", ('\0' != criterion_include[0]) ? criterion_include : "."),
                  -1);
    cr_assert_neq(asprintf(&b->out_dir, "%s/tests/examples/clang-abi-macros", b->build_dir), -1);
    cr_assert(make_directories(b->out_dir), "cannot create %s", b->out_dir);
}

Test(clang, builds_and_runs_the_abi_macro_test)
{
    const char *clang = env_or_empty("PMIXPP_CLANG");
    const char *clangxx = env_or_empty("PMIXPP_CLANGXX");
    char abi_tests[4096];
    char *program = NULL, *c_obj = NULL, *cxx_c_obj = NULL, *cxx_obj = NULL, *libdir = NULL;
    clang_build_t b;

    if ('\0' == clang[0] || '\0' == clangxx[0]) {
        cr_skip_test("clang and clang++ are not both installed");
    }
    prepare(&b);
    snprintf(abi_tests, sizeof(abi_tests), "%s/tests/abi", env_or_empty("PMIXPP_SOURCE_DIR"));
    b.abi_tests = abi_tests;

    compile_unit(&b, clang, "-std=gnu11", "macros_c_test.c", "macros_c_test.o");
    compile_unit(&b, clang, "-std=gnu11", "macros_cxx_test.c", "macros_cxx_test.o");
    compile_unit(&b, clangxx, "-std=gnu++20", "macros_cxx_sample.cc", "macros_cxx_sample.o");

    cr_assert_neq(asprintf(&program, "%s/abi_macros_clang", b.out_dir), -1);
    cr_assert_neq(asprintf(&c_obj, "%s/macros_c_test.o", b.out_dir), -1);
    cr_assert_neq(asprintf(&cxx_c_obj, "%s/macros_cxx_test.o", b.out_dir), -1);
    cr_assert_neq(asprintf(&cxx_obj, "%s/macros_cxx_sample.o", b.out_dir), -1);
    cr_assert_neq(asprintf(&libdir, "-L%s/lib", b.build_dir), -1);
    {
        char *const link[] = {(char *)clangxx,
                              c_obj,
                              cxx_c_obj,
                              cxx_obj,
                              "-o",
                              program,
                              libdir,
                              "-lpmix",
                              (char *)env_or_empty("PMIXPP_CRITERION_LIBRARY"),
                              NULL};
        run_or_fail(link, &b, "linking the clang-built macro test");
    }
    /* LD_LIBRARY_PATH from CTest points at our lib/, so this runs on our library. */
    {
        char *const run[] = {program, "--jobs=1", NULL};
        run_or_fail(run, &b, "the clang-built macro test");
    }
    free(libdir);
    free(cxx_obj);
    free(cxx_c_obj);
    free(c_obj);
    free(program);
}
