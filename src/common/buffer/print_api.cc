// PMIx_Data_print, PMIx_Value_string, PMIx_Info_string.
#include <cstring>
#include <new>

#include <pmix.h>

#include "common/buffer/print_format.h"

namespace {

char *to_malloced(const std::string &text)
{
    return strdup(text.c_str());
}

}  // namespace

extern "C" {

pmix_status_t PMIx_Data_print(char **output, char *prefix, void *src, pmix_data_type_t type)
{
    if (output == nullptr) {
        return PMIX_ERR_BAD_PARAM;
    }
    // As with PMIx_Data_copy, a string is passed as itself, not by address.
    bool by_value = type == PMIX_STRING;
    if (src == nullptr && !by_value) {
        return PMIX_ERR_BAD_PARAM;
    }
    try {
        pmixpp::buffer::Printer pr;
        pr.indent = prefix == nullptr ? "" : prefix;
        pr.out = pr.indent;
        pr.out += PMIx_Data_type_string(type);
        pr.out += ": ";
        pmixpp::buffer::format_element(pr, by_value ? &src : src, type);
        char *text = to_malloced(pr.out);
        if (text == nullptr) {
            return PMIX_ERR_NOMEM;
        }
        *output = text;
        return PMIX_SUCCESS;
    } catch (const std::bad_alloc &) {
        return PMIX_ERR_NOMEM;
    }
}

char *PMIx_Value_string(const pmix_value_t *value)
{
    if (value == nullptr) {
        return nullptr;
    }
    try {
        pmixpp::buffer::Printer pr;
        pmixpp::buffer::format_value(pr, *value);
        return to_malloced(pr.out);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

char *PMIx_Info_string(const pmix_info_t *info)
{
    if (info == nullptr) {
        return nullptr;
    }
    try {
        pmixpp::buffer::Printer pr;
        pmixpp::buffer::format_info(pr, *info);
        return to_malloced(pr.out);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

}  // extern "C"
