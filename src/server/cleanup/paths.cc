#include "server/cleanup/paths.h"

namespace pmixpp::cleanup {

namespace {

std::string_view trimmed(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    return text;
}

}  // namespace

std::vector<std::string> split_list(std::string_view list)
{
    std::vector<std::string> entries;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view entry = trimmed(list.substr(0, comma));
        if (!entry.empty()) entries.emplace_back(entry);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return entries;
}

pmix_status_t normalize_path(std::string_view path, std::string *normal_p, std::string *why_p)
{
    const std::string quoted = "\"" + std::string(path) + "\"";
    if (path.empty() || path.front() != '/') {
        *why_p = quoted + " is not an absolute path (the server cannot know the client's working directory)";
        return PMIX_ERR_BAD_PARAM;
    }
    std::string normal;
    while (!path.empty()) {
        while (!path.empty() && path.front() == '/') path.remove_prefix(1);
        const std::size_t slash = path.find('/');
        const std::string_view component = path.substr(0, slash);
        path.remove_prefix(slash == std::string_view::npos ? path.size() : slash);
        if (component.empty() || component == ".") continue;
        if (component == "..") {
            *why_p = quoted + " has a \"..\" component (give the path without it)";
            return PMIX_ERR_BAD_PARAM;
        }
        normal += '/';
        normal += component;
    }
    if (normal.empty()) {
        *why_p = quoted + " names the root directory, which is never cleaned";
        return PMIX_ERR_BAD_PARAM;
    }
    *normal_p = std::move(normal);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::cleanup
