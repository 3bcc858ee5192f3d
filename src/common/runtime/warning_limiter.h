// Warnings that an attacker or a broken job can cause by the thousand (a
// connection refused, a request over a limit) are printed as one line per
// cause per second: the first at once, then "(N more ... in the last 1 s)"
// when the second ends, so a flood neither fills the log nor costs a write
// per event. Progress thread only.
#ifndef PMIXPP_COMMON_RUNTIME_WARNING_LIMITER_H
#define PMIXPP_COMMON_RUNTIME_WARNING_LIMITER_H

#include "common/runtime/progress_engine.h"

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>

namespace pmixpp::runtime {

class WarningLimiter {
public:
    WarningLimiter(ProgressEngine &engine, std::string area,
                   std::chrono::milliseconds window = std::chrono::milliseconds{1000});
    ~WarningLimiter();
    WarningLimiter(const WarningLimiter &) = delete;
    WarningLimiter &operator=(const WarningLimiter &) = delete;

    // cause: a short fixed key ("refused-uid"); text: the line for this one.
    void note(const std::string &cause, const std::string &text);
    // Lines printed and occurrences swallowed so far (for tests).
    std::size_t printed() const { return printed_; }
    std::size_t swallowed() const { return swallowed_total_; }

private:
    struct Cause {
        std::size_t swallowed = 0;
        std::string last_text;
        Timer window_end;
    };
    void close_window(const std::string &cause);

    ProgressEngine &engine_;
    std::string area_;
    std::chrono::milliseconds window_;
    std::map<std::string, Cause> causes_;
    std::shared_ptr<bool> alive_;
    std::size_t printed_ = 0;
    std::size_t swallowed_total_ = 0;
};

}  // namespace pmixpp::runtime

#endif
