#include "common/iof/format.h"

#include <pmixpp/util.hpp>

#include <ctime>

namespace pmixpp::iof {

namespace {

const char *channel_name(uint16_t channel)
{
    switch (channel) {
    case PMIX_FWD_STDOUT_CHANNEL: return "stdout";
    case PMIX_FWD_STDERR_CHANNEL: return "stderr";
    default: return "stddiag";
    }
}

std::string line_prefix(const Format &format, const pmix_proc_t &source, uint16_t channel)
{
    std::string prefix;
    if (format.timestamp) {
        char when[64] = {};
        const std::time_t now = std::time(nullptr);
        std::tm local{};
        localtime_r(&now, &local);
        std::strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &local);
        prefix += std::string(when) + " ";
    }
    if (format.tag) {
        prefix +=
            "[" + util::nspace_of(source) + "," + std::to_string(source.rank) + "]<" + channel_name(channel) + ">: ";
    } else if (format.rank) {
        prefix += "[" + std::to_string(source.rank) + "]<" + channel_name(channel) + ">: ";
    }
    return prefix;
}

std::string xml_escaped(const std::string &text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        default: out += c;
        }
    }
    return out;
}

}  // namespace

Format format_of(const pmix_info_t directives[], std::size_t ndirs)
{
    Format format;
    for (std::size_t i = 0; directives != nullptr && i < ndirs; ++i) {
        const pmix_info_t &info = directives[i];
        const bool on = info.value.type != PMIX_BOOL || info.value.data.flag;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_TAG_OUTPUT)) format.tag = on;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_RANK_OUTPUT)) format.rank = on;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_TIMESTAMP_OUTPUT)) format.timestamp = on;
        if (PMIX_CHECK_KEY(&info, PMIX_IOF_XML_OUTPUT)) format.xml = on;
    }
    return format;
}

std::string apply(const Format &format, const pmix_proc_t &source, uint16_t channel, const std::string &bytes)
{
    std::string body;
    if (format.tag || format.rank || format.timestamp) {
        const std::string prefix = line_prefix(format, source, channel);
        bool line_start = true;
        for (char c : bytes) {
            if (line_start) body += prefix;
            body += c;
            line_start = c == '\n';
        }
    } else {
        body = bytes;
    }
    if (!format.xml) return body;
    return std::string("<") + channel_name(channel) + " nspace=\"" + xml_escaped(util::nspace_of(source)) +
           "\" rank=\"" + std::to_string(source.rank) + "\">" + xml_escaped(body) + "</" + channel_name(channel) +
           ">\n";
}

}  // namespace pmixpp::iof
