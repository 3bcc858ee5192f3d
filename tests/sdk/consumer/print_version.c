/* Prints the PMIx version string of whichever libpmix it runs against. */
#include <pmix.h>
#include <stdio.h>

int main(void)
{
    const char *version = PMIx_Get_version();
    if (version == NULL) {
        return 1;
    }
    printf("%s\n", version);
    return 0;
}
