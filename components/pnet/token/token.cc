// pnet/token: at setup_application, a fresh random token for the job from
// the kernel's CSPRNG (getrandom), as a PMIX_SET_ENVAR entry: every process of
// the job finds it in its environment, no two jobs share one. The token is
// never logged and never stored as job data (the server keeps envar
// directives apart from the job data it may write to disk), and the buffers
// that held it are wiped.
//
// Parameters: PMIX_MCA_pnet_token_envar (name, default PMIXPP_JOB_TOKEN),
// PMIX_MCA_pnet_token_bytes (random bytes, 16..1024, default 32; the value is
// their hex form, twice as long).
//
// Why not OpenSSL's RAND_bytes (used here before): loading libcrypto made
// up half of every PMIx_server_init (about 2 ms of 4, measured with
// PMIX_MCA_pnet=^token), for 32 bytes per job that the kernel's generator,
// which OpenSSL seeds itself from, gives as well.
#include <pmixpp/component.hpp>
#include <pmixpp/pnet.h>

#include <sys/random.h>

#include <cerrno>
#include <cstring>

#include <pmix.h>

#include <string>
#include <vector>

namespace {

constexpr long long kMinBytes = 16;
constexpr long long kMaxBytes = 1024;
constexpr long long kDefaultBytes = 32;

// Read at open; hooks run between open and close.
std::string envar_name;
std::size_t token_bytes = kDefaultBytes;

bool valid_name(const std::string &name)
{
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return false;
    }
    return true;
}

// Blocks only until the kernel's pool was first seeded (early boot).
bool fill_random(std::vector<unsigned char> &bytes)
{
    std::size_t filled = 0;
    while (filled < bytes.size()) {
        const ssize_t got = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        filled += static_cast<std::size_t>(got);
    }
    return true;
}

pmix_status_t setup_application(const char *, const pmix_info_t[], size_t, void *ilist, pmixpp_pnet_done_fn, void *)
{
    if (ilist == nullptr) return PMIX_ERR_BAD_PARAM;
    std::vector<unsigned char> random(token_bytes);
    if (!fill_random(random)) return PMIX_ERR_OUT_OF_RESOURCE;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text(2 * random.size(), '0');
    for (std::size_t i = 0; i < random.size(); ++i) {
        text[2 * i] = kHex[random[i] >> 4];
        text[2 * i + 1] = kHex[random[i] & 0xf];
    }
    pmix_envar_t envar;
    envar.envar = envar_name.data();
    envar.value = text.data();
    envar.separator = ':';
    // PMIx_Info_list_add copies the value.
    const pmix_status_t rc = PMIx_Info_list_add(ilist, PMIX_SET_ENVAR, &envar, PMIX_ENVAR);
    explicit_bzero(random.data(), random.size());
    explicit_bzero(text.data(), text.size());
    return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

constexpr pmixpp_pnet_module_t token_module = {
    .struct_size = sizeof(pmixpp_pnet_module_t),
    .setup_application = setup_application,
    .setup_local_support = nullptr,
    .setup_fork = nullptr,
    .child_finalized = nullptr,
    .local_app_finalized = nullptr,
    .deregister_nspace = nullptr,
    .collect_inventory = nullptr,
    .deliver_inventory = nullptr,
    .register_fabric = nullptr,
    .update_fabric = nullptr,
    .deregister_fabric = nullptr,
};

}  // namespace

struct TokenNet {
    static constexpr const char *version = "1.0.0";
    static constexpr int priority = 30;
    static constexpr uint16_t framework_major = PMIXPP_PNET_API_MAJOR;
    static constexpr uint16_t framework_minor = PMIXPP_PNET_API_MINOR;

    static void register_params(pmixpp::sdk::Services &services)
    {
        services.register_param("envar", PMIXPP_PARAM_STRING, "PMIXPP_JOB_TOKEN",
                                "environment variable that carries the job's token");
        services.register_param("bytes", PMIXPP_PARAM_INT, "32",
                                "random bytes in a token (16..1024); the value is their hex form");
    }

    static void open(pmixpp::sdk::Services &services)
    {
        envar_name = services.param_string("envar");
        const long long bytes = services.param_int("bytes", kDefaultBytes);
        token_bytes = static_cast<std::size_t>(bytes);
        if (bytes < kMinBytes || bytes > kMaxBytes) {
            services.log(PMIXPP_LOG_WARN, "PMIX_MCA_pnet_token_bytes=%lld is outside 16..1024; using %lld", bytes,
                         kDefaultBytes);
            token_bytes = kDefaultBytes;
        }
    }

    static const void *query(pmixpp::sdk::Services &services, int &)
    {
        if (!valid_name(envar_name)) {
            services.log(PMIXPP_LOG_WARN,
                         "PMIX_MCA_pnet_token_envar='%s' is not an environment variable name "
                         "(letters, digits, '_'); pnet/token is not used",
                         envar_name.c_str());
            return nullptr;
        }
        return &token_module;
    }

    static void close() { envar_name.clear(); }
};

PMIXPP_CXX_COMPONENT(pnet, token, TokenNet)
