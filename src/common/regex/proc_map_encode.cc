// Proc map generator: per-node rank lists -> "pmixpp1:" runs and node
// patterns. Grammar: regex.h, docs/regex.md.
#include "common/regex/regex.h"
#include "common/regex/scan.h"

#include <cstdint>
#include <new>

namespace pmixpp::regex {
namespace {

// An arithmetic progression of ranks on one node.
struct RankRun {
    std::int64_t first;
    std::int64_t count;
    std::int64_t stride;
};

struct NodePattern {
    std::vector<RankRun> runs;
    std::int64_t repeat = 1;
    std::int64_t delta = 0;
};

// Greedy: step-1 runs of any length; longer steps (cyclic maps) only from
// three ranks on, so "0,5,6,7" becomes "0,5-7" and not "0-5/5,6-7".
std::vector<RankRun> runs_of(const std::vector<pmix_rank_t> &ranks)
{
    std::vector<RankRun> runs;
    std::size_t i = 0;
    while (i < ranks.size()) {
        const std::int64_t first = ranks[i];
        std::size_t last = i;
        if (i + 1 < ranks.size() && ranks[i + 1] > ranks[i]) {
            const std::int64_t stride = static_cast<std::int64_t>(ranks[i + 1]) - first;
            while (last + 1 < ranks.size() && static_cast<std::int64_t>(ranks[last + 1]) - ranks[last] == stride) {
                ++last;
            }
            const auto count = static_cast<std::int64_t>(last - i + 1);
            if (stride == 1 || count >= 3) {
                runs.push_back({first, count, stride});
                i = last + 1;
                continue;
            }
        }
        runs.push_back({first, 1, 1});
        ++i;
    }
    return runs;
}

// True when `next` is `base` with every run moved by the same amount.
bool shifted_copy(const std::vector<RankRun> &base, const std::vector<RankRun> &next, std::int64_t *shift_p)
{
    if (base.size() != next.size()) return false;
    const std::int64_t shift = next.front().first - base.front().first;
    for (std::size_t i = 0; i < base.size(); ++i) {
        if (base[i].count != next[i].count || base[i].stride != next[i].stride ||
            next[i].first - base[i].first != shift) {
            return false;
        }
    }
    *shift_p = shift;
    return true;
}

bool extends(NodePattern *pattern_p, const std::vector<RankRun> &runs)
{
    std::int64_t shift = 0;
    if (!shifted_copy(pattern_p->runs, runs, &shift)) return false;
    if (pattern_p->repeat == 1) {
        pattern_p->delta = shift;
    } else if (shift != pattern_p->repeat * pattern_p->delta) {
        return false;
    }
    ++pattern_p->repeat;
    return true;
}

void append_run(const RankRun &run, std::string *out_p)
{
    *out_p += std::to_string(run.first);
    if (run.count == 1) return;
    *out_p += '-';
    *out_p += std::to_string(run.first + (run.count - 1) * run.stride);
    if (run.stride == 1) return;
    *out_p += '/';
    *out_p += std::to_string(run.stride);
}

void append_pattern(const NodePattern &pattern, std::string *out_p)
{
    for (std::size_t i = 0; i < pattern.runs.size(); ++i) {
        if (i > 0) *out_p += ',';
        append_run(pattern.runs[i], out_p);
    }
    if (pattern.repeat == 1) return;
    *out_p += '*';
    *out_p += std::to_string(pattern.repeat);
    if (pattern.delta > 0) *out_p += '+' + std::to_string(pattern.delta);
    if (pattern.delta < 0) *out_p += '-' + std::to_string(-pattern.delta);
}

}  // namespace

pmix_status_t generate_ppn_regex(std::string_view semicolon_separated_ranks, std::string *regex_p)
{
    if (semicolon_separated_ranks.empty()) {
        return internal::refuse("empty per-node rank list", semicolon_separated_ranks, 0,
                                "pass ranks per node like \"0,1;2-3\"");
    }
    try {
        std::vector<std::vector<pmix_rank_t>> nodes;
        const pmix_status_t rc = parse_proc_map(semicolon_separated_ranks, &nodes);
        if (rc != PMIX_SUCCESS) return rc;
        std::vector<NodePattern> patterns;
        for (const std::vector<pmix_rank_t> &ranks : nodes) {
            std::vector<RankRun> runs = runs_of(ranks);
            if (patterns.empty() || !extends(&patterns.back(), runs)) {
                patterns.push_back(NodePattern{std::move(runs), 1, 0});
            }
        }
        std::string regex(kFormatTag);
        for (std::size_t i = 0; i < patterns.size(); ++i) {
            if (i > 0) regex += ';';
            append_pattern(patterns[i], &regex);
        }
        *regex_p = std::move(regex);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::regex
