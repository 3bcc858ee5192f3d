// The component index: one small text file per component directory that
// says, for each pmixpp_<fw>_<name>.so in it, what its descriptor says
// (framework, name, version, default priority), so that selection can order
// the candidates and leave alone the ones it does not need without dlopening
// every file. Written at build and install time (`pmixpp_info --write-index
// DIR`), read at run time.
//
// An entry counts only while the file it describes is the one indexed (same
// size and modification time). A file with no entry, or with a stale one,
// is loaded to learn the same facts, as before there was an index: an
// out-of-tree component dropped into the directory later works unchanged.
// A missing or unreadable index means no entries.
//
//   pmixpp-component-index 1
//   <framework> <name> <default priority> <size> <mtime s> <mtime ns> <version>
#ifndef PMIXPP_FRAMEWORK_COMPONENT_INDEX_H
#define PMIXPP_FRAMEWORK_COMPONENT_INDEX_H

#include <pmix_common.h>

#include <optional>
#include <string>
#include <vector>

namespace pmixpp::framework {

inline constexpr const char *component_index_file = "pmixpp-components.index";

struct IndexEntry {
    std::string framework;
    std::string name;
    int priority = 0;
    std::string version;
};

// The entry for the component file at `path` (<dir>/pmixpp_<fw>_<name>.so)
// when the index of <dir> has one and the file is still the one indexed.
// Indexes are read once per process and directory.
std::optional<IndexEntry> fresh_index_entry(const std::string &path);

// Forgets what was read (tests that rewrite an index in one process).
void forget_component_indexes();

// Loads every component file in `directory` as selection would (preflight,
// entry symbol, descriptor checks) and writes the index of those accepted,
// replacing the old one atomically. *lines_p gets one line per file left
// out and why. PMIX_ERR_NOT_FOUND when the directory holds no component
// file; other errors: the directory cannot be written.
pmix_status_t write_component_index(const std::string &directory, std::vector<std::string> *lines_p);

}  // namespace pmixpp::framework

#endif
