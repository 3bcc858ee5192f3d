/* Loads libpmix.so.2 from the path it is given, the way Slurm's plugin
 * does (dlopen of an absolute path), and starts and stops a server with it.
 * Exit 0 when PMIx_server_init succeeded; its status on stdout either way.
 * Used by relocated_library_test.cc. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*server_init_fn)(void *module, void *info, size_t ninfo);
typedef int (*server_finalize_fn)(void);

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: relocated_probe /path/to/libpmix.so.2\n");
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "relocated_probe: %s\n", dlerror());
        return 2;
    }
    server_init_fn server_init = (server_init_fn)dlsym(library, "PMIx_server_init");
    server_finalize_fn server_finalize = (server_finalize_fn)dlsym(library, "PMIx_server_finalize");
    if (server_init == NULL || server_finalize == NULL) {
        fprintf(stderr, "relocated_probe: no PMIx_server_init/finalize in %s\n", argv[1]);
        return 2;
    }
    const int rc = server_init(NULL, NULL, 0);
    printf("PMIx_server_init: %d\n", rc);
    if (rc == 0) server_finalize();
    return rc == 0 ? 0 : 1;
}
