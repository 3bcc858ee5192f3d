// Frame header encoding and every way a header can be bad.
#include <stdlib.h>

#include <criterion/criterion.h>

#include "common/wire/frame.h"

namespace wire = pmixpp::wire;

namespace {

wire::HeaderBytes sample_header(uint32_t payload_size = 5)
{
    wire::FrameHeader h;
    h.kind = wire::FrameKind::reply;
    h.tag = 0xA1B2C3D4u;
    h.payload_size = payload_size;
    return wire::encode_header(h);
}

pmix_status_t decode(const wire::HeaderBytes &bytes, wire::FrameHeader *h, std::string *why,
                     wire::FrameLimits limits = {})
{
    return wire::decode_header(bytes, limits, h, why);
}

}  // namespace

Test(frame, header_layout_is_little_endian)
{
    wire::HeaderBytes b = sample_header(0x01020304u);
    const uint8_t expected[16] = {'P', 'M', 'X', 'P', 1, 0, 3, 0, 0xD4, 0xC3, 0xB2, 0xA1, 4, 3, 2, 1};
    cr_assert_arr_eq(b.data(), expected, 16);
}

Test(frame, round_trip)
{
    const uint8_t payload[] = {9, 8, 7, 6, 5};
    std::vector<uint8_t> bytes;
    cr_assert_eq(wire::encode_frame(wire::FrameKind::notify, 77, payload, &bytes), PMIX_SUCCESS);
    cr_assert_eq(bytes.size(), wire::kFrameHeaderSize + 5);
    wire::FrameHeader h;
    std::string why;
    std::span<const uint8_t, wire::kFrameHeaderSize> head(bytes.data(), wire::kFrameHeaderSize);
    cr_assert_eq(wire::decode_header(head, {}, &h, &why), PMIX_SUCCESS);
    cr_expect_eq(h.kind, wire::FrameKind::notify);
    cr_expect_eq(h.tag, 77u);
    cr_expect_eq(h.payload_size, 5u);
    cr_expect_eq(h.version, wire::kProtocolVersion);
    cr_expect_arr_eq(bytes.data() + 16, payload, 5);
    cr_expect_str_eq(wire::frame_kind_name(h.kind), "NOTIFY");
}

Test(frame, bad_magic)
{
    wire::HeaderBytes b = sample_header();
    b[3] = 'Q';
    wire::FrameHeader h;
    h.tag = 42;
    std::string why;
    cr_assert_eq(decode(b, &h, &why), PMIX_ERR_UNPACK_FAILURE);
    cr_expect(why.find("magic") != std::string::npos, "reason: %s", why.c_str());
    cr_expect_eq(h.tag, 42u, "output untouched on failure");
}

Test(frame, version_zero)
{
    wire::HeaderBytes b = sample_header();
    b[4] = 0;
    wire::FrameHeader h;
    std::string why;
    cr_assert_eq(decode(b, &h, &why), PMIX_ERR_UNPACK_FAILURE);
    cr_expect(why.find("version") != std::string::npos, "reason: %s", why.c_str());
}

Test(frame, unknown_kinds)
{
    for (uint16_t kind : {uint16_t{0}, uint16_t{5}, uint16_t{0xffff}}) {
        wire::HeaderBytes b = sample_header();
        b[6] = static_cast<uint8_t>(kind);
        b[7] = static_cast<uint8_t>(kind >> 8);
        wire::FrameHeader h;
        std::string why;
        cr_assert_eq(decode(b, &h, &why), PMIX_ERR_UNPACK_FAILURE, "kind %u", kind);
        cr_expect(why.find("kind") != std::string::npos, "reason: %s", why.c_str());
    }
}

Test(frame, length_over_the_limit)
{
    wire::FrameLimits limits;
    limits.max_payload = 1000;
    wire::FrameHeader h;
    std::string why;
    cr_assert_eq(decode(sample_header(1000), &h, &why, limits), PMIX_SUCCESS);
    cr_assert_eq(decode(sample_header(1001), &h, &why, limits), PMIX_ERR_BAD_PARAM);
    cr_expect(why.find("PMIX_MCA_ptl_base_max_msg_size") != std::string::npos, "reason names the knob: %s",
              why.c_str());
    cr_assert_eq(decode(sample_header(0xffffffffu), &h, &why), PMIX_ERR_BAD_PARAM);
}

Test(frame, limit_default_and_environment)
{
    unsetenv("PMIX_MCA_ptl_base_max_msg_size");
    cr_expect_eq(wire::FrameLimits::from_environment().max_payload, 64u << 20);
    setenv("PMIX_MCA_ptl_base_max_msg_size", "2", 1);
    cr_expect_eq(wire::FrameLimits::from_environment().max_payload, 2u << 20);
    for (const char *bad : {"0", "-1", "abc", "4096", "12x"}) {
        setenv("PMIX_MCA_ptl_base_max_msg_size", bad, 1);
        cr_expect_eq(wire::FrameLimits::from_environment().max_payload, 64u << 20, "value %s", bad);
    }
    unsetenv("PMIX_MCA_ptl_base_max_msg_size");
}
