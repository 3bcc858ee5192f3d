#include "json_mini.h"

#include <cstdlib>

namespace pmixpp::tests {
namespace {

class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    bool parse_document(JsonValue *value_p)
    {
        if (!parse_value(value_p, 0)) {
            return false;
        }
        skip_space();
        return pos_ == text_.size() || fail("trailing characters");
    }

    std::string error;

private:
    bool fail(const char *what)
    {
        if (error.empty()) {
            error = std::string(what) + " at offset " + std::to_string(pos_);
        }
        return false;
    }

    void skip_space()
    {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t')) {
            ++pos_;
        }
    }

    bool literal(std::string_view word)
    {
        if (text_.substr(pos_, word.size()) != word) {
            return fail("bad literal");
        }
        pos_ += word.size();
        return true;
    }

    bool parse_value(JsonValue *value_p, int depth)
    {
        if (depth > 64) {
            return fail("nesting too deep");
        }
        skip_space();
        if (pos_ >= text_.size()) {
            return fail("unexpected end");
        }
        const char c = text_[pos_];
        if (c == '{') {
            return parse_object(value_p, depth);
        }
        if (c == '[') {
            return parse_array(value_p, depth);
        }
        if (c == '"') {
            value_p->kind = JsonValue::Kind::string;
            return parse_string(&value_p->string);
        }
        if (c == 't' || c == 'f') {
            value_p->kind = JsonValue::Kind::boolean;
            value_p->boolean = c == 't';
            return literal(c == 't' ? "true" : "false");
        }
        if (c == 'n') {
            value_p->kind = JsonValue::Kind::null;
            return literal("null");
        }
        return parse_number(value_p);
    }

    bool parse_number(JsonValue *value_p)
    {
        const size_t start = pos_;
        while (pos_ < text_.size() && std::string_view("+-0123456789.eE").find(text_[pos_]) != std::string_view::npos) {
            ++pos_;
        }
        if (start == pos_) {
            return fail("unexpected character");
        }
        const std::string digits(text_.substr(start, pos_ - start));
        char *end = nullptr;
        value_p->number = std::strtod(digits.c_str(), &end);
        value_p->kind = JsonValue::Kind::number;
        return *end == '\0' || fail("bad number");
    }

    bool parse_hex4(unsigned *code_p)
    {
        if (pos_ + 4 > text_.size()) {
            return fail("short \\u escape");
        }
        unsigned code = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            code <<= 4;
            if (h >= '0' && h <= '9') {
                code |= static_cast<unsigned>(h - '0');
            } else if (h >= 'a' && h <= 'f') {
                code |= static_cast<unsigned>(h - 'a' + 10);
            } else if (h >= 'A' && h <= 'F') {
                code |= static_cast<unsigned>(h - 'A' + 10);
            } else {
                return fail("bad hex digit");
            }
        }
        *code_p = code;
        return true;
    }

    static void append_utf8(std::string *out, unsigned code)
    {
        if (code < 0x80) {
            *out += static_cast<char>(code);
        } else if (code < 0x800) {
            *out += static_cast<char>(0xC0 | (code >> 6));
            *out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            *out += static_cast<char>(0xE0 | (code >> 12));
            *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            *out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    bool parse_escape(std::string *out)
    {
        if (pos_ >= text_.size()) {
            return fail("unterminated escape");
        }
        const char e = text_[pos_++];
        switch (e) {
        case '"': *out += '"'; return true;
        case '\\': *out += '\\'; return true;
        case '/': *out += '/'; return true;
        case 'b': *out += '\b'; return true;
        case 'f': *out += '\f'; return true;
        case 'n': *out += '\n'; return true;
        case 'r': *out += '\r'; return true;
        case 't': *out += '\t'; return true;
        case 'u': {
            unsigned code = 0;
            if (!parse_hex4(&code)) {
                return false;
            }
            append_utf8(out, code);  // surrogate pairs are not needed by these tests
            return true;
        }
        default: return fail("bad escape");
        }
    }

    bool parse_string(std::string *out)
    {
        ++pos_;  // opening quote
        out->clear();
        while (pos_ < text_.size()) {
            const char c = text_[pos_++];
            if (c == '"') {
                return true;
            }
            if (static_cast<unsigned char>(c) < 0x20) {
                return fail("raw control character in string");
            }
            if (c != '\\') {
                *out += c;
            } else if (!parse_escape(out)) {
                return false;
            }
        }
        return fail("unterminated string");
    }

    bool expect(char c)
    {
        skip_space();
        if (pos_ >= text_.size() || text_[pos_] != c) {
            return fail("unexpected character");
        }
        ++pos_;
        return true;
    }

    bool peek_is(char c)
    {
        skip_space();
        return pos_ < text_.size() && text_[pos_] == c;
    }

    bool consume(char c)
    {
        if (!peek_is(c)) {
            return false;
        }
        ++pos_;
        return true;
    }

    bool parse_array(JsonValue *value_p, int depth)
    {
        ++pos_;
        value_p->kind = JsonValue::Kind::array;
        if (peek_is(']')) {
            ++pos_;
            return true;
        }
        do {
            JsonValue item;
            if (!parse_value(&item, depth + 1)) {
                return false;
            }
            value_p->array.push_back(std::move(item));
        } while (consume(','));
        return expect(']');
    }

    bool parse_object(JsonValue *value_p, int depth)
    {
        ++pos_;
        value_p->kind = JsonValue::Kind::object;
        if (peek_is('}')) {
            ++pos_;
            return true;
        }
        do {
            std::string name;
            if (!peek_is('"') || !parse_string(&name) || !expect(':')) {
                return fail("bad object member");
            }
            JsonValue item;
            if (!parse_value(&item, depth + 1)) {
                return false;
            }
            if (!value_p->object.emplace(name, std::move(item)).second) {
                return fail("duplicate member");
            }
        } while (consume(','));
        return expect('}');
    }

    std::string_view text_;
    size_t pos_ = 0;
};

}  // namespace

const JsonValue *JsonValue::member(const std::string &name) const
{
    if (kind != Kind::object) {
        return nullptr;
    }
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &it->second;
}

bool json_parse(std::string_view text, JsonValue *value_p, std::string *error_p)
{
    Parser parser(text);
    JsonValue value;
    if (!parser.parse_document(&value)) {
        *error_p = parser.error;
        return false;
    }
    *value_p = std::move(value);
    return true;
}

}  // namespace pmixpp::tests
