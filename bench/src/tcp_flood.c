/* Opens COUNT connections to the tcp URI written in FILE ("tcp4://a.b.c.d:port")
 * as fast as it can, says how many it opened, then holds them, silent, until
 * it is killed. Run as another user to play a careless or hostile neighbour
 * (bench/crowded_node.sh runs it as nobody).
 *
 *   tcp_flood FILE COUNT */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tcp_flood FILE COUNT\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    char uri[256] = {0};
    if (in == NULL || fgets(uri, sizeof uri, in) == NULL || strncmp(uri, "tcp4://", 7) != 0) {
        fprintf(stderr, "tcp_flood: no tcp4:// URI in %s\n", argv[1]);
        return 2;
    }
    fclose(in);
    char *colon = strrchr(uri + 7, ':');
    if (colon == NULL) return 2;
    *colon = '\0';
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)atoi(colon + 1));
    if (inet_pton(AF_INET, uri + 7, &address.sin_addr) != 1) return 2;
    const int count = atoi(argv[2]);
    int opened = 0;
    for (int i = 0; i < count; ++i) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) break;
        if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
            close(fd);
            continue;
        }
        ++opened;
    }
    printf("tcp_flood: %d of %d connections opened\n", opened, count);
    fflush(stdout);
    for (;;) pause();
}
