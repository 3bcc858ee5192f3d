// The text of a rendezvous file: format() and parse() (docs/rendezvous.md),
// and parse_openpmix() for the files OpenPMIx's servers write (its
// pmix_base_write_rndz_file), so that a tool of ours finds them too.
#include "common/rendezvous/rendezvous.h"

#include <charconv>
#include <limits>
#include <map>

namespace pmixpp::rendezvous {

namespace {

// The line that says the file is ours: a file of another program (or of
// OpenPMIx, which has no such line) is never reclaimed or reaped.
constexpr std::string_view kMarkerKey = "pmixpp-rendezvous";
constexpr std::string_view kMarkerValue = "1";
constexpr std::string_view kVersionLine = "v4.2";
constexpr std::size_t kMaxText = 64 * 1024;
constexpr std::size_t kMaxOpenPmixText = 4096;

const char *const kKeys[] = {"uris", "nspace", "rank", "version", "pid", "uid", "gid", "start_time"};

std::string join_uris(const std::vector<std::string> &uris)
{
    std::string joined;
    for (const std::string &uri : uris) {
        if (!joined.empty()) joined += ';';
        joined += uri;
    }
    return joined;
}

// An OpenPMIx tool reads line 1 alone and speaks tcp only: the line names
// the first tcp URI when the server has one (our readers take every URI
// from the uris= line).
std::string first_line(const Contact &contact)
{
    std::string uri = contact.uris.empty() ? std::string() : contact.uris.front();
    for (const std::string &candidate : contact.uris) {
        if (candidate.rfind("tcp4://", 0) == 0 || candidate.rfind("tcp6://", 0) == 0) {
            uri = candidate;
            break;
        }
    }
    return contact.server_nspace + "." + std::to_string(contact.server_rank) + ";" + uri;
}

pmix_status_t refuse(const std::string &why, std::string *error_p)
{
    if (error_p != nullptr) *error_p = why;
    return PMIX_ERR_BAD_PARAM;
}

// Printable ASCII only: no line breaks or NULs hidden in a value.
bool printable(std::string_view text)
{
    for (char c : text) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return false;
    }
    return true;
}

template <typename Number> bool read_number(std::string_view text, Number *value_p)
{
    if (text.empty() || text.size() > 20) return false;
    unsigned long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return false;
    if (value > static_cast<unsigned long long>(std::numeric_limits<Number>::max())) return false;
    *value_p = static_cast<Number>(value);
    return true;
}

bool digits_only(std::string_view text)
{
    if (text.empty() || text.size() > 20) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

std::vector<std::string> split_uris(std::string_view text)
{
    std::vector<std::string> uris;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        uris.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return uris;
}

// Splits the text into lines; false when a line is not printable or the
// text does not end with a newline (a truncated file).
bool split_lines(std::string_view text, std::vector<std::string_view> *lines_p)
{
    if (text.empty() || text.back() != '\n') return false;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string_view line = text.substr(start, end - start);
        if (!printable(line)) return false;
        lines_p->push_back(line);
        start = end + 1;
    }
    return true;
}

pmix_status_t read_fields(const std::map<std::string, std::string, std::less<>> &fields, Contact *contact,
                          std::string *error_p)
{
    contact->uris = split_uris(fields.at("uris"));
    for (const std::string &uri : contact->uris) {
        if (uri.empty()) return refuse("an empty URI in 'uris'", error_p);
    }
    contact->server_nspace = fields.at("nspace");
    if (contact->server_nspace.empty() || contact->server_nspace.size() > PMIX_MAX_NSLEN) {
        return refuse("'nspace' is empty or longer than 255 characters", error_p);
    }
    if (!read_number(fields.at("rank"), &contact->server_rank)) return refuse("'rank' is not a rank", error_p);
    contact->library_version = fields.at("version");
    if (contact->library_version.empty()) return refuse("'version' is empty", error_p);
    if (!read_number(fields.at("pid"), &contact->pid) || contact->pid <= 0) {
        return refuse("'pid' is not a process id", error_p);
    }
    if (!read_number(fields.at("uid"), &contact->uid)) return refuse("'uid' is not a user id", error_p);
    if (!read_number(fields.at("gid"), &contact->gid)) return refuse("'gid' is not a group id", error_p);
    contact->start_time = fields.at("start_time");
    if (!digits_only(contact->start_time)) return refuse("'start_time' is not a number", error_p);
    return PMIX_SUCCESS;
}

// OpenPMIx's file, which may lack a final newline.
std::vector<std::string_view> lines_of(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// "<nspace>.<rank>;<uri>", the rank after the last dot of the part before ';'.
bool read_uri_line(std::string_view line, Contact *contact_p)
{
    const std::size_t semicolon = line.find(';');
    if (semicolon == std::string_view::npos || semicolon + 1 == line.size()) return false;
    const std::string_view name = line.substr(0, semicolon);
    const std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || dot > PMIX_MAX_NSLEN) return false;
    if (!read_number(name.substr(dot + 1), &contact_p->server_rank)) return false;
    contact_p->server_nspace = std::string(name.substr(0, dot));
    contact_p->uris = {std::string(line.substr(semicolon + 1))};
    return true;
}

bool read_ids_line(std::string_view line, Contact *contact_p)
{
    const std::size_t colon = line.find(':');
    return colon != std::string_view::npos && read_number(line.substr(0, colon), &contact_p->uid) &&
           read_number(line.substr(colon + 1), &contact_p->gid);
}

}  // namespace

