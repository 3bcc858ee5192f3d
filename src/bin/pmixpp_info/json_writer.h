// Minimal streaming JSON writer for pmixpp_info --json: indented output,
// commas placed automatically, strings escaped per RFC 8259.
#ifndef PMIXPP_INFO_JSON_WRITER_H
#define PMIXPP_INFO_JSON_WRITER_H

#include <string>
#include <string_view>
#include <vector>

namespace pmixpp::info {

// Escapes `text` as the body of a JSON string (without the quotes).
std::string json_escape(std::string_view text);

class JsonWriter {
public:
    explicit JsonWriter(std::string *out_p) : out_(out_p) {}

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }

    // Object member name; the next value call writes its value.
    void key(std::string_view name);

    void string(std::string_view text);
    void number(long long value);
    void boolean(bool value);

    void member(std::string_view name, std::string_view text)
    {
        key(name);
        string(text);
    }
    void member(std::string_view name, const char *text) { member(name, std::string_view(text)); }
    void member(std::string_view name, long long value)
    {
        key(name);
        number(value);
    }
    void member(std::string_view name, int value) { member(name, static_cast<long long>(value)); }
    void member(std::string_view name, bool value)
    {
        key(name);
        boolean(value);
    }

private:
    void open(char bracket);
    void close(char bracket);
    void before_value();
    void newline();

    std::string *out_;
    std::vector<bool> has_items_; // one per open container
    bool after_key_ = false;
};

} // namespace pmixpp::info

#endif
