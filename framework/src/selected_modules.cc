#include "selected_modules.h"

#include "component_index.h"
#include "diagnostics.h"
#include "framework_table.h"
#include "inventory.h"
#include "param_store.h"
#include "repository.h"
#include "selection_algorithm.h"
#include "services.h"
#include "setting_names.h"

#include <map>
#include <mutex>

namespace pmixpp::framework {
namespace {

struct CoreState {
    bool settings_loaded = false;
    SourceLocations param_files;                                  // as read by the last load
    std::map<std::string, FrameworkSelection, std::less<>> live;  // successful selections
    std::map<std::string, int, std::less<>> users;                // acquire() - release()
};

// Everything below is created on first use under this mutex: nothing runs at
// load time of the library, and nothing is torn down at exit behind the
// host's back (finalize() does that explicitly).
constinit std::mutex core_mutex;
CoreState *core = nullptr;

// Component hooks run with core_mutex held. A hook that calls back into the
// core on the same thread would wait forever for the mutex it holds itself,
// so each entry point first checks this flag (set only by the holder).
constinit thread_local bool this_thread_holds_core = false;

class CoreLock {
public:
    CoreLock() : lock_(core_mutex) { this_thread_holds_core = true; }
    ~CoreLock() { this_thread_holds_core = false; }
    CoreLock(const CoreLock &) = delete;
    CoreLock &operator=(const CoreLock &) = delete;

private:
    std::lock_guard<std::mutex> lock_;
};

// True (after one line saying so) when `call` comes from a component hook.
bool called_from_component_hook(std::string_view call)
{
    if (!this_thread_holds_core) return false;
    warn(std::string(call) +
         " was called from a component hook while the component core is selecting or "
         "closing components; refused (PMIX_ERR_NOT_SUPPORTED): component hooks must not call back into the "
         "component core");
    return true;
}

void declare_core_params()
{
    param_store().declare({std::string(core_param_group), "mca_base_component_path", PMIXPP_PARAM_STRING, "",
                           "Directories searched for components before the default one (':'-separated)"});
    param_store().declare({std::string(core_param_group), "mca_base_component_fallback", PMIXPP_PARAM_BOOL, "true",
                           "When no component is beside the library, also search where the server's are "
                           "(PMIXPP_SERVER_COMPONENT_PATH) and the directories fixed when it was built"});
}

CoreState &core_state()
{
    if (core == nullptr) core = new CoreState;
    return *core;
}

// Settings are read once per initialization; values handed to components
// must stay valid while any of them is open.
void load_settings_once(CoreState &state)
{
    if (state.settings_loaded) return;
    state.param_files = default_source_locations();
    SettingMap settings = load_settings(state.param_files, [](const std::string &line) { warn(line); });
    warn_unknown_frameworks(settings);
    param_store().reset(std::move(settings));
    declare_core_params();
    state.settings_loaded = true;
}

bool needs_loading(const FrameworkSelection &selection, const Wanted &wanted)
{
    for (const auto &state : selection.components) {
        if (state.deferred && wanted.admits(state.candidate.name)) return true;
    }
    return false;
}

// The framework's selection with at least what `wanted` admits loaded.
pmix_status_t live_selection(std::string_view framework, FrameworkSelection **selection_p,
                             const Wanted &wanted = Wanted::everything())
{
    const FrameworkInfo *info = find_framework(framework);
    if (info == nullptr) return PMIX_ERR_BAD_PARAM;
    CoreState &state = core_state();
    load_settings_once(state);
    if (const auto found = state.live.find(framework); found != state.live.end()) {
        if (needs_loading(found->second, wanted)) {
            const pmix_status_t rc = complete_selection(&found->second, wanted);
            if (rc != PMIX_SUCCESS) {
                state.live.erase(found);  // closed by complete_selection
                return rc;
            }
        }
        *selection_p = &found->second;
        return PMIX_SUCCESS;
    }
    FrameworkSelection selection;
    const pmix_status_t rc = run_selection(*info, &selection, wanted);
    if (rc != PMIX_SUCCESS) return rc;
    const auto [slot, inserted] = state.live.emplace(std::string(framework), std::move(selection));
    *selection_p = &slot->second;
    return PMIX_SUCCESS;
}

SelectedModule module_of(const ComponentState &state)
{
    return SelectedModule{state.candidate.name, state.priority, state.module, state.candidate.descriptor};
}

FrameworkReport report_and_close_temporary(const FrameworkInfo &framework)
{
    FrameworkSelection selection;
    run_selection(framework, &selection);  // failures are in the report and the warnings
    FrameworkReport report = make_report(selection);
    close_selection(&selection);
    return report;
}

}  // namespace

pmix_status_t select(std::string_view framework, std::vector<SelectedModule> *modules_p)
{
    if (modules_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        if (called_from_component_hook("select(\"" + std::string(framework) + "\")")) return PMIX_ERR_NOT_SUPPORTED;
        CoreLock lock;
        FrameworkSelection *selection = nullptr;
        const pmix_status_t rc = live_selection(framework, &selection);
        if (rc != PMIX_SUCCESS) return rc;
        std::vector<SelectedModule> modules;
        for (const auto index : selection->order) modules.push_back(module_of(selection->components[index]));
        *modules_p = std::move(modules);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t select_named(std::string_view framework, const std::vector<std::string> &names,
                           std::vector<SelectedModule> *modules_p)
{
    if (modules_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        if (called_from_component_hook("select_named(\"" + std::string(framework) + "\")")) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        CoreLock lock;
        FrameworkSelection *selection = nullptr;
        const pmix_status_t rc = live_selection(framework, &selection, Wanted::only(names));
        if (rc != PMIX_SUCCESS) return rc;
        std::vector<SelectedModule> modules;
        for (const auto &name : names) {
            for (const auto index : selection->order) {
                if (selection->components[index].candidate.name == name) {
                    modules.push_back(module_of(selection->components[index]));
                }
            }
        }
        *modules_p = std::move(modules);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t ranked_components(std::string_view framework, std::vector<std::string> *names_p)
{
    if (names_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        if (called_from_component_hook("ranked_components(\"" + std::string(framework) + "\")")) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        CoreLock lock;
        FrameworkSelection *selection = nullptr;
        pmix_status_t rc = live_selection(framework, &selection, Wanted::only({}));
        if (rc == PMIX_SUCCESS) rc = ranked_names(selection, names_p);
        return rc;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t select_best(std::string_view framework, SelectedModule *module_p)
{
    if (module_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        if (called_from_component_hook("select_best(\"" + std::string(framework) + "\")")) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        CoreLock lock;
        FrameworkSelection *selection = nullptr;
        const pmix_status_t rc = live_selection(framework, &selection);
        if (rc != PMIX_SUCCESS) return rc;
        if (selection->order.empty()) {
            warn(std::string(framework) + ": no usable component");
            return PMIX_ERR_NOT_FOUND;
        }
        keep_only_best(selection);
        *module_p = module_of(selection->components[selection->order.front()]);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

namespace {

// Caller holds the core lock.
void close_live(std::string_view framework)
{
    const auto found = core->live.find(framework);
    if (found == core->live.end()) return;
    close_selection(&found->second);
    core->live.erase(found);
}

}  // namespace

void close(std::string_view framework)
{
    if (called_from_component_hook("close")) return;
    CoreLock lock;
    if (core == nullptr) return;
    close_live(framework);
}

void acquire(std::string_view framework)
{
    if (called_from_component_hook("acquire")) return;
    try {
        CoreLock lock;
        auto &counts = core_state().users;
        const auto found = counts.find(framework);
        if (found != counts.end()) {
            ++found->second;
        } else {
            counts.emplace(std::string(framework), 1);
        }
    } catch (const std::bad_alloc &) {
        // Not counted: the framework then closes with its other users'
        // last release or at finalize(), never earlier than it would anyway.
    }
}

void release(std::string_view framework)
{
    if (called_from_component_hook("release")) return;
    CoreLock lock;
    if (core == nullptr) return;
    const auto found = core->users.find(framework);
    if (found == core->users.end()) return;
    if (--found->second > 0) return;
    core->users.erase(found);
    close_live(framework);
}

pmix_status_t retain_only(std::string_view framework, const std::vector<std::string> &names)
{
    try {
        if (called_from_component_hook("retain_only(\"" + std::string(framework) + "\")")) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        CoreLock lock;
        if (core == nullptr) return PMIX_ERR_NOT_SUPPORTED;
        const auto holders = core->users.find(framework);
        if (holders != core->users.end() && holders->second > 1) return PMIX_ERR_NOT_SUPPORTED;
        const auto found = core->live.find(framework);
        if (found == core->live.end() || found->second.order.empty()) return PMIX_ERR_NOT_SUPPORTED;
        keep_only_named(&found->second, names);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

int users(std::string_view framework)
{
    CoreLock lock;
    if (core == nullptr) return 0;
    const auto found = core->users.find(framework);
    return found == core->users.end() ? 0 : found->second;
}

void finalize()
{
    if (called_from_component_hook("finalize")) return;
    CoreLock lock;
    if (core == nullptr) return;
    for (auto &[name, selection] : core->live) close_selection(&selection);
    core->live.clear();
    core->users.clear();
    core->settings_loaded = false;
    param_store().reset({});
    forget_component_indexes();  // a later init reads them afresh
    forget_component_directories();
}

void set_event_base(void *event_base)
{
    set_services_event_base(event_base);
}

std::string selected_component_path()
{
    try {
        if (called_from_component_hook("selected_component_path")) return {};
        CoreLock lock;
        std::string path;
        for (const auto &[name, selection] : core_state().live) {
            for (std::size_t index : selection.order) {
                const std::string &file = selection.components[index].candidate.path;
                const auto slash = file.rfind('/');
                if (file == static_component_path || slash == std::string::npos) continue;
                const std::string directory = file.substr(0, slash);
                if ((":" + path + ":").find(":" + directory + ":") == std::string::npos)
                    path += (path.empty() ? "" : ":") + directory;
            }
        }
        return path;
    } catch (const std::bad_alloc &) {
        return {};
    }
}

pmix_status_t inventory(std::vector<FrameworkReport> *reports_p)
{
    if (reports_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        if (called_from_component_hook("inventory")) return PMIX_ERR_NOT_SUPPORTED;
        CoreLock lock;
        clear_recorded_lines();
        CoreState &state = core_state();
        // Re-read the environment unless live components still use the values.
        if (state.live.empty()) state.settings_loaded = false;
        load_settings_once(state);
        std::vector<FrameworkReport> reports;
        for (const auto &framework : all_frameworks()) {
            const auto live = state.live.find(framework.name);
            reports.push_back(live != state.live.end() ? make_report(live->second)
                                                       : report_and_close_temporary(framework));
        }
        *reports_p = std::move(reports);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

pmix_status_t core_inventory(CoreReport *report_p)
{
    if (report_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        if (called_from_component_hook("core_inventory")) return PMIX_ERR_NOT_SUPPORTED;
        CoreLock lock;
        CoreState &state = core_state();
        load_settings_once(state);
        CoreReport report;
        report.params = param_store().report(core_param_group);
        report.component_directories = component_directories();
        report.system_param_file = state.param_files.system_file;
        report.user_param_file = state.param_files.user_file;
        *report_p = std::move(report);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

std::vector<std::string> warnings()
{
    return recorded_lines();
}

}  // namespace pmixpp::framework
