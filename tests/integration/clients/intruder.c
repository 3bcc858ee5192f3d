/*
 * intruder: processes the server must refuse.
 *
 *   intruder init [--become-nobody]
 *       PMIx_Init with whatever identity the environment claims (the host
 *       edits PMIX_RANK / PMIX_NAMESPACE), optionally after dropping to uid
 *       and gid 65534. Prints "init returned <status>" and exits 0 when
 *       refused, 3 when it was (wrongly) accepted.
 *   intruder junk | half | huge
 *       Connects a raw socket to the first URI in PMIXPP_SERVER_URIS and writes
 *       garbage, half a frame header (then ends its side), or a header
 *       announcing a 4 GiB payload. Exits 0 when the server closes the
 *       connection, 4 when it does not within the time limit.
 *   intruder silent | half-silent DIR SECONDS
 *       Connects and sends nothing, or half a frame header and then nothing
 *       (its side stays open), creates DIR/connected.<mode>, and waits up to
 *       SECONDS for the server to close the connection (exit 0; 4 if not).
 */
#include "client_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#define NOBODY 65534

static int become_nobody(void)
{
    if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0) {
        printf("cannot become uid/gid %d: %s\n", NOBODY, strerror(errno));
        return -1;
    }
    return 0;
}

static int try_init(int argc, char **argv)
{
    if (itc_has_flag(argc, argv, "--become-nobody") && become_nobody() != 0) return 5;
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    printf("init returned %d %s\n", rc, itc_err(rc));
    if (rc != PMIX_SUCCESS) return 0;
    PMIx_Finalize(NULL, 0);
    return 3;
}

/* ---- raw connections ------------------------------------------------------ */

static int connect_unix(const char *name, int abstract)
{
    struct sockaddr_un address;
    memset(&address, 0, sizeof(address));
    address.sun_family = AF_UNIX;
    size_t length = strlen(name);
    if (length + 2 > sizeof(address.sun_path)) return -1;
    memcpy(address.sun_path + (abstract ? 1 : 0), name, length);
    socklen_t size =
        abstract ? (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + length) : (socklen_t)sizeof(address);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&address, size) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

static int connect_inet(int family, const char *host, unsigned port)
{
    struct sockaddr_storage storage;
    socklen_t size;
    memset(&storage, 0, sizeof(storage));
    if (family == AF_INET) {
        struct sockaddr_in *in = (struct sockaddr_in *)&storage;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, host, &in->sin_addr) != 1) return -1;
        size = sizeof(*in);
    } else {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&storage;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1) return -1;
        size = sizeof(*in6);
    }
    int fd = socket(family, SOCK_STREAM, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&storage, size) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* "usock:/path", "usock:@name", "tcp4://a.b.c.d:port", "tcp6://[addr]:port". */
static int connect_uri(const char *uri)
{
    char host[256];
    unsigned port = 0;
    if (strncmp(uri, "usock:", 6) == 0) {
        const char *name = uri + 6;
        return name[0] == '@' ? connect_unix(name + 1, 1) : connect_unix(name, 0);
    }
    if (sscanf(uri, "tcp4://%255[^:]:%u", host, &port) == 2) return connect_inet(AF_INET, host, port);
    if (sscanf(uri, "tcp6://[%255[^]]]:%u", host, &port) == 2) return connect_inet(AF_INET6, host, port);
    return -1;
}

/* The server's first URI of ours (PMIXPP_SERVER_URIS, ';'-separated, best
 * first), the one our clients use. */
static const char *server_uri(void)
{
    static char first[512];
    const char *value = getenv("PMIXPP_SERVER_URIS");
    if (value == NULL) return NULL;
    snprintf(first, sizeof first, "%s", value);
    first[strcspn(first, ";")] = '\0';
    return first[0] != '\0' ? first : NULL;
}

static void put_u32(uint8_t *at, uint32_t value)
{
    for (int i = 0; i < 4; ++i) at[i] = (uint8_t)(value >> (8 * i));
}

