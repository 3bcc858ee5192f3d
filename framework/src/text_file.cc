#include "text_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace pmixpp::framework {
namespace {

bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string_view drop_blanks(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size() && is_blank(text[i])) ++i;
    return text.substr(i);
}

bool write_all(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t wrote = ::write(fd, text.data(), text.size());
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) return false;
        text.remove_prefix(static_cast<std::size_t>(wrote));
    }
    return true;
}

}  // namespace

bool read_text_file(const std::string &path, std::string *text_p, std::size_t limit)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    std::string text;
    char buffer[4096];
    bool ok = true;
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 || text.size() + static_cast<std::size_t>(got > 0 ? got : 0) > limit) ok = false;
        if (got <= 0 || !ok) break;
        text.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    if (ok) *text_p = std::move(text);
    return ok;
}

bool replace_text_file(const std::string &path, std::string_view text)
{
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    const bool written = write_all(fd, text);
    const bool closed = ::close(fd) == 0;
    if (!written || !closed || ::rename(temporary.c_str(), path.c_str()) != 0) {
        ::unlink(temporary.c_str());
        return false;
    }
    return true;
}

std::vector<std::string_view> lines_of(std::string_view text)
{
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const auto end = text.find('\n');
        lines.push_back(text.substr(0, end));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

bool split_fields(std::string_view line, std::size_t count, std::vector<std::string_view> *fields_p,
                  std::string_view *rest_p)
{
    fields_p->clear();
    line = drop_blanks(line);
    while (fields_p->size() < count && !line.empty()) {
        std::size_t end = 0;
        while (end < line.size() && !is_blank(line[end])) ++end;
        fields_p->push_back(line.substr(0, end));
        line = drop_blanks(line.substr(end));
    }
    if (rest_p != nullptr) *rest_p = line;
    return fields_p->size() == count;
}

}  // namespace pmixpp::framework
