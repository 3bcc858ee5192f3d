/* The ABI table printed by a program compiled against a set of headers must
 * equal the reference table of OpenPMIx 4.2.2, line for line, except line 1
 * (which names the version). Two variants: our headers, and Debian's OpenPMIx
 * headers (which proves that the printing program itself is right). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
    char **items;
    size_t count;
};

static void lines_push(struct lines *l, const char *text)
{
    l->items = realloc(l->items, (l->count + 1) * sizeof(char *));
    cr_assert_not_null(l->items);
    l->items[l->count++] = strdup(text);
}

static void lines_read(FILE *in, struct lines *l)
{
    char buf[4096];
    while (NULL != fgets(buf, sizeof(buf), in)) {
        buf[strcspn(buf, "\n")] = '\0';
        lines_push(l, buf);
    }
}

static void lines_free(struct lines *l)
{
    for (size_t i = 0; i < l->count; ++i) {
        free(l->items[i]);
    }
    free(l->items);
}

/* Number of differing lines after line 1; each difference is printed */
static size_t report_differences(const struct lines *want, const struct lines *got)
{
    size_t differences = 0;
    size_t n = want->count > got->count ? want->count : got->count;
    for (size_t i = 1; i < n; ++i) {
        const char *w = i < want->count ? want->items[i] : "<missing>";
        const char *g = i < got->count ? got->items[i] : "<missing>";
        if (0 != strcmp(w, g)) {
            if (differences < 100) {
                fprintf(stderr, "line %zu differs\n  reference: %s\n  printed:   %s\n", i + 1, w, g);
            }
            ++differences;
        }
    }
    return differences;
}

static void compare_with_reference(const char *printer)
{
    struct lines want = {0}, got = {0};
    FILE *ref = fopen(PMIXPP_ABI_REFERENCE, "r");
    cr_assert_not_null(ref, "cannot open %s", PMIXPP_ABI_REFERENCE);
    lines_read(ref, &want);
    fclose(ref);

    FILE *out = popen(printer, "r");
    cr_assert_not_null(out, "cannot run %s", printer);
    lines_read(out, &got);
    cr_assert_eq(pclose(out), 0, "%s failed", printer);

    cr_assert_gt(want.count, 1000, "reference table looks truncated");
    size_t differences = report_differences(&want, &got);
    cr_expect_eq(differences, 0, "%zu lines of the ABI table differ (printed by %s)", differences, printer);
    lines_free(&want);
    lines_free(&got);
}

Test(abi_table, our_headers_match_openpmix_4_2_2)
{
    compare_with_reference(PMIXPP_ABI_PRINTER_OURS);
}

Test(abi_table, openpmix_headers_reproduce_the_reference)
{
#ifdef PMIXPP_ABI_PRINTER_OPENPMIX
    compare_with_reference(PMIXPP_ABI_PRINTER_OPENPMIX);
#else
    cr_skip_test("Debian's OpenPMIx headers (libpmix-dev) are not installed");
#endif
}
