/*
 * PMIx_Get_credential / PMIx_Validate_credential as a client uses them.
 *
 *   --get FILE [--nb] [--type T]       writes the credential it got to FILE;
 *                                      with --nb also checks PMIX_CRED_TYPE == T
 *   --validate FILE --expect STATUS [--nb] [--type T]
 *                                      validates FILE's bytes, expects STATUS (a
 *                                      number); on success PMIX_CRED_TYPE == T and,
 *                                      for psec types, our own uid/gid
 *   --bad                              NULL, empty and garbage credentials are
 *                                      refused, then a fresh credential of ours
 *                                      still validates
 *
 *   --become-nobody                    first drops to uid/gid 65534 (root only)
 *
 * Prints "validated type=T uid=U gid=G for=F" after a successful validation.
 */
#include "client_util.h"

#include <errno.h>
#include <grp.h>
#include <pthread.h>

#define NOBODY 65534

struct Wait {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int done;
    pmix_status_t status;
    pmix_byte_object_t credential;
    pmix_info_t *info;
    size_t ninfo;
};

static void wait_init(struct Wait *w)
{
    memset(w, 0, sizeof(*w));
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->changed, NULL);
}

static void wait_copy_info(struct Wait *w, pmix_info_t info[], size_t ninfo)
{
    if (info == NULL || ninfo == 0) return;
    PMIX_INFO_CREATE(w->info, ninfo);
    w->ninfo = ninfo;
    for (size_t i = 0; i < ninfo; ++i) PMIX_INFO_XFER(&w->info[i], &info[i]);
}

static void wait_signal(struct Wait *w)
{
    pthread_mutex_lock(&w->lock);
    w->done = 1;
    pthread_cond_signal(&w->changed);
    pthread_mutex_unlock(&w->lock);
}

static int wait_done(struct Wait *w)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += ITC_TIMEOUT_S;
    pthread_mutex_lock(&w->lock);
    while (!w->done) {
        if (pthread_cond_timedwait(&w->changed, &w->lock, &deadline) != 0) break;
    }
    const int done = w->done;
    pthread_mutex_unlock(&w->lock);
    return done;
}

static void got_credential(pmix_status_t status, pmix_byte_object_t *credential, pmix_info_t info[], size_t ninfo,
                           void *cbdata)
{
    struct Wait *w = cbdata;
    w->status = status;
    if (credential != NULL && credential->size > 0) {
        w->credential.bytes = malloc(credential->size);
        memcpy(w->credential.bytes, credential->bytes, credential->size);
        w->credential.size = credential->size;
    }
    wait_copy_info(w, info, ninfo);
    wait_signal(w);
}

static void got_validation(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    struct Wait *w = cbdata;
    w->status = status;
    wait_copy_info(w, info, ninfo);
    wait_signal(w);
}

static const pmix_value_t *find(const pmix_info_t *info, size_t ninfo, const char *key)
{
    for (size_t i = 0; info != NULL && i < ninfo; ++i) {
        if (PMIX_CHECK_KEY(&info[i], key)) return &info[i].value;
    }
    return NULL;
}

static const char *string_of(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_value_t *value = find(info, ninfo, key);
    return value != NULL && value->type == PMIX_STRING ? value->data.string : "";
}

static long u32_of(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_value_t *value = find(info, ninfo, key);
    return value != NULL && value->type == PMIX_UINT32 ? (long)value->data.uint32 : -1;
}

static pmix_status_t get_credential(int nb, const char *type, pmix_byte_object_t *credential)
{
    if (!nb) return PMIx_Get_credential(NULL, 0, credential);
    struct Wait w;
    wait_init(&w);
    pmix_status_t rc = PMIx_Get_credential_nb(NULL, 0, got_credential, &w);
    if (rc != PMIX_SUCCESS) return rc;
    ITC_CHECK(wait_done(&w), "PMIx_Get_credential_nb never called back");
    *credential = w.credential;
    const char *got = string_of(w.info, w.ninfo, PMIX_CRED_TYPE);
    ITC_CHECK(type == NULL || strcmp(got, type) == 0, "PMIX_CRED_TYPE '%s', expected '%s'", got, type);
    if (w.info != NULL) PMIX_INFO_FREE(w.info, w.ninfo);
    return w.status;
}

