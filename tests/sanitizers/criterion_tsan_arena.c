/* Linked into the Criterion test programs of a TSan build only
 * (PMIXPP_SANITIZE=thread; tests/CMakeLists.txt), never into anything else.
 *
 * Criterion's sandbox (BoxFort) maps its shared arena at a random address
 * base + (rand_r() & 0x3fffff) * 16 MiB, base 0x2000'0000'0000, probing with
 * mincore and giving up after ten tries. TSan has reserved nearly all of
 * that range for its shadow and meta memory, so without help every test
 * program dies at start with "Could not initialize inheritable arena"
 * (Snaipe/Criterion#274). This rand_r, which the program's symbol
 * interposes for libcriterion's call, is glibc's algorithm with the result
 * folded into the window 0x5600'0000'0000 to 0x5680'0000'0000, which TSan
 * leaves to applications. BoxFort still probes each candidate, so a taken
 * slot is skipped as before. Nothing in pmixpp calls rand_r. Default
 * visibility: the tree builds with hidden, and only an exported symbol
 * interposes. */
#include <stdlib.h>

__attribute__((visibility("default"))) int rand_r(unsigned int *seed)
{
    unsigned int next = *seed;
    unsigned int result;
    next = next * 1103515245u + 12345u;
    result = (next / 65536u) % 2048u;
    next = next * 1103515245u + 12345u;
    result = (result << 10) ^ ((next / 65536u) % 1024u);
    next = next * 1103515245u + 12345u;
    result = (result << 10) ^ ((next / 65536u) % 1024u);
    *seed = next;
    /* (0x5600'0000'0000 - 0x2000'0000'0000) / 16 MiB = 0x360000; 0x8000 slots = 512 GiB */
    return (int)(0x360000u + (result & 0x7fffu));
}
