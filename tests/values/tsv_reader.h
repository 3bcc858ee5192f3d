// Reads the constants TSVs kept in src/common/values/data (tests only).
#ifndef PMIXPP_TESTS_VALUES_TSV_READER_H
#define PMIXPP_TESTS_VALUES_TSV_READER_H

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tsv {

struct Row {
    std::string kind, name, value, value_type, header;
};

inline std::vector<Row> read(const char *file)
{
    const char *src = std::getenv("PMIXPP_SOURCE_DIR");
    std::string path = std::string(src ? src : ".") + "/src/common/values/data/" + file;
    std::ifstream in(path);
    std::vector<Row> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> cols;
        std::stringstream ss(line);
        std::string col;
        while (std::getline(ss, col, '\t')) {
            cols.push_back(col);
        }
        cols.resize(5);
        rows.push_back(Row{cols[0], cols[1], cols[2], cols[3], cols[4]});
    }
    return rows;
}

// A two-column TSV after its header line (value, text).
inline std::vector<std::pair<std::string, std::string>> read_pairs(const char *file)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const Row &row : read(file)) pairs.emplace_back(row.kind, row.name);
    return pairs;
}

}  // namespace tsv

#endif