/* The status of the validation; results in *info_p (caller frees). */
static pmix_status_t validate(int nb, const pmix_byte_object_t *credential, pmix_info_t **info_p, size_t *ninfo_p)
{
    *info_p = NULL;
    *ninfo_p = 0;
    if (!nb) return PMIx_Validate_credential(credential, NULL, 0, info_p, ninfo_p);
    struct Wait w;
    wait_init(&w);
    pmix_status_t rc = PMIx_Validate_credential_nb(credential, NULL, 0, got_validation, &w);
    if (rc != PMIX_SUCCESS) return rc;
    ITC_CHECK(wait_done(&w), "PMIx_Validate_credential_nb never called back");
    *info_p = w.info;
    *ninfo_p = w.ninfo;
    return w.status;
}

static int write_file(const char *path, const pmix_byte_object_t *credential)
{
    FILE *out = fopen(path, "wb");
    if (out == NULL) return -1;
    const size_t written = fwrite(credential->bytes, 1, credential->size, out);
    return fclose(out) == 0 && written == credential->size ? 0 : -1;
}

static int read_file(const char *path, pmix_byte_object_t *credential)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL) return -1;
    char buffer[70000];
    const size_t size = fread(buffer, 1, sizeof(buffer), in);
    fclose(in);
    credential->bytes = malloc(size > 0 ? size : 1);
    memcpy(credential->bytes, buffer, size);
    credential->size = size;
    return 0;
}

static void do_get(const char *path, int nb, const char *type)
{
    pmix_byte_object_t credential = {NULL, 0};
    pmix_status_t rc = get_credential(nb, type, &credential);
    ITC_CHECK(rc == PMIX_SUCCESS, "get credential: %s", itc_err(rc));
    ITC_CHECK(credential.size > 0, "got an empty credential");
    ITC_CHECK(write_file(path, &credential) == 0, "cannot write %s", path);
    printf("rank %u credential of %zu bytes\n", itc_me.rank, credential.size);
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
}

static void check_results(const pmix_info_t *info, size_t ninfo, const char *type)
{
    const char *got = string_of(info, ninfo, PMIX_CRED_TYPE);
    const long uid = u32_of(info, ninfo, PMIX_USERID);
    const long gid = u32_of(info, ninfo, PMIX_GRPID);
    printf("rank %u validated type=%s uid=%ld gid=%ld for=%s\n", itc_me.rank, got, uid, gid,
           string_of(info, ninfo, "itest.validated.for"));
    ITC_CHECK(type == NULL || strcmp(got, type) == 0, "PMIX_CRED_TYPE '%s', expected '%s'", got, type);
    ITC_CHECK(uid == (long)geteuid() && gid == (long)getegid(), "PMIX_USERID %ld PMIX_GRPID %ld, we are %u/%u", uid,
              gid, (unsigned)geteuid(), (unsigned)getegid());
}

static void do_validate(const char *path, int nb, long expected, const char *type)
{
    pmix_byte_object_t credential = {NULL, 0};
    if (read_file(path, &credential) != 0) {
        ITC_CHECK(0, "cannot read %s", path);
        return;
    }
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    pmix_status_t rc = validate(nb, &credential, &info, &ninfo);
    printf("rank %u validation status %d (%s)\n", itc_me.rank, rc, itc_err(rc));
    ITC_CHECK(rc == expected, "validate %s: %s, expected %s", path, itc_err(rc), itc_err((pmix_status_t)expected));
    if (rc == PMIX_SUCCESS) check_results(info, ninfo, type);
    if (info != NULL) PMIX_INFO_FREE(info, ninfo);
    PMIX_BYTE_OBJECT_DESTRUCT(&credential);
}

