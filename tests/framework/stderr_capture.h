// Captures what the code under test writes to file descriptor 2, so a test
// can assert the exact lines printed.
#ifndef PMIXPP_TESTS_FRAMEWORK_STDERR_CAPTURE_H
#define PMIXPP_TESTS_FRAMEWORK_STDERR_CAPTURE_H

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace pmixpp::tests {

class StderrCapture {
public:
    StderrCapture()
    {
        char path[] = "/tmp/pmixpp-stderr-XXXXXX";
        const int fd = ::mkstemp(path);
        path_ = path;
        std::fflush(stderr);
        saved_ = ::dup(2);
        ::dup2(fd, 2);
        ::close(fd);
    }
    StderrCapture(const StderrCapture &) = delete;
    StderrCapture &operator=(const StderrCapture &) = delete;
    ~StderrCapture()
    {
        stop();
        ::unlink(path_.c_str());
    }

    // Restores fd 2 and returns everything written since construction.
    std::string stop()
    {
        if (saved_ >= 0) {
            std::fflush(stderr);
            ::dup2(saved_, 2);
            ::close(saved_);
            saved_ = -1;
            std::ifstream file(path_);
            std::ostringstream text;
            text << file.rdbuf();
            text_ = text.str();
        }
        return text_;
    }

    std::vector<std::string> lines()
    {
        std::vector<std::string> result;
        std::istringstream text(stop());
        for (std::string line; std::getline(text, line);) result.push_back(line);
        return result;
    }

private:
    std::string path_;
    std::string text_;
    int saved_ = -1;
};

}  // namespace pmixpp::tests

#endif
