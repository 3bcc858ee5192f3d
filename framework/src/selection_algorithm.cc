#include "selection_algorithm.h"

#include "component_index.h"
#include "descriptor_check.h"
#include "diagnostics.h"
#include "install_layout.h"
#include "param_store.h"
#include "services.h"
#include "setting_names.h"

#include <algorithm>
#include <atomic>

namespace pmixpp::framework {
namespace {

enum class Outcome { selected, skipped, fatal };

struct Run {
    const FrameworkInfo &framework;
    std::string name;  // framework name as std::string, for messages and keys
    int verbosity;
    ComponentFilter filter;
    std::string filter_text;  // "PMIX_MCA_gds=^hash" for messages
};

void declare_core_params(const std::string &framework)
{
    param_store().declare({framework, framework, PMIXPP_PARAM_STRING, "",
                           "Components to use (a,b) or to exclude (^a,b); empty: all usable"});
    param_store().declare({framework, framework + "_verbose", PMIXPP_PARAM_INT, "0",
                           "Verbosity of selection and component traces (0: quiet)"});
}

std::string priority_key(std::string_view framework, const std::string &component)
{
    return std::string(framework) + "_" + component + "_priority";
}

// The user's override (PMIX_MCA_<fw>_<name>_priority) wins over whatever the
// component computed.
int overridden_priority(std::string_view framework, const std::string &component, int computed)
{
    const auto setting = param_store().setting(priority_key(framework, component));
    long long override_value = 0;
    if (setting && parse_int(setting->value, &override_value)) return static_cast<int>(override_value);
    return computed;
}

int effective_priority(const Run &run, const ComponentState &state, int queried)
{
    return overridden_priority(run.name, state.candidate.name, queried);
}

// A component left out by PMIX_MCA_<fw> is never opened, but reports still
// show its version and priority: from its index entry, else load it, read
// the descriptor, unload. Quiet on failure, since a broken component is a
// good reason to exclude it.
void describe_filtered(const FrameworkInfo &framework, const ComponentState &state, ComponentReport *report)
{
    if (const auto entry = fresh_index_entry(state.candidate.path)) {
        report->version = entry->version;
        report->priority = overridden_priority(framework.name, state.candidate.name, entry->priority);
        return;
    }
    Candidate candidate = state.candidate;
    load(framework, &candidate);
    if (candidate.rejection.empty() && candidate.descriptor != nullptr) {
        if (candidate.descriptor->version != nullptr) report->version = candidate.descriptor->version;
        report->priority = overridden_priority(framework.name, candidate.name, candidate.descriptor->default_priority);
    }
    unload(&candidate);
}

bool load_candidate(const Run &run, ComponentState *state)
{
    Candidate &candidate = state->candidate;
    load(run.framework, &candidate);
    if (!candidate.rejection.empty()) {
        state->reason = candidate.rejection;
        warn(run.name + ": rejected component " + candidate.path + ": " + candidate.rejection);
        return false;
    }
    param_store().add_component(candidate.descriptor, run.name, candidate.name);
    if (candidate.descriptor->version != nullptr) state->version = candidate.descriptor->version;
    param_store().declare({run.name, priority_key(run.name, candidate.name), PMIXPP_PARAM_INT,
                           std::to_string(candidate.descriptor->default_priority),
                           "Selection priority of " + run.name + "/" + candidate.name + " (higher wins)"});
    state->priority = effective_priority(run, *state, candidate.descriptor->default_priority);
    return true;
}

Outcome skip(const Run &run, ComponentState *state, std::string reason)
{
    warn(run.name + ": skipping component " + state->candidate.path + ": " + reason);
    state->reason = std::move(reason);
    return Outcome::skipped;
}

Outcome open_and_query(const Run &run, ComponentState *state)
{
    const pmixpp_component_t *descriptor = state->candidate.descriptor;
    const pmixpp_services_t *services = services_table();
    if (descriptor->register_params != nullptr) {
        const int rc = descriptor->register_params(services);
        if (rc != 0) return skip(run, state, "register_params failed with status " + std::to_string(rc));
    }
    if (descriptor->open != nullptr) {
        const int rc = descriptor->open(services);
        if (rc != 0) return skip(run, state, "open failed with status " + std::to_string(rc));
    }
    state->opened = true;
    if (descriptor->query == nullptr) return skip(run, state, "has no query hook to provide its module");
    int priority = state->priority;
    const void *module = nullptr;
    const pmixpp_query_result_t result = descriptor->query(services, &priority, &module);
    switch (result) {
    case PMIXPP_QUERY_DECLINE:
        trace(run.verbosity, run.name + ": component " + state->candidate.name + " declined");
        state->reason = "declined";
        return Outcome::skipped;
    case PMIXPP_QUERY_FATAL:
        state->reason = "query reported a fatal error";
        warn(run.name + ": component " + state->candidate.path + " cannot work as configured (fatal error in query); " +
             run.name + " selection stopped");
        return Outcome::fatal;
    case PMIXPP_QUERY_AVAILABLE: break;
    default: return skip(run, state, "query returned unknown result " + std::to_string(result));
    }
    if (std::string problem = check_module(module, run.framework); !problem.empty()) {
        return skip(run, state, problem);
    }
    state->module = module;
    state->priority = effective_priority(run, *state, priority);
    state->selected = true;
    return Outcome::selected;
}

// Close hook, then unload; the recorded reason and priority stay for reports.
void release(ComponentState *state)
{
    const pmixpp_component_t *descriptor = state->candidate.descriptor;
    if (state->opened && descriptor != nullptr && descriptor->close != nullptr) descriptor->close();
    state->opened = false;
    state->selected = false;
    state->module = nullptr;
    if (descriptor != nullptr) param_store().remove_component(descriptor);
    unload(&state->candidate);
}

std::vector<std::string> available_names(const FrameworkSelection &selection)
{
    std::vector<std::string> names;
    for (const auto &state : selection.components) {
        if (state.candidate.rejection.empty()) names.push_back(state.candidate.name);
    }
    return names;
}

void warn_unknown_filter_names(const Run &run, const FrameworkSelection &selection)
{
    if (run.filter.mode != ComponentFilter::Mode::exclude) return;
    for (const auto &name : run.filter.names) {
        const bool found =
            std::ranges::any_of(selection.components, [&](const auto &state) { return state.candidate.name == name; });
        if (!found) {
            warn(run.filter_text + ": no " + run.name + " component named " + name +
                 "; available: " + join(available_names(selection)));
        }
    }
}

// Every explicitly included component must have been selected (or not be
// needed yet: it is checked when it is).
pmix_status_t check_included(const Run &run, const FrameworkSelection &selection)
{
    if (run.filter.mode != ComponentFilter::Mode::include) return PMIX_SUCCESS;
    for (const auto &name : run.filter.names) {
        const auto state =
            std::ranges::find_if(selection.components, [&](const auto &s) { return s.candidate.name == name; });
        if (state != selection.components.end() && (state->selected || state->deferred)) continue;
        const std::string problem =
            state == selection.components.end() ? "was not found" : "cannot be used (" + state->reason + ")";
        warn(run.filter_text + ": " + run.name + " component " + name + " " + problem +
             "; available: " + join(available_names(selection)));
        return PMIX_ERR_NOT_FOUND;
    }
    return PMIX_SUCCESS;
}

void order_selected(const Run &run, FrameworkSelection *selection)
{
    auto &components = selection->components;
    selection->order.clear();
    for (std::size_t i = 0; i < components.size(); ++i) {
        if (components[i].selected) selection->order.push_back(i);
    }
    std::ranges::stable_sort(selection->order, [&](std::size_t a, std::size_t b) {
        if (components[a].priority != components[b].priority) {
            return components[a].priority > components[b].priority;
        }
        return components[a].candidate.name < components[b].candidate.name;
    });
    std::string chosen;
    for (const auto index : selection->order) {
        chosen += " " + components[index].candidate.name + "(" + std::to_string(components[index].priority) + ")";
    }
    trace(run.verbosity, run.name + ": selected" + (chosen.empty() ? std::string(" nothing") : chosen));
}

pmix_status_t prepare_run(Run *run)
{
    declare_core_params(run->name);
    const auto setting = param_store().setting(run->name);
    if (!setting) return PMIX_SUCCESS;
    run->filter_text = std::string(env_prefix) + run->name + "=" + setting->value;
    std::string error;
    const pmix_status_t rc = parse_component_filter(setting->value, &run->filter, &error);
    if (rc != PMIX_SUCCESS) {
        warn(run->filter_text + " (" + describe_source(*setting) + ") " + error);
        return rc;
    }
    return PMIX_SUCCESS;
}

// Once per process, and only when no directory holds any component (and no
// test linked one in): then
// every framework comes up empty and the caller fails with nothing to say
// (Slurm prints only "task 0 launch failed").
void warn_no_component_files(const std::vector<std::string> &directories)
{
    static std::atomic<bool> said{false};
    if (said.load() || any_linked_in_components() || !directories_holding_components().empty() || said.exchange(true)) {
        return;
    }
    std::string searched;
    for (const std::string &directory : directories) searched += (searched.empty() ? "" : ", ") + directory;
    const auto installed = built_in_component_directories();
    warn("no components found (searched " + searched +
         "): set PMIX_MCA_mca_base_component_path to the directory "
         "that holds pmixpp's pmixpp_*.so files" +
         (installed.empty() ? std::string() : " (installed: " + installed.front() + ")") + ", or reinstall pmixpp");
}

std::string filtered_reason(const Run &run)
{
    return run.filter.mode == ComponentFilter::Mode::exclude ? "excluded by " + run.filter_text
                                                             : "not included by " + run.filter_text;
}

constexpr const char *kNotLoaded = "not loaded (not needed by this process)";

// What a deferred component's index entry tells without loading it.
void note_index(const Run &run, ComponentState *state)
{
    const Candidate &candidate = state->candidate;
    if (candidate.path == static_component_path) {
        state->priority = overridden_priority(run.name, candidate.name, candidate.descriptor->default_priority);
        state->priority_known = true;
        return;
    }
    const auto entry = fresh_index_entry(candidate.path);
    if (!entry || entry->framework != run.name || entry->name != candidate.name) {
        trace(run.verbosity, run.name + ": " + candidate.path + " has no current index entry: loaded when needed");
        return;
    }
    state->priority = overridden_priority(run.name, candidate.name, entry->priority);
    state->version = entry->version;
    state->priority_known = true;
}

// Loads, opens and queries the deferred candidates `wanted` admits.
pmix_status_t select_components(const Run &run, FrameworkSelection &selection, const Wanted &wanted)
{
    for (auto &state : selection.components) {
        if (state.filtered || !state.deferred || !wanted.admits(state.candidate.name)) continue;
        state.deferred = false;
        state.reason.clear();
        if (!load_candidate(run, &state)) continue;
        const Outcome outcome = open_and_query(run, &state);
        if (outcome == Outcome::fatal) return PMIX_ERR_INIT;
        if (outcome == Outcome::skipped) release(&state);
    }
    return PMIX_SUCCESS;
}

Run make_run(const FrameworkInfo &framework)
{
    return Run{framework, std::string(framework.name), param_store().verbosity(framework.name), {}, {}};
}

}  // namespace

bool Wanted::admits(const std::string &name) const
{
    return all || std::ranges::find(names, name) != names.end();
}

pmix_status_t run_selection(const FrameworkInfo &framework, FrameworkSelection *selection_p, const Wanted &wanted)
{
    Run run = make_run(framework);
    FrameworkSelection &selection = *selection_p;
    selection = FrameworkSelection{&framework, {}, {}};
    pmix_status_t rc = prepare_run(&run);
    if (rc != PMIX_SUCCESS) return rc;

    std::vector<std::string> discovered_names;
    const std::vector<std::string> directories = component_directories();
    for (auto &candidate : discover(framework, directories)) {
        discovered_names.push_back(candidate.name);
        ComponentState state;
        state.candidate = std::move(candidate);
        selection.components.push_back(std::move(state));
    }
    warn_unknown_components(run.name, param_store().settings(), discovered_names);
    if (discovered_names.empty()) warn_no_component_files(directories);

    for (auto &state : selection.components) {
        if (!run.filter.admits(state.candidate.name)) {
            state.filtered = true;
            state.reason = filtered_reason(run);
            continue;
        }
        state.deferred = true;
        state.reason = kNotLoaded;
        if (!wanted.admits(state.candidate.name)) note_index(run, &state);
    }
    rc = select_components(run, selection, wanted);
    warn_unknown_filter_names(run, selection);
    if (rc == PMIX_SUCCESS) rc = check_included(run, selection);
    if (rc != PMIX_SUCCESS) {
        close_selection(&selection);
        return rc;
    }
    order_selected(run, &selection);
    return PMIX_SUCCESS;
}

pmix_status_t complete_selection(FrameworkSelection *selection, const Wanted &wanted)
{
    Run run = make_run(*selection->framework);
    pmix_status_t rc = prepare_run(&run);
    if (rc == PMIX_SUCCESS) rc = select_components(run, *selection, wanted);
    if (rc == PMIX_SUCCESS) rc = check_included(run, *selection);
    if (rc != PMIX_SUCCESS) {
        close_selection(selection);
        return rc;
    }
    order_selected(run, selection);
    return PMIX_SUCCESS;
}

pmix_status_t ranked_names(FrameworkSelection *selection, std::vector<std::string> *names_p)
{
    std::vector<std::string> unknown;
    for (const auto &state : selection->components) {
        if (state.deferred && !state.priority_known) unknown.push_back(state.candidate.name);
    }
    if (!unknown.empty()) {
        const pmix_status_t rc = complete_selection(selection, Wanted::only(std::move(unknown)));
        if (rc != PMIX_SUCCESS) return rc;
    }
    std::vector<const ComponentState *> usable;
    for (const auto &state : selection->components) {
        if (state.selected || (state.deferred && state.priority_known)) usable.push_back(&state);
    }
    std::ranges::stable_sort(usable, [](const ComponentState *a, const ComponentState *b) {
        if (a->priority != b->priority) return a->priority > b->priority;
        return a->candidate.name < b->candidate.name;
    });
    names_p->clear();
    for (const ComponentState *state : usable) names_p->push_back(state->candidate.name);
    return PMIX_SUCCESS;
}

void keep_only_best(FrameworkSelection *selection)
{
    if (selection->order.size() <= 1) return;
    const std::string &best = selection->components[selection->order.front()].candidate.name;
    for (std::size_t i = 1; i < selection->order.size(); ++i) {
        ComponentState &state = selection->components[selection->order[i]];
        release(&state);
        state.reason = "lower priority than " + best + " (single selection)";
    }
    selection->order.resize(1);
}

void keep_only_named(FrameworkSelection *selection, const std::vector<std::string> &names)
{
    std::vector<std::size_t> kept;
    for (const std::size_t index : selection->order) {
        ComponentState &state = selection->components[index];
        if (std::ranges::find(names, state.candidate.name) != names.end()) {
            kept.push_back(index);
            continue;
        }
        release(&state);
        state.reason = "not used by this process";
    }
    selection->order = std::move(kept);
}

void close_selection(FrameworkSelection *selection)
{
    // Reverse of the opening order, like nested resources.
    for (auto state = selection->components.rbegin(); state != selection->components.rend(); ++state) {
        release(&*state);
    }
    selection->order.clear();
}

FrameworkReport make_report(const FrameworkSelection &selection)
{
    FrameworkReport report;
    report.name = std::string(selection.framework->name);
    report.multi_select = selection.framework->multi_select;
    for (const auto index : selection.order) report.selected.push_back(selection.components[index].candidate.name);
    for (const auto &state : selection.components) {
        const bool selected = std::ranges::find(report.selected, state.candidate.name) != report.selected.end();
        ComponentReport component{state.candidate.name, state.version, state.priority,
                                  state.candidate.path, selected,      selected ? std::string() : state.reason};
        if (state.filtered || (state.deferred && !state.priority_known)) {
            describe_filtered(*selection.framework, state, &component);
        }
        report.components.push_back(std::move(component));
    }
    report.params = param_store().report(report.name);
    return report;
}

}  // namespace pmixpp::framework
