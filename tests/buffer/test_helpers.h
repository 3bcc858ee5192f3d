// Small helpers shared by the buffer test files.
#ifndef PMIXPP_TESTS_BUFFER_TEST_HELPERS_H
#define PMIXPP_TESTS_BUFFER_TEST_HELPERS_H

#include <cstdlib>
#include <cstring>
#include <string>

#include <pmix.h>

// A data buffer that releases itself.
struct ScopedBuffer {
    pmix_data_buffer_t buf;
    ScopedBuffer() { std::memset(&buf, 0, sizeof buf); }
    ~ScopedBuffer() { std::free(buf.base_ptr); }
    ScopedBuffer(const ScopedBuffer &) = delete;
    ScopedBuffer &operator=(const ScopedBuffer &) = delete;
    pmix_data_buffer_t *get() { return &buf; }
    std::string bytes() const { return std::string(buf.base_ptr, buf.bytes_used); }
    // Replaces the content with a copy of raw bytes, ready for unpacking.
    void assign(const std::string &raw)
    {
        std::free(buf.base_ptr);
        std::memset(&buf, 0, sizeof buf);
        if (raw.empty()) {
            return;
        }
        buf.base_ptr = static_cast<char *>(std::malloc(raw.size()));
        std::memcpy(buf.base_ptr, raw.data(), raw.size());
        buf.bytes_allocated = buf.bytes_used = raw.size();
        buf.pack_ptr = buf.base_ptr + raw.size();
        buf.unpack_ptr = buf.base_ptr;
    }
};

inline std::string le16(uint16_t v)
{
    return std::string{char(v & 0xff), char(v >> 8)};
}
inline std::string le32(uint32_t v)
{
    return le16(static_cast<uint16_t>(v)) + le16(static_cast<uint16_t>(v >> 16));
}
inline std::string le64(uint64_t v)
{
    return le32(static_cast<uint32_t>(v)) + le32(static_cast<uint32_t>(v >> 32));
}

#endif
