#include "open_mpi_log.h"

#include <cstdint>

namespace pmixrun {
namespace {

class DssReader {
public:
    explicit DssReader(const pmix_byte_object_t &bytes)
        : data_(reinterpret_cast<const unsigned char *>(bytes.bytes)), size_(bytes.bytes != nullptr ? bytes.size : 0)
    {}

    // One pack call of one string: [1][len][bytes, NUL last].
    bool string(std::string *out_p)
    {
        uint32_t count = 0, length = 0;
        if (!u32(&count) || count != 1 || !u32(&length) || length == 0 || length > size_ - at_) return false;
        const char *start = reinterpret_cast<const char *>(data_ + at_);
        if (start[length - 1] != '\0') return false;
        out_p->assign(start, length - 1);
        at_ += length;
        return true;
    }

    // One pack call of one int8: [1][byte].
    bool int8(int8_t *out_p)
    {
        uint32_t count = 0;
        if (!u32(&count) || count != 1 || at_ >= size_) return false;
        *out_p = static_cast<int8_t>(data_[at_++]);
        return true;
    }

    bool at_end() const { return at_ == size_; }

private:
    bool u32(uint32_t *out_p)
    {
        if (size_ - at_ < 4) return false;
        *out_p = (uint32_t{data_[at_]} << 24) | (uint32_t{data_[at_ + 1]} << 16) | (uint32_t{data_[at_ + 2]} << 8) |
                 uint32_t{data_[at_ + 3]};
        at_ += 4;
        return true;
    }

    const unsigned char *data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

}  // namespace

bool open_mpi_help_text(const pmix_byte_object_t &bytes, std::string *text_p)
{
    DssReader reader(bytes);
    std::string file, topic, text;
    int8_t has_text = 0;
    if (!reader.string(&file) || !reader.string(&topic) || !reader.int8(&has_text)) return false;
    if (file.empty() || topic.empty() || has_text != 1 || !reader.string(&text) || !reader.at_end()) return false;
    *text_p = std::move(text);
    return true;
}

}  // namespace pmixrun
