#include "json_writer.h"

#include <cstdio>

namespace pmixpp::info {

std::string json_escape(std::string_view text)
{
    std::string escaped;
    escaped.reserve(text.size() + 2);
    for (const char c : text) {
        switch (c) {
        case '"': escaped += "\\\""; break;
        case '\\': escaped += "\\\\"; break;
        case '\b': escaped += "\\b"; break;
        case '\f': escaped += "\\f"; break;
        case '\n': escaped += "\\n"; break;
        case '\r': escaped += "\\r"; break;
        case '\t': escaped += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char code[8];
                std::snprintf(code, sizeof(code), "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                escaped += code;
            } else {
                // Bytes >= 0x80 pass through: paths and values are UTF-8.
                escaped += c;
            }
        }
    }
    return escaped;
}

void JsonWriter::newline()
{
    *out_ += '\n';
    out_->append(2 * has_items_.size(), ' ');
}

void JsonWriter::before_value()
{
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (has_items_.empty()) {
        return;
    }
    if (has_items_.back()) {
        *out_ += ',';
    }
    has_items_.back() = true;
    newline();
}

void JsonWriter::open(char bracket)
{
    before_value();
    *out_ += bracket;
    has_items_.push_back(false);
}

void JsonWriter::close(char bracket)
{
    const bool had_items = has_items_.back();
    has_items_.pop_back();
    if (had_items) {
        newline();
    }
    *out_ += bracket;
}

void JsonWriter::key(std::string_view name)
{
    before_value();
    *out_ += '"';
    *out_ += json_escape(name);
    *out_ += "\": ";
    after_key_ = true;
}

void JsonWriter::string(std::string_view text)
{
    before_value();
    *out_ += '"';
    *out_ += json_escape(text);
    *out_ += '"';
}

void JsonWriter::number(long long value)
{
    before_value();
    *out_ += std::to_string(value);
}

void JsonWriter::boolean(bool value)
{
    before_value();
    *out_ += value ? "true" : "false";
}

} // namespace pmixpp::info
