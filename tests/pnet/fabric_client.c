/* A client of the pnet_fabric test: registers, updates and deregisters
 * fabrics through its server and checks every answer. argv[1] says what the
 * server can answer:
 *   simfabric  pnet/simfabric describes "simfab0"
 *   host       the test host's fabric upcall describes "hostfab"
 *   none       nobody: PMIX_ERR_NOT_AVAILABLE
 *   leave      simfabric; registers twice and finalizes without deregistering
 * Prints one line per step and "ok <mode>" at the end (exit 0), or
 * "FAIL: <what>" (exit 1). */
#include <pmix.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

static pmix_proc_t me;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAIL: " __VA_ARGS__);                                                                              \
            printf("\n");                                                                                              \
            fflush(stdout);                                                                                            \
            PMIx_Finalize(NULL, 0);                                                                                    \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

static const pmix_info_t *find(const pmix_fabric_t *f, const char *key)
{
    for (size_t i = 0; i < f->ninfo; ++i) {
        if (PMIX_CHECK_KEY(&f->info[i], key)) return &f->info[i];
    }
    return NULL;
}

static const char *text(const pmix_fabric_t *f, const char *key)
{
    const pmix_info_t *i = find(f, key);
    return i != NULL && i->value.type == PMIX_STRING ? i->value.data.string : "";
}

static uint32_t u32(const pmix_fabric_t *f, const char *key)
{
    const pmix_info_t *i = find(f, key);
    return i != NULL && i->value.type == PMIX_UINT32 ? i->value.data.uint32 : 9999;
}

/* Waiting for an _nb callback. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
} waiter_t;

static void op_done(pmix_status_t status, void *cbdata)
{
    waiter_t *w = cbdata;
    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done = true;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

static pmix_status_t wait_for(waiter_t *w)
{
    pthread_mutex_lock(&w->lock);
    while (!w->done) pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    return w->status;
}

#define WAITER_INIT                                                                                                    \
    {                                                                                                                  \
        PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, PMIX_ERROR                                         \
    }

static void bad_params(void)
{
    CHECK(PMIx_Fabric_register(NULL, NULL, 0) == PMIX_ERR_BAD_PARAM, "register(NULL)");
    CHECK(PMIx_Fabric_register_nb(NULL, NULL, 0, op_done, NULL) == PMIX_ERR_BAD_PARAM, "register_nb(NULL)");
    pmix_fabric_t f;
    PMIX_FABRIC_CONSTRUCT(&f);
    CHECK(PMIx_Fabric_register(&f, NULL, 2) == PMIX_ERR_BAD_PARAM, "register with 2 NULL directives");
    CHECK(PMIx_Fabric_update(NULL) == PMIX_ERR_BAD_PARAM, "update(NULL)");
    CHECK(PMIx_Fabric_update_nb(NULL, op_done, NULL) == PMIX_ERR_BAD_PARAM, "update_nb(NULL)");
    CHECK(PMIx_Fabric_deregister(NULL) == PMIX_ERR_BAD_PARAM, "deregister(NULL)");
    CHECK(PMIx_Fabric_deregister_nb(NULL, op_done, NULL) == PMIX_ERR_BAD_PARAM, "deregister_nb(NULL)");
    /* Never registered: the server holds nothing under index 0. */
    CHECK(PMIx_Fabric_update(&f) == PMIX_ERR_NOT_FOUND, "update of an unregistered fabric");
    printf("bad params refused\n");
}

