// Human-readable rendering of PMIx data for PMIx_Data_print,
// PMIx_Value_string and PMIx_Info_string. Scalars render on one line;
// containers put each member on its own line, indented two more spaces.
#ifndef PMIXPP_COMMON_BUFFER_PRINT_FORMAT_H
#define PMIXPP_COMMON_BUFFER_PRINT_FORMAT_H

#include <string>

#include <pmix_common.h>

namespace pmixpp::buffer {

// Where the text goes and the indentation of the current container.
struct Printer {
    std::string out;
    std::string indent;

    void line_break()
    {
        out += '\n';
        out += indent;
    }
};

// Appends one element (layout as in values/type_ops.h) without a type label.
// May throw std::bad_alloc.
void format_element(Printer &pr, const void *element, pmix_data_type_t type);
// "PMIX_TYPE: payload" of a value.
void format_value(Printer &pr, const pmix_value_t &value);
void format_info(Printer &pr, const pmix_info_t &info);

using FormatFn = void (*)(Printer &, const void *element);
struct Formatter {
    pmix_data_type_t type;
    FormatFn format;
};
struct FormatterSpan {
    const Formatter *formatters;
    size_t count;
};
FormatterSpan scalar_formatters();
FormatterSpan struct_formatters();
FormatterSpan container_formatters();

// printf into a std::string.
std::string format_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace pmixpp::buffer

#endif
