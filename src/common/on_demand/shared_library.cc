#include "common/on_demand/shared_library.h"

#include <dlfcn.h>

#include <string>

#include "common/runtime/log.h"

namespace pmixpp::on_demand {

void *SharedLibrary::handle()
{
    std::call_once(loaded_, [this] {
        // Global scope, as if linked: an application that uses the library
        // itself gets the same copy, and objects pass between the two.
        void *opened = ::dlopen(soname_, RTLD_NOW | RTLD_GLOBAL);
        if (opened == nullptr) {
            const char *why = ::dlerror();
            runtime::log_warning("libpmix", std::string("cannot load ") + soname_ + " (" +
                                                (why != nullptr ? why : "unknown reason") +
                                                "): the calls that need it fail (install " + package_ + ")");
        }
        handle_.store(opened, std::memory_order_release);
    });
    return handle_.load(std::memory_order_acquire);
}

void *SharedLibrary::function(const char *name)
{
    void *library = handle();
    if (library == nullptr) return nullptr;
    void *fn = ::dlsym(library, name);
    if (fn == nullptr) {
        runtime::log_warning("libpmix", std::string(soname_) + " has no function " + name +
                                            " (a different version than the one libpmix was built with; reinstall " +
                                            package_ + ")");
    }
    return fn;
}

}  // namespace pmixpp::on_demand