static void do_bad(void)
{
    pmix_info_t *info = NULL;
    size_t ninfo = 99;
    pmix_status_t rc = PMIx_Validate_credential(NULL, NULL, 0, &info, &ninfo);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "NULL credential: %s", itc_err(rc));
    ITC_CHECK(info == NULL && ninfo == 0, "NULL credential left results");
    pmix_byte_object_t empty = {NULL, 0};
    rc = PMIx_Validate_credential(&empty, NULL, 0, &info, &ninfo);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "empty credential: %s", itc_err(rc));
    rc = PMIx_Validate_credential_nb(&empty, NULL, 0, got_validation, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "empty credential (nb): %s", itc_err(rc));
    rc = PMIx_Get_credential(NULL, 0, NULL);
    ITC_CHECK(rc == PMIX_ERR_BAD_PARAM, "get into NULL: %s", itc_err(rc));

    char junk[] = "this is not a credential of any kind";
    pmix_byte_object_t garbage = {junk, sizeof(junk) - 1};
    for (int nb = 0; nb <= 1; ++nb) {
        rc = validate(nb, &garbage, &info, &ninfo);
        ITC_CHECK(rc == PMIX_ERR_INVALID_CRED, "garbage (nb=%d): %s", nb, itc_err(rc));
        if (info != NULL) PMIX_INFO_FREE(info, ninfo);
    }
    /* Still served: a credential of ours passes. */
    pmix_byte_object_t mine = {NULL, 0};
    rc = PMIx_Get_credential(NULL, 0, &mine);
    ITC_CHECK(rc == PMIX_SUCCESS, "get after the refusals: %s", itc_err(rc));
    rc = validate(0, &mine, &info, &ninfo);
    ITC_CHECK(rc == PMIX_SUCCESS, "validate after the refusals: %s", itc_err(rc));
    if (info != NULL) PMIX_INFO_FREE(info, ninfo);
    PMIX_BYTE_OBJECT_DESTRUCT(&mine);
}

int main(int argc, char **argv)
{
    itc_start();
    if (itc_has_flag(argc, argv, "--become-nobody") &&
        (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0)) {
        printf("cannot become uid/gid %d: %s\n", NOBODY, strerror(errno));
        return 5;
    }
    pmix_byte_object_t early = {NULL, 0};
    pmix_status_t rc = PMIx_Get_credential(NULL, 0, &early);
    ITC_CHECK(rc == PMIX_ERR_INIT, "get before PMIx_Init: %s", itc_err(rc));
    char junk[] = "x";
    pmix_byte_object_t some = {junk, 1};
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    rc = PMIx_Validate_credential(&some, NULL, 0, &info, &ninfo);
    ITC_CHECK(rc == PMIX_ERR_INIT, "validate before PMIx_Init: %s", itc_err(rc));

    rc = PMIx_Init(&itc_me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("rank ? FAIL: PMIx_Init: %s\n", itc_err(rc));
        return 1;
    }
    const int nb = itc_has_flag(argc, argv, "--nb");
    const char *type = itc_arg(argc, argv, "--type");
    const char *get_path = itc_arg(argc, argv, "--get");
    const char *validate_path = itc_arg(argc, argv, "--validate");
    if (get_path != NULL) do_get(get_path, nb, type);
    if (validate_path != NULL) {
        do_validate(validate_path, nb, itc_arg_long(argc, argv, "--expect", PMIX_SUCCESS), type);
    }
    if (itc_has_flag(argc, argv, "--bad")) do_bad();
    rc = PMIx_Finalize(NULL, 0);
    ITC_CHECK(rc == PMIX_SUCCESS, "PMIx_Finalize: %s", itc_err(rc));
    return itc_finish();
}