static void simfabric(void)
{
    pmix_fabric_t first, second;
    PMIX_FABRIC_CONSTRUCT(&first);
    PMIX_FABRIC_CONSTRUCT(&second);
    pmix_status_t rc = PMIx_Fabric_register(&first, NULL, 0);
    CHECK(rc == PMIX_SUCCESS, "register: %s", PMIx_Error_string(rc));
    CHECK(first.name != NULL && strcmp(first.name, "simfab0") == 0, "name %s", first.name ? first.name : "(null)");
    CHECK(first.index != 0, "index 0");
    const pmix_info_t *index = find(&first, PMIX_FABRIC_INDEX);
    CHECK(index != NULL && index->value.type == PMIX_SIZE && index->value.data.size == first.index,
          "PMIX_FABRIC_INDEX is not the fabric's index");
    CHECK(strcmp(text(&first, PMIX_FABRIC_VENDOR), "pmixpp simulated fabric") == 0, "vendor");
    CHECK(strcmp(text(&first, PMIX_FABRIC_IDENTIFIER), "simfab0") == 0, "identifier");
    CHECK(strcmp(text(&first, PMIX_FABRIC_PLANE), "simplane0") == 0, "plane");
    CHECK(u32(&first, PMIX_FABRIC_DIMS) == 1, "dims");
    const pmix_info_t *ndev = find(&first, PMIX_FABRIC_NUM_DEVICES);
    CHECK(ndev != NULL && ndev->value.type == PMIX_SIZE && ndev->value.data.size == 1, "num devices");
    const pmix_info_t *devices = find(&first, PMIX_FABRIC_DEVICES);
    CHECK(devices != NULL && devices->value.type == PMIX_DATA_ARRAY && devices->value.data.darray->size == 1,
          "devices");
    const pmix_info_t *device = devices->value.data.darray->array;
    CHECK(PMIX_CHECK_KEY(device, PMIX_FABRIC_DEVICE) && device->value.type == PMIX_DATA_ARRAY, "device entry");
    const pmix_info_t *fields = device->value.data.darray->array;
    bool named = false, placed = false;
    for (size_t i = 0; i < device->value.data.darray->size; ++i) {
        if (PMIX_CHECK_KEY(&fields[i], PMIX_FABRIC_DEVICE_NAME))
            named = strcmp(fields[i].value.data.string, "simnic0") == 0;
        if (PMIX_CHECK_KEY(&fields[i], PMIX_FABRIC_DEVICE_COORDINATES)) {
            placed = fields[i].value.type == PMIX_GEOMETRY && fields[i].value.data.geometry->ncoords == 1 &&
                     fields[i].value.data.geometry->coordinates[0].dims == 1;
        }
    }
    CHECK(named && placed, "the device is not simnic0 at one coordinate");
    CHECK(u32(&first, "pmixpp.simfab.registrations") == 1, "registrations %u",
          u32(&first, "pmixpp.simfab.registrations"));
    printf("register %s index %zu ninfo %zu\n", first.name, first.index, first.ninfo);

    waiter_t w = WAITER_INIT;
    rc = PMIx_Fabric_register_nb(&second, NULL, 0, op_done, &w);
    CHECK(rc == PMIX_SUCCESS, "register_nb: %s", PMIx_Error_string(rc));
    CHECK(wait_for(&w) == PMIX_SUCCESS, "register_nb callback");
    CHECK(second.index != 0 && second.index != first.index, "a second registration has its own index");

    rc = PMIx_Fabric_update(&first);
    CHECK(rc == PMIX_SUCCESS, "update: %s", PMIx_Error_string(rc));
    CHECK(u32(&first, "pmixpp.simfab.registrations") == 2, "after two registrations the component holds %u",
          u32(&first, "pmixpp.simfab.registrations"));
    waiter_t d = WAITER_INIT;
    CHECK(PMIx_Fabric_deregister_nb(&second, op_done, &d) == PMIX_SUCCESS, "deregister_nb");
    CHECK(wait_for(&d) == PMIX_SUCCESS, "deregister_nb callback");
    CHECK(second.info == NULL && second.ninfo == 0 && second.name == NULL, "deregister released nothing");
    waiter_t u = WAITER_INIT;
    CHECK(PMIx_Fabric_update_nb(&first, op_done, &u) == PMIX_SUCCESS, "update_nb");
    CHECK(wait_for(&u) == PMIX_SUCCESS, "update_nb callback");
    CHECK(u32(&first, "pmixpp.simfab.registrations") == 1, "the component was not told of the deregistration");
    printf("update after deregister: registrations 1\n");

    /* Somebody else's registration is not ours to update. */
    pmix_fabric_t stolen = second;
    stolen.index = first.index + 1000;
    CHECK(PMIx_Fabric_update(&stolen) == PMIX_ERR_NOT_FOUND, "update of an unknown index");

    pmix_info_t other;
    PMIX_INFO_LOAD(&other, PMIX_FABRIC_IDENTIFIER, "not-simfab", PMIX_STRING);
    pmix_fabric_t missing;
    PMIX_FABRIC_CONSTRUCT(&missing);
    rc = PMIx_Fabric_register(&missing, &other, 1);
    CHECK(rc == PMIX_ERR_NOT_AVAILABLE, "a fabric nobody knows: %s", PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&other);

    CHECK(PMIx_Fabric_deregister(&first) == PMIX_SUCCESS, "deregister");
    CHECK(first.info == NULL && first.name == NULL, "deregister released nothing");
    CHECK(PMIx_Fabric_update(&first) == PMIX_ERR_NOT_FOUND, "update after deregister");
    printf("deregistered\n");
}

