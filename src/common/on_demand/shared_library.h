// A system library loaded the first time one of its functions is called
// (hwloc_calls.cc, zlib_calls.cc), with each function looked up once.
#ifndef PMIXPP_COMMON_ON_DEMAND_SHARED_LIBRARY_H
#define PMIXPP_COMMON_ON_DEMAND_SHARED_LIBRARY_H

#include <atomic>
#include <mutex>

namespace pmixpp::on_demand {

class SharedLibrary {
public:
    // `soname`: what the build linked against (libhwloc.so.15, libz.so.1);
    // `package`: the Debian package that has it, for the message.
    constexpr SharedLibrary(const char *soname, const char *package) : soname_(soname), package_(package) {}

    // The function `name` of the library, loading the library first if
    // needed; nullptr (and one message naming the library and its package)
    // when it cannot be loaded or has no such function. Any thread.
    void *function(const char *name);

private:
    void *handle();

    const char *soname_;
    const char *package_;
    std::once_flag loaded_;
    std::atomic<void *> handle_{nullptr};
};

}  // namespace pmixpp::on_demand

// The address of `name` in `library`, typed as `name` is; looked up once.
#define PMIXPP_ON_DEMAND(library, name)                                                                                \
    ([]() -> decltype(&::name) {                                                                                       \
        static std::atomic<decltype(&::name)> found{nullptr};                                                          \
        decltype(&::name) resolved = found.load(std::memory_order_acquire);                                            \
        if (resolved == nullptr) {                                                                                     \
            resolved = reinterpret_cast<decltype(&::name)>((library).function(#name));                                 \
            found.store(resolved, std::memory_order_release);                                                          \
        }                                                                                                              \
        return resolved;                                                                                               \
    }())

#endif
