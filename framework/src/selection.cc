#include "selection.h"

#include "diagnostics.h"
#include "framework_table.h"
#include "inventory.h"
#include "param_store.h"
#include "selector.h"
#include "services.h"
#include "setting_names.h"

#include <map>
#include <mutex>

namespace pmixpp::framework {
namespace {

struct CoreState {
    bool settings_loaded = false;
    std::map<std::string, FrameworkSelection, std::less<>> live; // successful selections
};

// Everything below is created on first use under this mutex: nothing runs at
// load time of the library, and nothing is torn down at exit behind the
// host's back (finalize() does that explicitly).
constinit std::mutex core_mutex;
CoreState *core = nullptr;

CoreState &core_state() {
    if (core == nullptr) core = new CoreState;
    return *core;
}

// Settings are read once per initialization; values handed to components
// must stay valid while any of them is open.
void load_settings_once(CoreState &state) {
    if (state.settings_loaded) return;
    SettingMap settings = load_settings(default_source_locations(), [](const std::string &line) { warn(line); });
    warn_unknown_frameworks(settings);
    param_store().reset(std::move(settings));
    state.settings_loaded = true;
}

pmix_status_t live_selection(std::string_view framework, FrameworkSelection **selection_p) {
    const FrameworkInfo *info = find_framework(framework);
    if (info == nullptr) return PMIX_ERR_BAD_PARAM;
    CoreState &state = core_state();
    load_settings_once(state);
    if (const auto found = state.live.find(framework); found != state.live.end()) {
        *selection_p = &found->second;
        return PMIX_SUCCESS;
    }
    FrameworkSelection selection;
    const pmix_status_t rc = run_selection(*info, &selection);
    if (rc != PMIX_SUCCESS) return rc;
    const auto [slot, inserted] = state.live.emplace(std::string(framework), std::move(selection));
    *selection_p = &slot->second;
    return PMIX_SUCCESS;
}

SelectedModule module_of(const ComponentState &state) {
    return SelectedModule{state.candidate.name, state.priority, state.module, state.candidate.descriptor};
}

FrameworkReport report_and_close_temporary(const FrameworkInfo &framework) {
    FrameworkSelection selection;
    run_selection(framework, &selection); // failures are in the report and the warnings
    FrameworkReport report = make_report(selection);
    close_selection(&selection);
    return report;
}

} // namespace

pmix_status_t select(std::string_view framework, std::vector<SelectedModule> *modules_p) {
    if (modules_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::lock_guard lock(core_mutex);
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

pmix_status_t select_best(std::string_view framework, SelectedModule *module_p) {
    if (module_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::lock_guard lock(core_mutex);
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

void close(std::string_view framework) {
    std::lock_guard lock(core_mutex);
    if (core == nullptr) return;
    const auto found = core->live.find(framework);
    if (found == core->live.end()) return;
    close_selection(&found->second);
    core->live.erase(found);
}

void finalize() {
    std::lock_guard lock(core_mutex);
    if (core == nullptr) return;
    for (auto &[name, selection] : core->live) close_selection(&selection);
    core->live.clear();
    core->settings_loaded = false;
    param_store().reset({});
}

void set_event_base(void *event_base) { set_services_event_base(event_base); }

pmix_status_t inventory(std::vector<FrameworkReport> *reports_p) {
    if (reports_p == nullptr) return PMIX_ERR_BAD_PARAM;
    try {
        std::lock_guard lock(core_mutex);
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

std::vector<std::string> warnings() { return recorded_lines(); }

} // namespace pmixpp::framework
