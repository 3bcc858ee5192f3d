// Formatters of the containers (value, info, pdata, app, query, data array)
// and the dispatcher over all formatter tables.
#include <initializer_list>

#include <pmix.h>

#include "common/buffer/print_format.h"
#include "common/values/type_ops.h"
#include "common/values/type_table.h"

namespace pmixpp::buffer {

namespace {

using values::kTypeLimit;

struct FormatterIndex {
    FormatFn by_type[kTypeLimit] = {};
};

const FormatterIndex &formatter_index()
{
    static const FormatterIndex index = [] {
        FormatterIndex idx;
        for (FormatterSpan span : {scalar_formatters(), struct_formatters(), container_formatters()}) {
            for (size_t i = 0; i < span.count; ++i) {
                idx.by_type[span.formatters[i].type] = span.formatters[i].format;
            }
        }
        return idx;
    }();
    return index;
}

// Runs body with the indent two spaces deeper.
template <typename Body> void nested(Printer &pr, Body body)
{
    std::string outer = pr.indent;
    pr.indent += "  ";
    body();
    pr.indent = outer;
}

void put_key(Printer &pr, const char *key)
{
    pr.out.append(key, strnlen(key, PMIX_MAX_KEYLEN + 1));
}

void put_argv(Printer &pr, char *const *argv)
{
    if (argv == nullptr) {
        pr.out += "NULL";
        return;
    }
    for (size_t i = 0; argv[i] != nullptr; ++i) {
        pr.out += i == 0 ? "" : " ";
        pr.out += argv[i];
    }
}

void put_info_lines(Printer &pr, const pmix_info_t *info, size_t n)
{
    nested(pr, [&] {
        for (size_t i = 0; info != nullptr && i < n; ++i) {
            pr.line_break();
            format_info(pr, info[i]);
        }
    });
}

void format_value_element(Printer &pr, const void *element)
{
    format_value(pr, *static_cast<const pmix_value_t *>(element));
}

void format_info_element(Printer &pr, const void *element)
{
    format_info(pr, *static_cast<const pmix_info_t *>(element));
}

void format_pdata(Printer &pr, const void *element)
{
    const auto *pd = static_cast<const pmix_pdata_t *>(element);
    pr.out += "Proc: ";
    format_element(pr, &pd->proc, PMIX_PROC);
    pr.out += " Key: ";
    put_key(pr, pd->key);
    pr.out += " Value: ";
    format_value(pr, pd->value);
}

void format_app(Printer &pr, const void *element)
{
    const auto *app = static_cast<const pmix_app_t *>(element);
    pr.out += format_text("Cmd: %s Argv: ", app->cmd == nullptr ? "NULL" : app->cmd);
    put_argv(pr, app->argv);
    pr.out += format_text(" Cwd: %s Maxprocs: %d Env: ", app->cwd == nullptr ? "NULL" : app->cwd, app->maxprocs);
    put_argv(pr, app->env);
    pr.out += format_text(" Info: %zu", app->ninfo);
    put_info_lines(pr, app->info, app->ninfo);
}

void format_query(Printer &pr, const void *element)
{
    const auto *q = static_cast<const pmix_query_t *>(element);
    pr.out += "Keys: ";
    put_argv(pr, q->keys);
    pr.out += format_text(" Qualifiers: %zu", q->nqual);
    put_info_lines(pr, q->qualifiers, q->nqual);
}

void format_data_array(Printer &pr, const void *element)
{
    const auto *da = static_cast<const pmix_data_array_t *>(element);
    pr.out += format_text("Array of %zu %s", da->size, PMIx_Data_type_string(da->type));
    size_t stride = values::element_size(da->type);
    if (da->array == nullptr || stride == 0) {
        return;
    }
    nested(pr, [&] {
        for (size_t i = 0; i < da->size; ++i) {
            pr.line_break();
            pr.out += format_text("[%zu] ", i);
            format_element(pr, static_cast<const char *>(da->array) + i * stride, da->type);
        }
    });
}

constexpr Formatter kContainerFormatters[] = {
    {PMIX_VALUE, format_value_element}, {PMIX_INFO, format_info_element},
    {PMIX_PDATA, format_pdata},         {PMIX_APP, format_app},
    {PMIX_QUERY, format_query},         {PMIX_DATA_ARRAY, format_data_array},
};

}  // namespace

FormatterSpan container_formatters()
{
    return {kContainerFormatters, sizeof kContainerFormatters / sizeof kContainerFormatters[0]};
}

void format_element(Printer &pr, const void *element, pmix_data_type_t type)
{
    FormatFn format = type < kTypeLimit ? formatter_index().by_type[type] : nullptr;
    if (format == nullptr) {
        pr.out += format_text("<unprintable type %u>", type);
        return;
    }
    // No depth bound: whatever nests here was built by the caller or came
    // through unpack, which bounds hostile nesting (kMaxUnpackDepth).
    format(pr, element);
}

void format_value(Printer &pr, const pmix_value_t &value)
{
    pr.out += PMIx_Data_type_string(value.type);
    pr.out += ": ";
    if (value.type == PMIX_UNDEF) {
        pr.out += "-";
        return;
    }
    const values::TypeTraits *traits = values::find_type(value.type);
    values::ValueHolding holding = traits == nullptr ? values::ValueHolding::kNotHeld : traits->holding;
    switch (holding) {
    case values::ValueHolding::kInline: format_element(pr, &value.data, value.type); break;
    case values::ValueHolding::kBoxed:
        if (value.data.ptr == nullptr) {
            pr.out += "NULL";
        } else {
            format_element(pr, value.data.ptr, value.type);
        }
        break;
    default: format_element(pr, &value.data.ptr, PMIX_POINTER); break;
    }
}

void format_info(Printer &pr, const pmix_info_t &info)
{
    pr.out += "Key: ";
    put_key(pr, info.key);
    if (info.flags != 0) {
        pr.out += " Flags: ";
        format_element(pr, &info.flags, PMIX_INFO_DIRECTIVES);
    }
    pr.out += " Value: ";
    format_value(pr, info.value);
}

}  // namespace pmixpp::buffer