std::string system_file_name(const std::string &host)
{
    return "pmix.sys." + host;
}
std::string scheduler_file_name(const std::string &host)
{
    return "pmix.sched." + host;
}
std::string controller_file_name(const std::string &host)
{
    return "pmix.sysctrlr." + host;
}

std::string pid_file_name(const std::string &host, pid_t pid)
{
    return "pmix." + host + "." + std::to_string(pid);
}

std::string nspace_file_name(const std::string &host, const std::string &nspace)
{
    return "pmix." + host + "." + nspace;
}

std::string format(const Contact &contact)
{
    std::string text = first_line(contact) + "\n";
    text += std::string(kVersionLine) + "\n";
    text += std::string(kMarkerKey) + "=" + std::string(kMarkerValue) + "\n";
    text += "uris=" + join_uris(contact.uris) + "\n";
    text += "nspace=" + contact.server_nspace + "\n";
    text += "rank=" + std::to_string(contact.server_rank) + "\n";
    text += "version=" + contact.library_version + "\n";
    text += "pid=" + std::to_string(contact.pid) + "\n";
    text += "uid=" + std::to_string(contact.uid) + "\n";
    text += "gid=" + std::to_string(contact.gid) + "\n";
    text += "start_time=" + contact.start_time + "\n";
    return text;
}

pmix_status_t parse(std::string_view text, Contact *contact_p, std::string *error_p)
{
    if (contact_p == nullptr) return refuse("no Contact to fill", error_p);
    if (text.size() > kMaxText) return refuse("larger than 64 KiB", error_p);
    std::vector<std::string_view> lines;
    if (!split_lines(text, &lines)) {
        return refuse("not lines of printable text ending with a newline", error_p);
    }
    if (lines.size() < 2 || lines[1] != kVersionLine) return refuse("no 'v4.2' version line", error_p);
    std::map<std::string, std::string, std::less<>> fields;
    for (std::size_t i = 2; i < lines.size(); ++i) {
        const std::size_t equals = lines[i].find('=');
        if (equals == std::string_view::npos || equals == 0) return refuse("a line that is not key=value", error_p);
        const auto [at, fresh] = fields.emplace(lines[i].substr(0, equals), lines[i].substr(equals + 1));
        if (!fresh) return refuse("key '" + at->first + "' given twice", error_p);
    }
    const auto marker = fields.find(kMarkerKey);
    if (marker == fields.end() || marker->second != kMarkerValue) {
        return refuse("no 'pmixpp-rendezvous=1' line (not a pmixpp rendezvous file)", error_p);
    }
    for (const char *key : kKeys) {
        if (fields.find(key) == fields.end()) return refuse(std::string("no '") + key + "' line", error_p);
    }
    Contact contact;
    const pmix_status_t rc = read_fields(fields, &contact, error_p);
    if (rc != PMIX_SUCCESS) return rc;
    if (lines[0] != first_line(contact)) return refuse("line 1 does not match nspace, rank and URIs", error_p);
    *contact_p = std::move(contact);
    return PMIX_SUCCESS;
}

pmix_status_t parse_openpmix(std::string_view text, Contact *contact_p, std::string *error_p)
{
    if (text.size() > kMaxOpenPmixText) return refuse("larger than 4 KiB", error_p);
    for (char c : text) {
        if (c != '\n' && (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)) {
            return refuse("not lines of printable text", error_p);
        }
    }
    const std::vector<std::string_view> lines = lines_of(text);
    Contact contact;
    contact.openpmix_only = true;
    if (lines.empty() || !read_uri_line(lines[0], &contact)) {
        return refuse("line 1 is not \"<nspace>.<rank>;<uri>\"", error_p);
    }
    if (lines.size() < 2 || lines[1].empty()) return refuse("no version line", error_p);
    contact.library_version = std::string(lines[1]);
    if (contact.library_version.front() == 'v') contact.library_version.erase(0, 1);
    if (contact.library_version.empty()) return refuse("the version line names no version", error_p);
    // OpenPMIx 3.x stops after the version (read_any_file then takes the
    // file's owner); 4.x and 5.x add the pid and uid:gid.
    if (lines.size() >= 4) {
        if (!read_number(lines[2], &contact.pid) || contact.pid <= 0) return refuse("line 3 is not a pid", error_p);
        if (!read_ids_line(lines[3], &contact)) return refuse("line 4 is not \"<uid>:<gid>\"", error_p);
    }
    *contact_p = std::move(contact);
    return PMIX_SUCCESS;
}

}  // namespace pmixpp::rendezvous
