// Owning containers for the PMIx arrays and byte blobs that wire messages
// carry (part of the messages.h API; include messages.h).
#ifndef PMIXPP_COMMON_WIRE_MESSAGES_ARRAY_H
#define PMIXPP_COMMON_WIRE_MESSAGES_ARRAY_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <pmix_common.h>

#include "common/values/array_ops.h"
#include "common/values/type_ops.h"

namespace pmixpp::wire {

// A calloc'ed array of PMIx elements (pmix_info_t, pmix_query_t, ...) that
// releases them with the library's destructors, so an error half-way through a
// decode leaks nothing. Move-only; copy explicitly with assign_copy.
template <typename T, pmix_data_type_t Type> class PmixArray {
public:
    static constexpr pmix_data_type_t kType = Type;

    PmixArray() = default;
    ~PmixArray() { reset(); }
    PmixArray(const PmixArray &) = delete;
    PmixArray &operator=(const PmixArray &) = delete;
    PmixArray(PmixArray &&other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0))
    {}
    PmixArray &operator=(PmixArray &&other) noexcept
    {
        if (this != &other) {
            reset();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }

    T *data() { return data_; }
    const T *data() const { return data_; }
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T &operator[](size_t i) { return data_[i]; }
    const T &operator[](size_t i) const { return data_[i]; }
    T *begin() { return data_; }
    T *end() { return data_ + size_; }
    const T *begin() const { return data_; }
    const T *end() const { return data_ + size_; }

    // Releases the elements and the array.
    void reset()
    {
        if (data_ != nullptr) {
            values::free_elements(data_, size_, Type);
        }
        data_ = nullptr;
        size_ = 0;
    }
    // Replaces the content with n zeroed elements (n == 0 empties it).
    pmix_status_t allocate(size_t n)
    {
        reset();
        if (n == 0) {
            return PMIX_SUCCESS;
        }
        void *array = values::alloc_elements(Type, n);
        if (array == nullptr) {
            return PMIX_ERR_NOMEM;
        }
        data_ = static_cast<T *>(array);
        size_ = n;
        return PMIX_SUCCESS;
    }
    // Replaces the content with a deep copy of src[0..n).
    pmix_status_t assign_copy(const T *src, size_t n)
    {
        void *copy = nullptr;
        if (n != 0) {
            pmix_status_t rc = values::copy_elements(&copy, src, n, Type);
            if (rc != PMIX_SUCCESS) {
                return rc;
            }
        }
        reset();
        data_ = static_cast<T *>(copy);
        size_ = copy == nullptr ? 0 : n;
        return PMIX_SUCCESS;
    }
    // Takes ownership of a calloc'ed array of n elements (nullptr when n == 0).
    void adopt(T *array, size_t n)
    {
        reset();
        data_ = array;
        size_ = array == nullptr ? 0 : n;
    }
    // Hands the array to the caller (release with PMIX_INFO_FREE & co.).
    T *release(size_t *n_p)
    {
        *n_p = std::exchange(size_, 0);
        return std::exchange(data_, nullptr);
    }

private:
    T *data_ = nullptr;
    size_t size_ = 0;
};

using InfoArray = PmixArray<pmix_info_t, PMIX_INFO>;
using QueryArray = PmixArray<pmix_query_t, PMIX_QUERY>;
using PdataArray = PmixArray<pmix_pdata_t, PMIX_PDATA>;
using AppArray = PmixArray<pmix_app_t, PMIX_APP>;

// Opaque bytes (credentials, job-data and modex blobs, whole payloads); the
// same type as Frame::payload in frame.h.
using Bytes = std::vector<uint8_t>;

}  // namespace pmixpp::wire

#endif
