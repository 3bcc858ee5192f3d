/* One constant of the reference data, and what the headers under test say. */
#ifndef PMIXPP_TESTS_ABI_CONSTANTS_TABLE_H
#define PMIXPP_TESTS_ABI_CONSTANTS_TABLE_H

#include <stddef.h>

struct expected_constant {
    const char *name;
    const char *header;          /* header the reference defines it in */
    const char *expected_string; /* NULL for a number */
    long long expected_number;
    long long actual_number;
    const char *actual_string;
    int defined; /* 0: the headers do not define the name */
};

extern const struct expected_constant expected_constants[];
extern const size_t expected_constants_count;

#endif