/* A little-endian frame header: "PMXP", version 1, kind, tag 0, length. */
static void make_header(uint8_t header[16], uint16_t kind, uint32_t length)
{
    memcpy(header, "PMXP", 4);
    header[4] = 1;
    header[5] = 0;
    header[6] = (uint8_t)kind;
    header[7] = (uint8_t)(kind >> 8);
    put_u32(header + 8, 0);
    put_u32(header + 12, length);
}

/* Reads until the server closes (0) or the deadline passes (-1). */
static int wait_for_close(int fd, int timeout_ms)
{
    char sink[4096];
    for (int waited = 0; waited < timeout_ms; waited += 100) {
        struct pollfd item = {fd, POLLIN, 0};
        int ready = poll(&item, 1, 100);
        if (ready < 0 && errno != EINTR) return 0;
        if (ready <= 0) continue;
        ssize_t got = read(fd, sink, sizeof(sink));
        if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) return 0;
    }
    return -1;
}

static int attack(const char *mode)
{
    const char *uri = server_uri();
    if (uri == NULL) {
        printf("no PMIXPP_SERVER_URIS in the environment\n");
        return 6;
    }
    int fd = connect_uri(uri);
    if (fd < 0) {
        printf("cannot connect to %s: %s\n", uri, strerror(errno));
        return 6;
    }
    uint8_t bytes[256];
    size_t size = 0;
    if (strcmp(mode, "junk") == 0) {
        for (size = 0; size < sizeof(bytes); ++size) bytes[size] = (uint8_t)(size * 37u + 11u);
    } else if (strcmp(mode, "half") == 0) {
        make_header(bytes, 1, 64);
        size = 8;
    } else {
        make_header(bytes, 1, UINT32_MAX);
        memset(bytes + 16, 0x5a, 64);
        size = 16 + 64;
    }
    signal(SIGPIPE, SIG_IGN);
    ssize_t written = write(fd, bytes, size);
    printf("%s: wrote %zd of %zu bytes to %s\n", mode, written, size, uri);
    if (strcmp(mode, "half") == 0) shutdown(fd, SHUT_WR);
    int closed = wait_for_close(fd, ITC_TIMEOUT_S * 1000) == 0;
    close(fd);
    printf("%s: %s\n", mode, closed ? "closed by the server" : "still open after the time limit");
    return closed ? 0 : 4;
}

static int stay_silent(const char *mode, const char *dir, long seconds)
{
    const char *uri = server_uri();
    int fd = uri != NULL ? connect_uri(uri) : -1;
    if (fd < 0) {
        printf("%s: cannot connect to %s: %s\n", mode, uri != NULL ? uri : "(no URI)", strerror(errno));
        return 6;
    }
    signal(SIGPIPE, SIG_IGN);
    if (strcmp(mode, "half-silent") == 0) {
        uint8_t header[16];
        make_header(header, 1, 64);
        ssize_t written = write(fd, header, 8);
        printf("%s: wrote %zd of 16 header bytes\n", mode, written);
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/connected.%s", dir, mode);
    FILE *flag = fopen(path, "w");
    if (flag != NULL) fclose(flag);
    printf("%s: connected to %s, now silent\n", mode, uri);
    int closed = wait_for_close(fd, (int)(seconds * 1000)) == 0;
    close(fd);
    printf("%s: %s\n", mode, closed ? "closed by the server" : "still open after the time limit");
    return closed ? 0 : 4;
}

int main(int argc, char **argv)
{
    itc_start();
    if (argc < 2) {
        printf("usage: intruder init [--become-nobody] | junk | half | huge | silent DIR S | half-silent DIR S\n");
        return 64;
    }
    if (strcmp(argv[1], "init") == 0) return try_init(argc, argv);
    if ((strcmp(argv[1], "silent") == 0 || strcmp(argv[1], "half-silent") == 0) && argc > 3) {
        return stay_silent(argv[1], argv[2], strtol(argv[3], NULL, 10));
    }
    if (strcmp(argv[1], "junk") == 0 || strcmp(argv[1], "half") == 0 || strcmp(argv[1], "huge") == 0) {
        return attack(argv[1]);
    }
    printf("unknown mode %s\n", argv[1]);
    return 64;
}
