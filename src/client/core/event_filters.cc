// The filters of a handler's registration (PMIX_RANGE,
// PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROC(S)) and the notifier's
// own restrictions carried in the event (custom targets, non-default).
#include "client/core/events.h"

#include <pmixpp/util.hpp>

#include <cstring>

namespace pmixpp::client {

namespace {

using util::key_is;

// A PMIX_PROC value or a PMIX_DATA_ARRAY of PMIX_PROC, appended to *procs_p.
pmix_status_t read_procs(const pmix_value_t &value, std::vector<pmix_proc_t> *procs_p)
{
    if (value.type == PMIX_PROC && value.data.proc != nullptr) {
        procs_p->push_back(*value.data.proc);
        return PMIX_SUCCESS;
    }
    if (value.type != PMIX_DATA_ARRAY || value.data.darray == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    const pmix_data_array_t &array = *value.data.darray;
    if (array.size == 0) {
        return PMIX_SUCCESS;
    }
    if (array.type != PMIX_PROC || array.array == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    const auto *procs = static_cast<const pmix_proc_t *>(array.array);
    procs_p->insert(procs_p->end(), procs, procs + array.size);
    return PMIX_SUCCESS;
}

bool any_matches(const std::vector<pmix_proc_t> &patterns, const pmix_proc_t &proc)
{
    for (const pmix_proc_t &p : patterns) {
        if (proc_matches(p, proc)) {
            return true;
        }
    }
    return false;
}

bool source_in_range(const EventFilter &filter, const pmix_proc_t &source, const EventHome &home)
{
    switch (filter.range) {
    case PMIX_RANGE_PROC_LOCAL: return proc_matches(home.self, source) && source.rank == home.self.rank;
    case PMIX_RANGE_NAMESPACE: return std::strncmp(source.nspace, home.self.nspace, PMIX_MAX_NSLEN) == 0;
    case PMIX_RANGE_LOCAL: return home.on_this_node(source);
    case PMIX_RANGE_CUSTOM: return any_matches(filter.sources, source);
    default:  // undefined, session, global, RM: every source
        return true;
    }
}

// The procs an event says it is about; empty when it names none.
std::vector<pmix_proc_t> affected_by(const wire::Event &event)
{
    std::vector<pmix_proc_t> procs;
    for (const pmix_info_t &item : event.info) {
        if (key_is(item, PMIX_EVENT_AFFECTED_PROC) || key_is(item, PMIX_EVENT_AFFECTED_PROCS)) {
            (void)read_procs(item.value, &procs);
        }
    }
    return procs;
}

// The notifier limited a PMIX_RANGE_CUSTOM event to the procs it listed.
bool targeted_at(const wire::Event &event, const pmix_proc_t &self)
{
    if (event.range != PMIX_RANGE_CUSTOM) {
        return true;
    }
    std::vector<pmix_proc_t> targets;
    for (const pmix_info_t &item : event.info) {
        if (key_is(item, PMIX_EVENT_CUSTOM_RANGE)) {
            (void)read_procs(item.value, &targets);
        }
    }
    return targets.empty() || any_matches(targets, self);
}

}  // namespace

bool proc_matches(const pmix_proc_t &pattern, const pmix_proc_t &proc)
{
    if (std::strncmp(pattern.nspace, proc.nspace, PMIX_MAX_NSLEN) != 0) {
        return false;
    }
    return pattern.rank == PMIX_RANK_WILDCARD || proc.rank == PMIX_RANK_WILDCARD || pattern.rank == proc.rank;
}

pmix_status_t read_filter(const pmix_info_t info[], size_t ninfo, EventFilter *filter_p)
{
    EventFilter filter;
    for (size_t i = 0; info != nullptr && i < ninfo; ++i) {
        const pmix_info_t &item = info[i];
        pmix_status_t rc = PMIX_SUCCESS;
        if (key_is(item, PMIX_RANGE)) {
            if (item.value.type != PMIX_DATA_RANGE) {
                return PMIX_ERR_BAD_PARAM;
            }
            filter.range = item.value.data.range;
        } else if (key_is(item, PMIX_EVENT_CUSTOM_RANGE)) {
            rc = read_procs(item.value, &filter.sources);
            filter.range = PMIX_RANGE_CUSTOM;
        } else if (key_is(item, PMIX_EVENT_AFFECTED_PROC) || key_is(item, PMIX_EVENT_AFFECTED_PROCS)) {
            rc = read_procs(item.value, &filter.affected);
        }
        if (rc != PMIX_SUCCESS) {
            return rc;
        }
    }
    *filter_p = std::move(filter);
    return PMIX_SUCCESS;
}

bool filter_accepts(const EventFilter &filter, const wire::Event &event, const EventHome &home)
{
    if (!targeted_at(event, home.self) || !source_in_range(filter, event.source, home)) {
        return false;
    }
    if (filter.affected.empty()) {
        return true;
    }
    std::vector<pmix_proc_t> affected = affected_by(event);
    if (affected.empty()) {
        return true;
    }
    for (const pmix_proc_t &proc : affected) {
        if (any_matches(filter.affected, proc)) {
            return true;
        }
    }
    return false;
}

bool excludes_default_handlers(const wire::Event &event)
{
    for (const pmix_info_t &item : event.info) {
        if (key_is(item, PMIX_EVENT_NON_DEFAULT)) {
            return item.value.type == PMIX_UNDEF || (item.value.type == PMIX_BOOL && item.value.data.flag);
        }
    }
    return false;
}

}  // namespace pmixpp::client
