// Credentials made and checked by munged through libmunge. munged vouches
// for the uid/gid of the process that asked for the credential; it refuses a
// credential that was already decoded once (replay), that is too old, or that
// is not one of its own (forged or damaged).
#include "munge_psec.h"

#include <pmixpp/util.hpp>

#include <munge.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace pmixpp::psec::munge {
namespace {

// A munge credential is a few hundred bytes; anything far larger is not one.
constexpr size_t max_credential_size = 64 * 1024;

constinit std::atomic<const pmixpp_services_t *> remembered_services{nullptr};
constinit std::atomic<const pmixpp_component_t *> remembered_self{nullptr};
// Written at open, before any module call; read-only afterwards.
constinit char socket_path[256] = {};

class Context {
public:
    Context() : context_(munge_ctx_create())
    {
        if (context_ != nullptr && socket_path[0] != '\0') {
            munge_ctx_set(context_, MUNGE_OPT_SOCKET, socket_path);
        }
    }
    ~Context()
    {
        if (context_ != nullptr) munge_ctx_destroy(context_);
    }
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;

    munge_ctx_t get() const { return context_; }

    std::string socket() const
    {
        char *path = nullptr;
        if (context_ == nullptr || munge_ctx_get(context_, MUNGE_OPT_SOCKET, &path) != EMUNGE_SUCCESS ||
            path == nullptr) {
            return socket_path[0] != '\0' ? socket_path : "the default munge socket";
        }
        return path;
    }

    // A copy: the context owns its error text and any later munge_ctx_get()
    // (socket() included) frees it. Take the error before the socket.
    std::string error(munge_err_t rc) const
    {
        const char *text = context_ != nullptr ? munge_ctx_strerror(context_) : nullptr;
        return text != nullptr ? text : munge_strerror(rc);
    }

private:
    munge_ctx_t context_;
};

bool kernel_knows(const pmixpp_peer_identity_t *kernel)
{
    return kernel != nullptr && kernel->struct_size >= offsetof(pmixpp_peer_identity_t, gid) + sizeof(kernel->gid) &&
           kernel->known == 1;
}

// Status for a credential munged would not vouch for. A daemon that cannot
// be asked is the server's problem, reported as a warning, but the peer is
// still not authenticated.
pmix_status_t refuse(const Context &context, munge_err_t rc)
{
    const bool daemon_problem = rc == EMUNGE_SOCKET || rc == EMUNGE_TIMEOUT || rc == EMUNGE_SNAFU;
    log(daemon_problem ? PMIXPP_LOG_WARN : PMIXPP_LOG_TRACE, "credential refused: %s%s", context.error(rc).c_str(),
        daemon_problem ? " (is munged running?)" : "");
    return PMIX_ERR_INVALID_CRED;
}

}  // namespace

void remember(const sdk::Services &services, const pmixpp_component_t *self)
{
    remembered_services.store(services.raw());
    remembered_self.store(self);
    std::snprintf(socket_path, sizeof(socket_path), "%s", services.param_string("socket").c_str());
}

void forget()
{
    remembered_services.store(nullptr);
    remembered_self.store(nullptr);
}

void log(pmixpp_log_level_t level, const char *fmt, ...)
{
    const sdk::Services services(remembered_services.load(), remembered_self.load());
    if (services.raw() == nullptr) return;
    char line[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    services.log(level, "%s", line);
}

namespace {

// One connect() to munged's socket. libmunge retries a refused connection
// with back-off for over two seconds; a daemon that is not there at all
// (no socket, or nobody listening) is known at once this way.
bool socket_listens(const std::string &path, std::string *problem_p)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.empty() || path[0] != '/' || path.size() >= sizeof(address.sun_path)) return true;  // libmunge judges
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const util::UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd) return true;
    const bool listening = connect(fd.get(), reinterpret_cast<const sockaddr *>(&address), sizeof(address)) == 0;
    const int error = errno;
    if (!listening) *problem_p = path + " (" + std::strerror(error) + ")";
    return listening;
}

}  // namespace

bool daemon_reachable(std::string *problem_p)
{
    Context context;
    if (context.get() == nullptr) {
        *problem_p = "libmunge cannot create a context (out of memory)";
        return false;
    }
    if (!socket_listens(context.socket(), problem_p)) return false;
    char *credential = nullptr;
    const munge_err_t rc = munge_encode(&credential, context.get(), nullptr, 0);
    std::free(credential);
    if (rc == EMUNGE_SUCCESS) return true;
    const std::string why = context.error(rc);
    const std::string where = context.socket();
    *problem_p = where + " (" + why + ")";
    return false;
}

pmix_status_t create_credential(pmix_byte_object_t *cred_p)
{
    if (cred_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        Context context;
        if (context.get() == nullptr) return PMIX_ERR_NOMEM;
        char *credential = nullptr;
        const munge_err_t rc = munge_encode(&credential, context.get(), nullptr, 0);
        if (rc != EMUNGE_SUCCESS) {
            std::free(credential);
            const std::string why = context.error(rc);
            const std::string where = context.socket();
            log(PMIXPP_LOG_ERROR, "cannot get a credential from munged at %s: %s (is munged running?)", where.c_str(),
                why.c_str());
            return rc == EMUNGE_NO_MEMORY ? PMIX_ERR_NOMEM : PMIX_ERR_UNREACH;
        }
        const size_t size = std::strlen(credential);
        auto *bytes = static_cast<char *>(std::malloc(size));
        if (bytes == nullptr) {
            std::free(credential);
            return PMIX_ERR_NOMEM;
        }
        std::memcpy(bytes, credential, size);
        std::free(credential);
        cred_p->bytes = bytes;
        cred_p->size = size;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t validate_credential(const pmixpp_peer_identity_t *kernel, const pmix_byte_object_t *cred, uid_t *uid_p,
                                  gid_t *gid_p)
{
    if (uid_p == nullptr || gid_p == nullptr) return PMIX_ERR_BAD_PARAM;
    if (cred == nullptr || cred->bytes == nullptr || cred->size == 0 || cred->size > max_credential_size ||
        std::memchr(cred->bytes, '\0', cred->size) != nullptr) {
        return PMIX_ERR_INVALID_CRED;
    }
    try {
        // libmunge wants a C string; the byte object carries no terminator.
        const std::string text(cred->bytes, cred->size);
        Context context;
        if (context.get() == nullptr) return PMIX_ERR_NOMEM;
        void *payload = nullptr;
        int payload_length = 0;
        uid_t uid = 0;
        gid_t gid = 0;
        const munge_err_t rc = munge_decode(text.c_str(), context.get(), &payload, &payload_length, &uid, &gid);
        std::free(payload);
        if (rc != EMUNGE_SUCCESS) return refuse(context, rc);
        if (kernel_knows(kernel) && kernel->uid != uid) {
            log(PMIXPP_LOG_WARN, "credential of uid %u arrived over a connection the kernel says is uid %u; refused",
                static_cast<unsigned>(uid), static_cast<unsigned>(kernel->uid));
            return PMIX_ERR_INVALID_CRED;
        }
        *uid_p = uid;
        *gid_p = gid;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t validate_portable_credential(const pmix_byte_object_t *cred, uid_t *uid_p, gid_t *gid_p)
{
    return validate_credential(nullptr, cred, uid_p, gid_p);
}

}  // namespace pmixpp::psec::munge
