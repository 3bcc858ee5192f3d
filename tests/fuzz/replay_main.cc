// The corpus replay: runs a fuzz target's LLVMFuzzerTestOneInput once over
// every file in the directories given (its seed corpus and its regression
// inputs), so the normal build (gcc, no libFuzzer) keeps every seed and
// every crash ever found as a test. A crash or a violated invariant aborts
// the process and fails the test; the last "replaying" line names the input.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace fs = std::filesystem;

int main(int argc, char **argv)
{
    size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        if (!fs::is_directory(argv[i], ec)) continue;  // e.g. no regressions yet
        std::vector<fs::path> inputs;
        for (const auto &entry : fs::directory_iterator(argv[i])) {
            if (entry.is_regular_file() && entry.path().filename().string().front() != '.') {
                inputs.push_back(entry.path());
            }
        }
        std::sort(inputs.begin(), inputs.end());
        for (const fs::path &path : inputs) {
            std::ifstream in(path, std::ios::binary);
            const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(), bytes.size());
            // A copy of exactly its size, so ASan sees any read past the end.
            std::vector<uint8_t> input(bytes.begin(), bytes.end());
            LLVMFuzzerTestOneInput(input.empty() ? nullptr : input.data(), input.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    if (replayed == 0) {
        std::fprintf(stderr, "no inputs found: give the corpus directories\n");
        return 1;
    }
    return 0;
}
