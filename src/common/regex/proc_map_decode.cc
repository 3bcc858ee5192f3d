// Proc map parser: "pmixpp1:0-15*10000+16" or a plain "0,1,2;3-5" list ->
// ranks per node. Grammar: regex.h, docs/regex.md.
#include "common/regex/regex.h"
#include "common/regex/scan.h"

#include <algorithm>
#include <cstdint>
#include <new>

namespace pmixpp::regex {
namespace {

using internal::Cursor;
using internal::refuse;

constexpr std::string_view kProcFix = "pass the output of PMIx_generate_ppn or a plain list like \"0,1;2-3\"";
// Ranks at or above this are PMIx's special values (wildcard, undef, ...).
constexpr std::int64_t kRankLimit = PMIX_RANK_VALID;

// A run as read back: first and last rank, not a count (the text gives both
// ends, and a bound check reads the last one).
struct ParsedRun {
    std::int64_t first;
    std::int64_t last;
    std::int64_t stride;
};

// The runs of one node, repeated on `repeat` consecutive nodes, each shifted
// by `delta` from the one before.
struct ParsedPattern {
    std::vector<ParsedRun> runs;
    std::int64_t repeat = 1;
    std::int64_t delta = 0;
    std::uint64_t ranks_per_node = 0;
};

bool read_bounded(Cursor *cursor, std::int64_t limit, std::int64_t *value_p)
{
    std::uint64_t value = 0;
    std::string_view digits;
    if (!cursor->read_number(&value, &digits)) return false;
    if (value >= static_cast<std::uint64_t>(limit)) return false;
    *value_p = static_cast<std::int64_t>(value);
    return true;
}

pmix_status_t parse_run(Cursor *cursor, ParsedRun *run_p)
{
    const std::string_view map = cursor->input();
    ParsedRun run{0, 0, 1};
    if (!read_bounded(cursor, kRankLimit, &run.first)) {
        return refuse("expected a rank below PMIX_RANK_VALID in the proc map", map, cursor->pos(), kProcFix);
    }
    run.last = run.first;
    if (cursor->accept('-')) {
        const std::size_t at = cursor->pos();
        if (!read_bounded(cursor, kRankLimit, &run.last)) {
            return refuse("expected the end rank of a range in the proc map", map, at, kProcFix);
        }
        if (run.last < run.first) return refuse("descending rank range in the proc map", map, at, kProcFix);
        if (cursor->accept('/')) {
            const std::size_t stride_at = cursor->pos();
            if (!read_bounded(cursor, kRankLimit, &run.stride) || run.stride == 0) {
                return refuse("expected a stride of at least 1 in the proc map", map, stride_at, kProcFix);
            }
            if ((run.last - run.first) % run.stride != 0) {
                return refuse("stride does not reach the end of its range in the proc map", map, stride_at, kProcFix);
            }
        }
    }
    *run_p = run;
    return PMIX_SUCCESS;
}

// "*COUNT" and an optional "+DELTA" / "-DELTA" after a node's runs.
pmix_status_t parse_repeat(Cursor *cursor, ParsedPattern *pattern_p)
{
    const std::string_view map = cursor->input();
    if (!cursor->accept('*')) return PMIX_SUCCESS;
    const std::size_t at = cursor->pos();
    if (!read_bounded(cursor, static_cast<std::int64_t>(kMaxNames) + 1, &pattern_p->repeat) || pattern_p->repeat == 0) {
        return refuse("expected a node count from 1 to 1048576 after '*' in the proc map", map, at, kProcFix);
    }
    const bool negative = cursor->peek() == '-';
    if (!cursor->accept('+') && !cursor->accept('-')) return PMIX_SUCCESS;
    const std::size_t delta_at = cursor->pos();
    if (!read_bounded(cursor, kRankLimit, &pattern_p->delta)) {
        return refuse("expected a rank shift after the node count in the proc map", map, delta_at, kProcFix);
    }
    if (negative) pattern_p->delta = -pattern_p->delta;
    return PMIX_SUCCESS;
}

// Every rank of every repetition must stay a valid rank; the extremes are
// reached on the first or the last repetition.
bool ranks_stay_valid(const ParsedPattern &pattern)
{
    const std::int64_t total_shift = (pattern.repeat - 1) * pattern.delta;
    for (const ParsedRun &run : pattern.runs) {
        if (run.first + std::min<std::int64_t>(0, total_shift) < 0) return false;
        if (run.last + std::max<std::int64_t>(0, total_shift) >= kRankLimit) return false;
    }
    return true;
}

class RankBudget {
public:
    // Accounts for `nodes` more nodes holding `ranks_each` ranks.
    bool take(std::uint64_t nodes, std::uint64_t ranks_each)
    {
        if (nodes > kMaxNames - nodes_) return false;
        if (ranks_each > kMaxRanks || (ranks_each != 0 && nodes > (kMaxRanks - ranks_) / ranks_each)) {
            return false;
        }
        nodes_ += nodes;
        ranks_ += nodes * ranks_each;
        return true;
    }

private:
    std::uint64_t nodes_ = 0;
    std::uint64_t ranks_ = 0;
};

pmix_status_t parse_pattern(Cursor *cursor, RankBudget *budget, ParsedPattern *pattern_p)
{
    const std::string_view map = cursor->input();
    ParsedPattern pattern;
    do {
        ParsedRun run{};
        const pmix_status_t rc = parse_run(cursor, &run);
        if (rc != PMIX_SUCCESS) return rc;
        pattern.ranks_per_node += static_cast<std::uint64_t>((run.last - run.first) / run.stride + 1);
        if (pattern.ranks_per_node > kMaxRanks) {
            return refuse("proc map expands to too many ranks", map, cursor->pos(), kProcFix);
        }
        pattern.runs.push_back(run);
    } while (cursor->accept(','));
    const pmix_status_t rc = parse_repeat(cursor, &pattern);
    if (rc != PMIX_SUCCESS) return rc;
    if (!ranks_stay_valid(pattern)) {
        return refuse("rank shift takes ranks below 0 or to PMIX_RANK_VALID in the proc map", map, cursor->pos(),
                      kProcFix);
    }
    if (!budget->take(static_cast<std::uint64_t>(pattern.repeat), pattern.ranks_per_node)) {
        return refuse("proc map expands to too many nodes (limit 1048576) or ranks (limit 67108864)", map,
                      cursor->pos(), "check the counts; split the job if it is real");
    }
    *pattern_p = std::move(pattern);
    return PMIX_SUCCESS;
}

void expand(const ParsedPattern &pattern, std::vector<std::vector<pmix_rank_t>> *ranks_p)
{
    for (std::int64_t node = 0; node < pattern.repeat; ++node) {
        const std::int64_t shift = node * pattern.delta;
        std::vector<pmix_rank_t> ranks;
        ranks.reserve(pattern.ranks_per_node);
        for (const ParsedRun &run : pattern.runs) {
            for (std::int64_t rank = run.first; rank <= run.last; rank += run.stride) {
                ranks.push_back(static_cast<pmix_rank_t>(rank + shift));
            }
        }
        ranks_p->push_back(std::move(ranks));
    }
}

// Plain lists are the same grammar without '/' and '*', so one parser serves both.
pmix_status_t parse_body(std::string_view map, std::size_t offset, std::vector<std::vector<pmix_rank_t>> *ranks_p)
{
    Cursor cursor(map, offset);
    RankBudget budget;
    std::vector<ParsedPattern> patterns;
    do {
        ParsedPattern pattern;
        const pmix_status_t rc = parse_pattern(&cursor, &budget, &pattern);
        if (rc != PMIX_SUCCESS) return rc;
        patterns.push_back(std::move(pattern));
    } while (cursor.accept(';'));
    if (!cursor.at_end()) {
        return refuse("unexpected character in the proc map", map, cursor.pos(), kProcFix);
    }
    for (const ParsedPattern &pattern : patterns) expand(pattern, ranks_p);
    return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t parse_proc_map(std::string_view map, std::vector<std::vector<pmix_rank_t>> *ranks_p)
{
    map = internal::strip_terminators(map);
    if (map.empty()) return refuse("empty proc map", map, 0, kProcFix);
    try {
        internal::MapFormat format{};
        std::size_t offset = 0;
        pmix_status_t rc = internal::classify(map, "proc map", &format, &offset);
        if (rc != PMIX_SUCCESS) return rc;
        std::vector<std::vector<pmix_rank_t>> ranks;
        rc = parse_body(map, offset, &ranks);
        if (rc != PMIX_SUCCESS) return rc;
        *ranks_p = std::move(ranks);
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

}  // namespace pmixpp::regex
