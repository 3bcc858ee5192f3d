// type_ops.h over every data type: sizes, deep copies, releases, comparisons.
#include <criterion/criterion.h>

#include <cstring>

#include "common/values/type_ops.h"
#include "common/values/type_table.h"
#include "values/samples.h"

using namespace pmixpp::values;

namespace {

pmix_value_cmp_t compare(const void *a, const void *b, pmix_data_type_t type)
{
    return find_element_type(type)->compare(a, b);
}

bool all_zero(const void *p, size_t n)
{
    auto bytes = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; ++i) {
        if (0 != bytes[i]) {
            return false;
        }
    }
    return true;
}

}  // namespace

Test(type_ops, every_type_has_element_operations)
{
    for (pmix_data_type_t type : samples::element_types()) {
        const TypeTraits *traits = find_element_type(type);
        cr_assert_not_null(traits, "type %u has no table entry", type);
        cr_expect_gt(element_size(type), 0u, "type %u", type);
        cr_expect_not_null(traits->compare, "type %u has no compare", type);
    }
    cr_expect_eq(element_size(PMIX_INFO), sizeof(pmix_info_t));
    cr_expect_eq(element_size(PMIX_STRING), sizeof(char *));
    cr_expect_eq(element_size(PMIX_PROC_NSPACE), sizeof(pmix_nspace_t));
    cr_expect_eq(element_size(PMIX_DATA_ARRAY), sizeof(pmix_data_array_t));
    cr_expect_eq(element_size(PMIX_TOPO), sizeof(pmix_topology_t));
}

