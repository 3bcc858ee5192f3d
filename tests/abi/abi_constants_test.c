/* Every constant of the reference data (4.2 constants and the newer
 * additions) is defined by our headers, with the reference value, in the
 * header the reference names. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constants_table.h"

static char *read_header(const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/include/%s", PMIXPP_INCLUDE_DIR_PARENT, name);
    FILE *f = fopen(path, "r");
    if (NULL == f) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc(1, (size_t)size + 1);
    if (NULL != text && 1 != fread(text, (size_t)size, 1, f)) {
        text[0] = '\0';
    }
    fclose(f);
    return text;
}

/* Is there a line "#define <name>" (followed by a blank) in text? */
static int defines(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(text, "#define "); NULL != at; at = strstr(at + 1, "#define ")) {
        const char *p = at + strlen("#define ");
        if (0 == strncmp(p, name, len) && (' ' == p[len] || '\t' == p[len])) {
            return 1;
        }
    }
    return 0;
}

static int check_value(const struct expected_constant *c)
{
    if (!c->defined) {
        fprintf(stderr, "%s: not defined\n", c->name);
        return 0;
    }
    if (NULL != c->expected_string) {
        if (0 == strcmp(c->expected_string, c->actual_string)) {
            return 1;
        }
        fprintf(stderr, "%s: \"%s\", reference \"%s\"\n", c->name, c->actual_string, c->expected_string);
        return 0;
    }
    if (c->expected_number == c->actual_number) {
        return 1;
    }
    fprintf(stderr, "%s: %lld, reference %lld\n", c->name, c->actual_number, c->expected_number);
    return 0;
}

Test(abi_constants, every_constant_has_the_reference_value)
{
    size_t bad = 0;
    cr_assert_gt(expected_constants_count, 1000);
    for (size_t i = 0; i < expected_constants_count; ++i) {
        bad += !check_value(&expected_constants[i]);
    }
    cr_expect_eq(bad, 0, "%zu of %zu constants are missing or differ", bad, expected_constants_count);
}

Test(abi_constants, every_constant_lives_in_the_reference_header)
{
    const char *headers[] = {"pmix_common.h", "pmix_deprecated.h", "pmix_version.h"};
    char *texts[3];
    for (int h = 0; h < 3; ++h) {
        texts[h] = read_header(headers[h]);
        cr_assert_not_null(texts[h], "cannot read include/%s", headers[h]);
    }
    size_t misplaced = 0;
    for (size_t i = 0; i < expected_constants_count; ++i) {
        const struct expected_constant *c = &expected_constants[i];
        int found = 0;
        for (int h = 0; h < 3; ++h) {
            if (0 == strcmp(headers[h], c->header)) {
                found = defines(texts[h], c->name);
            }
        }
        if (!found) {
            fprintf(stderr, "%s: not defined in %s\n", c->name, c->header);
            ++misplaced;
        }
    }
    for (int h = 0; h < 3; ++h) {
        free(texts[h]);
    }
    cr_expect_eq(misplaced, 0, "%zu constants are not in the header the reference names", misplaced);
}