static void host(void)
{
    pmix_fabric_t f;
    PMIX_FABRIC_CONSTRUCT(&f);
    pmix_info_t plane;
    PMIX_INFO_LOAD(&plane, PMIX_FABRIC_PLANE, "hostplane", PMIX_STRING);
    pmix_status_t rc = PMIx_Fabric_register(&f, &plane, 1);
    PMIX_INFO_DESTRUCT(&plane);
    CHECK(rc == PMIX_SUCCESS, "register: %s", PMIx_Error_string(rc));
    CHECK(f.name != NULL && strcmp(f.name, "hostfab") == 0, "name %s", f.name ? f.name : "(null)");
    CHECK(strcmp(text(&f, PMIX_FABRIC_VENDOR), "test host") == 0, "vendor");
    /* The host asked in this process's name, and saw the directive. */
    char expected[PMIX_MAX_NSLEN + 32];
    snprintf(expected, sizeof expected, "%s.%u", me.nspace, me.rank);
    CHECK(strcmp(text(&f, "test.requestor"), expected) == 0, "requestor %s", text(&f, "test.requestor"));
    CHECK(strcmp(text(&f, "test.plane"), "hostplane") == 0, "the directive did not reach the host");
    const pmix_info_t *index = find(&f, PMIX_FABRIC_INDEX);
    CHECK(index != NULL && index->value.data.size == f.index, "PMIX_FABRIC_INDEX");
    printf("register %s index %zu\n", f.name, f.index);
    rc = PMIx_Fabric_update(&f);
    CHECK(rc == PMIX_SUCCESS, "update: %s", PMIx_Error_string(rc));
    CHECK(strcmp(text(&f, "test.updated"), "yes") == 0, "the host's update did not arrive");
    CHECK(strcmp(f.name, "hostfab") == 0, "name after update");
    printf("updated\n");
    CHECK(PMIx_Fabric_deregister(&f) == PMIX_SUCCESS, "deregister");
    CHECK(f.info == NULL && f.name == NULL, "deregister released nothing");
    printf("deregistered\n");
}

static void none(void)
{
    pmix_fabric_t f;
    PMIX_FABRIC_CONSTRUCT(&f);
    pmix_status_t rc = PMIx_Fabric_register(&f, NULL, 0);
    CHECK(rc == PMIX_ERR_NOT_AVAILABLE, "register: %s", PMIx_Error_string(rc));
    CHECK(f.info == NULL && f.name == NULL && f.index == 0, "a refused registration filled the fabric");
    waiter_t w = WAITER_INIT;
    CHECK(PMIx_Fabric_register_nb(&f, NULL, 0, op_done, &w) == PMIX_SUCCESS, "register_nb");
    CHECK(wait_for(&w) == PMIX_ERR_NOT_AVAILABLE, "register_nb callback");
    printf("not available\n");
}

static void leave(void)
{
    pmix_fabric_t a, b;
    PMIX_FABRIC_CONSTRUCT(&a);
    PMIX_FABRIC_CONSTRUCT(&b);
    CHECK(PMIx_Fabric_register(&a, NULL, 0) == PMIX_SUCCESS, "register");
    CHECK(PMIx_Fabric_register(&b, NULL, 0) == PMIX_SUCCESS, "register again");
    CHECK(u32(&b, "pmixpp.simfab.registrations") == 2, "registrations %u", u32(&b, "pmixpp.simfab.registrations"));
    printf("leaving with two registrations\n");
    /* The server is not told (that is the test); our copies go, so that
     * LeakSanitizer sees no leak of this program's own. */
    pmix_fabric_t *held[] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
        PMIX_INFO_FREE(held[i]->info, held[i]->ninfo);
        free(held[i]->name);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    pmix_fabric_t f;
    PMIX_FABRIC_CONSTRUCT(&f);
    CHECK(PMIx_Fabric_register(&f, NULL, 0) == PMIX_ERR_INIT, "register before PMIx_Init");
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    bad_params();
    if (strcmp(mode, "simfabric") == 0) {
        simfabric();
    } else if (strcmp(mode, "host") == 0) {
        host();
    } else if (strcmp(mode, "none") == 0) {
        none();
    } else if (strcmp(mode, "leave") == 0) {
        leave();
    } else {
        CHECK(false, "unknown mode %s", mode);
    }
    printf("ok %s\n", mode);
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return 0;
}
