// Job registration as a resource manager does it: a node map and a process
// map made with PMIx_generate_regex / PMIx_generate_ppn, then either the full
// picture (session, job, app, node and per-process data) or only the minimum,
// so the library must derive the rest.
#include "integration/host/host_internal.h"

#include <pmix.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace pmixpp::itest {
namespace {

JobLayout make_layout(const JobSpec &spec, const std::string &local_hostname)
{
    JobLayout layout;
    layout.nodes = spec.remote_nodes;
    layout.local_node = std::min(spec.local_node_index, layout.nodes.size());
    layout.nodes.insert(layout.nodes.begin() + static_cast<std::ptrdiff_t>(layout.local_node), local_hostname);
    pmix_rank_t next = 0;
    for (std::size_t n = 0; n < layout.nodes.size(); ++n) {
        const int count = n == layout.local_node ? spec.local_procs : spec.remote_procs;
        std::vector<pmix_rank_t> ranks;
        for (int i = 0; i < count; ++i) ranks.push_back(next++);
        layout.ranks.push_back(std::move(ranks));
    }
    layout.job_size = next;
    return layout;
}

std::string join_ranks(const std::vector<pmix_rank_t> &ranks)
{
    std::string text;
    for (pmix_rank_t rank : ranks) {
        if (!text.empty()) text += ',';
        text += std::to_string(rank);
    }
    return text;
}

// Runs one of the regex generators and takes ownership of its result.
pmix_status_t generate(pmix_status_t (*generator)(const char *, char **), const std::string &input,
                       std::string *output_p)
{
    char *raw = nullptr;
    const pmix_status_t rc = generator(input.c_str(), &raw);
    if (rc != PMIX_SUCCESS) return rc;
    if (raw == nullptr) return PMIX_ERR_BAD_PARAM;
    *output_p = raw;
    std::free(raw);
    return PMIX_SUCCESS;
}

pmix_status_t make_maps(const JobLayout &layout, std::string *node_map_p, std::string *proc_map_p)
{
    std::string nodes;
    std::string procs;
    for (std::size_t n = 0; n < layout.nodes.size(); ++n) {
        if (n > 0) {
            nodes += ',';
            procs += ';';
        }
        nodes += layout.nodes[n];
        procs += join_ranks(layout.ranks[n]);
    }
    pmix_status_t rc = generate(PMIx_generate_regex, nodes, node_map_p);
    if (rc == PMIX_SUCCESS) rc = generate(PMIx_generate_ppn, procs, proc_map_p);
    return rc;
}

// Moves a finished sub-list into `list` as one pmix_data_array_t entry.
pmix_status_t add_array(void *list, const char *key, void *sublist)
{
    pmix_data_array_t array;
    pmix_status_t rc = PMIx_Info_list_convert(sublist, &array);
    PMIx_Info_list_release(sublist);
    if (rc != PMIX_SUCCESS) return rc;
    rc = PMIx_Info_list_add(list, key, &array, PMIX_DATA_ARRAY);
    PMIx_Data_array_destruct(&array);
    return rc;
}

void add_u32(void *list, const char *key, uint32_t value)
{
    PMIx_Info_list_add(list, key, &value, PMIX_UINT32);
}
void add_u16(void *list, const char *key, uint16_t value)
{
    PMIx_Info_list_add(list, key, &value, PMIX_UINT16);
}
void add_rank(void *list, const char *key, pmix_rank_t value)
{
    PMIx_Info_list_add(list, key, &value, PMIX_PROC_RANK);
}

pmix_status_t add_local_node(void *list, const JobLayout &layout)
{
    const std::vector<pmix_rank_t> &ranks = layout.ranks[layout.local_node];
    void *node = PMIx_Info_list_start();
    add_u32(node, PMIX_NODEID, static_cast<uint32_t>(layout.local_node));
    PMIx_Info_list_add(node, PMIX_HOSTNAME, layout.nodes[layout.local_node].c_str(), PMIX_STRING);
    add_u32(node, PMIX_LOCAL_SIZE, static_cast<uint32_t>(ranks.size()));
    add_u32(node, PMIX_NODE_SIZE, static_cast<uint32_t>(ranks.size()));
    PMIx_Info_list_add(node, PMIX_LOCAL_PEERS, join_ranks(ranks).c_str(), PMIX_STRING);
    if (!ranks.empty()) add_rank(node, PMIX_LOCALLDR, ranks.front());
    return add_array(list, PMIX_NODE_INFO_ARRAY, node);
}

// Rank first in the array, as the standard asks.
pmix_status_t add_procs(void *list, const JobLayout &layout)
{
    for (std::size_t n = 0; n < layout.nodes.size(); ++n) {
        for (std::size_t i = 0; i < layout.ranks[n].size(); ++i) {
            const pmix_rank_t rank = layout.ranks[n][i];
            void *proc = PMIx_Info_list_start();
            add_rank(proc, PMIX_RANK, rank);
            add_u32(proc, PMIX_APPNUM, 0);
            add_rank(proc, PMIX_GLOBAL_RANK, rank);
            add_rank(proc, PMIX_APP_RANK, rank);
            add_u16(proc, PMIX_LOCAL_RANK, static_cast<uint16_t>(i));
            add_u16(proc, PMIX_NODE_RANK, static_cast<uint16_t>(i));
            add_u32(proc, PMIX_NODEID, static_cast<uint32_t>(n));
            PMIx_Info_list_add(proc, PMIX_HOSTNAME, layout.nodes[n].c_str(), PMIX_STRING);
            const pmix_status_t rc = add_array(list, PMIX_PROC_DATA, proc);
            if (rc != PMIX_SUCCESS) return rc;
        }
    }
    return PMIX_SUCCESS;
}

void add_int(void *list, const char *key, int value)
{
    PMIx_Info_list_add(list, key, &value, PMIX_INT);
}

// Slurm 22.05's _set_procdatas/_set_localinfo, quirks included.
pmix_status_t fill_slurm(void *list, const JobLayout &layout)
{
    const auto here = static_cast<uint32_t>(layout.local_node);
    add_u32(list, PMIX_UNIV_SIZE, layout.job_size);
    add_u32(list, PMIX_LOCAL_SIZE, static_cast<uint32_t>(layout.local_ranks().size()));
    add_u32(list, PMIX_NODE_SIZE, static_cast<uint32_t>(layout.local_ranks().size()));
    add_u32(list, PMIX_MAX_PROCS, layout.job_size);
    add_u32(list, PMIX_NODEID, here);
    PMIx_Info_list_add(list, PMIX_LOCAL_PEERS, join_ranks(layout.local_ranks()).c_str(), PMIX_STRING);
    if (!layout.local_ranks().empty()) add_u32(list, PMIX_LOCALLDR, layout.local_ranks().front());
    for (std::size_t n = 0; n < layout.nodes.size(); ++n) {
        for (std::size_t i = 0; i < layout.ranks[n].size(); ++i) {
            const pmix_rank_t rank = layout.ranks[n][i];
            void *proc = PMIx_Info_list_start();
            add_rank(proc, PMIX_RANK, rank);
            add_int(proc, PMIX_APPNUM, 0);
            add_int(proc, PMIX_APPLDR, 0);
            add_u32(proc, PMIX_GLOBAL_RANK, rank);
            add_u32(proc, PMIX_APP_RANK, rank);
            if (n == layout.local_node) {
                add_u16(proc, PMIX_LOCAL_RANK, static_cast<uint16_t>(i));
                add_u16(proc, PMIX_NODE_RANK, static_cast<uint16_t>(i));
            }
            PMIx_Info_list_add(proc, PMIX_HOSTNAME, layout.nodes[n].c_str(), PMIX_STRING);
            add_u32(proc, PMIX_NODEID, here);
            const pmix_status_t rc = add_array(list, PMIX_PROC_DATA, proc);
            if (rc != PMIX_SUCCESS) return rc;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t fill_full(void *list, const JobSpec &spec, const JobLayout &layout)
{
    const uint32_t univ = spec.univ_size != 0 ? spec.univ_size : 2 * layout.job_size;
    add_u32(list, PMIX_UNIV_SIZE, univ);
    add_u32(list, PMIX_MAX_PROCS, univ);
    PMIx_Info_list_add(list, PMIX_JOBID, spec.nspace.c_str(), PMIX_STRING);
    add_u32(list, PMIX_NUM_NODES, static_cast<uint32_t>(layout.nodes.size()));
    add_u32(list, PMIX_JOB_NUM_APPS, 1);
    add_u32(list, PMIX_APPNUM, 0);
    add_u32(list, PMIX_APP_SIZE, layout.job_size);
    add_rank(list, PMIX_APPLDR, 0);
    pmix_status_t rc = add_local_node(list, layout);
    if (rc == PMIX_SUCCESS) rc = add_procs(list, layout);
    return rc;
}

pmix_status_t make_info(const JobSpec &spec, const JobLayout &layout, pmix_data_array_t *array_p, std::string *error_p)
{
    std::string node_map;
    std::string proc_map;
    pmix_status_t rc = make_maps(layout, &node_map, &proc_map);
    if (rc != PMIX_SUCCESS) {
        if (error_p) *error_p = "PMIx_generate_regex/ppn: " + status_name(rc);
        return rc;
    }
    void *list = PMIx_Info_list_start();
    add_u32(list, PMIX_JOB_SIZE, layout.job_size);
    PMIx_Info_list_add(list, PMIX_NODE_MAP, node_map.c_str(), PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_PROC_MAP, proc_map.c_str(), PMIX_STRING);
    if (spec.style == InfoStyle::full) rc = fill_full(list, spec, layout);
    else if (spec.style == InfoStyle::slurm) rc = fill_slurm(list, layout);
    else if (spec.univ_size != 0) add_u32(list, PMIX_UNIV_SIZE, spec.univ_size);
    if (rc == PMIX_SUCCESS) rc = PMIx_Info_list_convert(list, array_p);
    PMIx_Info_list_release(list);
    if (rc != PMIX_SUCCESS && error_p) *error_p = "building the registration info: " + status_name(rc);
    return rc;
}

}  // namespace

pmix_status_t Host::register_job(const JobSpec &spec, JobLayout *layout_p, std::string *error_p)
{
    if (!started_) return PMIX_ERR_INIT;
    if (spec.nspace.empty() || spec.nspace.size() > PMIX_MAX_NSLEN || spec.local_procs < 0 || spec.remote_procs < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    const JobLayout layout = make_layout(spec, options_.node_name.empty() ? hostname_ : options_.node_name);
    pmix_data_array_t array;
    pmix_status_t rc = make_info(spec, layout, &array, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    auto *op = new OpWait;
    rc = PMIx_server_register_nspace(spec.nspace.c_str(), spec.local_procs, static_cast<pmix_info_t *>(array.array),
                                     array.size, op_wait_callback, op);
    rc = wait_op(rc, op, "PMIx_server_register_nspace");
    PMIx_Data_array_destruct(&array);
    if (rc != PMIX_SUCCESS) {
        if (error_p) *error_p = "PMIx_server_register_nspace(" + spec.nspace + "): " + status_name(rc);
        return rc;
    }
    nspaces_.push_back(spec.nspace);
    for (pmix_rank_t rank : layout.local_ranks()) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, spec.nspace.c_str(), rank);
        op = new OpWait;
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), nullptr, op_wait_callback, op);
        rc = wait_op(rc, op, "PMIx_server_register_client");
        if (rc != PMIX_SUCCESS) {
            if (error_p)
                *error_p = "PMIx_server_register_client(rank " + std::to_string(rank) + "): " + status_name(rc);
            return rc;
        }
    }
    if (layout_p != nullptr) *layout_p = layout;
    return PMIX_SUCCESS;
}

pmix_status_t Host::deregister_job(const std::string &nspace)
{
    const auto it = std::find(nspaces_.begin(), nspaces_.end(), nspace);
    if (it == nspaces_.end()) return PMIX_ERR_NOT_FOUND;
    nspaces_.erase(it);
    auto *op = new OpWait;
    PMIx_server_deregister_nspace(nspace.c_str(), op_wait_callback, op);
    return wait_op(PMIX_SUCCESS, op, "PMIx_server_deregister_nspace");
}

}  // namespace pmixpp::itest