Test(type_ops, unknown_types_are_rejected)
{
    const pmix_data_type_t unknown[] = {PMIX_UNDEF, PMIX_BUFFER, PMIX_KVAL, 29, 44, 70, 499, PMIX_DATA_TYPE_MAX, 65535};
    unsigned char dest[64] = {0};
    unsigned char src[64] = {0};
    for (pmix_data_type_t type : unknown) {
        cr_expect_eq(element_size(type), 0u, "type %u", type);
        cr_expect_eq(copy_element(dest, src, type), PMIX_ERR_UNKNOWN_DATA_TYPE, "type %u", type);
        cr_expect_null(alloc_elements(type, 3));
        destruct_element(dest, type);  // must not crash
    }
    cr_expect_eq(copy_element(nullptr, src, PMIX_INT), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(copy_element(dest, nullptr, PMIX_INT), PMIX_ERR_BAD_PARAM);
    cr_expect_null(alloc_elements(PMIX_INT, 0));
    free_elements(nullptr, 5, PMIX_STRING);
}

Test(type_ops, copy_compare_destruct_every_type)
{
    for (pmix_data_type_t type : samples::element_types()) {
        samples::Storage a{}, b{}, copy{};
        samples::make(type, 0, a.bytes);
        samples::make(type, 1, b.bytes);
        cr_assert_eq(copy_element(copy.bytes, a.bytes, type), PMIX_SUCCESS, "type %u", type);
        cr_expect_eq(compare(a.bytes, copy.bytes, type), PMIX_EQUAL, "type %u", type);
        cr_expect_neq(compare(a.bytes, b.bytes, type), PMIX_EQUAL, "type %u", type);
        // The copy must not share memory with the original.
        destruct_element(a.bytes, type);
        cr_expect(all_zero(a.bytes, element_size(type)), "type %u not zeroed", type);
        samples::make(type, 0, a.bytes);
        cr_expect_eq(compare(a.bytes, copy.bytes, type), PMIX_EQUAL, "type %u", type);
        destruct_element(a.bytes, type);
        destruct_element(b.bytes, type);
        destruct_element(copy.bytes, type);
    }
}

Test(type_ops, data_array_of_every_type)
{
    for (pmix_data_type_t type : samples::element_types()) {
        const size_t size = element_size(type);
        pmix_data_array_t src{type, 2, alloc_elements(type, 2)};
        cr_assert_not_null(src.array);
        samples::make(type, 0, src.array);
        samples::make(type, 1, static_cast<char *>(src.array) + size);
        pmix_data_array_t dest{};
        cr_assert_eq(copy_data_array(&dest, &src), PMIX_SUCCESS, "type %u", type);
        cr_expect_eq(dest.type, type);
        cr_expect_eq(dest.size, 2u);
        cr_expect_neq(dest.array, src.array);
        cr_expect_eq(compare(&src, &dest, PMIX_DATA_ARRAY), PMIX_EQUAL, "type %u", type);
        free_elements(src.array, src.size, type);
        free_elements(dest.array, dest.size, type);
    }
}

Test(type_ops, data_array_edge_cases)
{
    pmix_data_array_t dest{};
    pmix_data_array_t empty{PMIX_INFO, 0, nullptr};
    cr_expect_eq(copy_data_array(&dest, &empty), PMIX_SUCCESS);
    cr_expect_null(dest.array);
    cr_expect_eq(dest.type, PMIX_INFO);
    pmix_data_array_t missing{PMIX_INT, 4, nullptr};
    cr_expect_eq(copy_data_array(&dest, &missing), PMIX_ERR_BAD_PARAM);
    int ints[2] = {1, 2};
    pmix_data_array_t bad_type{PMIX_KVAL, 2, ints};
    cr_expect_eq(copy_data_array(&dest, &bad_type), PMIX_ERR_UNKNOWN_DATA_TYPE);
    cr_expect_eq(copy_data_array(nullptr, &empty), PMIX_ERR_BAD_PARAM);
    cr_expect_eq(copy_data_array(&dest, nullptr), PMIX_ERR_BAD_PARAM);
    pmix_data_array_t a{PMIX_INT, 2, ints};
    pmix_data_array_t b{PMIX_UINT, 2, ints};
    cr_expect_eq(compare(&a, &b, PMIX_DATA_ARRAY), PMIX_VALUE_TYPE_DIFFERENT);
}

Test(type_ops, value_payload_points_at_one_element)
{
    pmix_value_t val{};
    size_t size = 99;
    cr_expect_null(value_payload(&val, &size));
    cr_expect_eq(size, 0u);
    cr_expect_null(value_payload(nullptr, &size));

    val.type = PMIX_UINT16;
    val.data.uint16 = 7;
    cr_expect_eq(value_payload(&val, &size), &val.data);
    cr_expect_eq(size, sizeof(uint16_t));

    pmix_proc_t proc{};
    val.type = PMIX_PROC;
    val.data.proc = &proc;
    cr_expect_eq(value_payload(&val, &size), &proc);
    cr_expect_eq(size, sizeof(pmix_proc_t));
    val.data.proc = nullptr;
    cr_expect_null(value_payload(&val, &size));
    cr_expect_eq(size, 0u);

    val.type = PMIX_INFO;
    cr_expect_null(value_payload(&val, &size));
    val.type = 4000;
    cr_expect_null(value_payload(&val, nullptr));
}

Test(type_ops, numeric_comparison_is_by_value)
{
    int minus = -1;
    int plus = 1;
    cr_expect_eq(compare(&minus, &plus, PMIX_INT), PMIX_VALUE2_GREATER);
    cr_expect_eq(compare(&plus, &minus, PMIX_INT), PMIX_VALUE1_GREATER);
    double x = 1.5;
    double y = 256.0;
    cr_expect_eq(compare(&x, &y, PMIX_DOUBLE), PMIX_VALUE2_GREATER);
    pmix_coord_t c1{PMIX_COORD_LOGICAL_VIEW, nullptr, 0};
    pmix_coord_t c2{PMIX_COORD_PHYSICAL_VIEW, nullptr, 0};
    cr_expect_eq(compare(&c1, &c2, PMIX_COORD), PMIX_VALUE_INCOMPATIBLE_OBJECTS);
}

Test(type_ops, foreign_cpuset_and_topology_are_not_copied)
{
    pmix_cpuset_t foreign{const_cast<char *>("other"), reinterpret_cast<void *>(0x1)};
    pmix_cpuset_t dest{};
    cr_expect_eq(copy_element(&dest, &foreign, PMIX_PROC_CPUSET), PMIX_ERR_NOT_SUPPORTED);
    cr_expect_null(dest.source);
    pmix_topology_t topo{const_cast<char *>("other"), reinterpret_cast<void *>(0x1)};
    pmix_topology_t tdest{};
    cr_expect_eq(copy_element(&tdest, &topo, PMIX_TOPO), PMIX_ERR_NOT_SUPPORTED);
    pmix_topology_t none{};
    cr_expect_eq(compare(&none, &none, PMIX_TOPO), PMIX_VALUE_COMPARISON_NOT_AVAIL);
}

Test(type_ops, malformed_data_buffer_is_rejected)
{
    // pack_ptr lies past what bytes_allocated claims (the storage itself is
    // large enough, so the test never forms an out-of-object pointer).
    char bytes[72] = {0};
    pmix_data_buffer_t bad{bytes, bytes + 64, bytes, 8, 8};
    pmix_data_buffer_t dest{};
    cr_expect_eq(copy_element(&dest, &bad, PMIX_DATA_BUFFER), PMIX_ERR_BAD_PARAM);
    cr_expect_null(dest.base_ptr);
}
