// Field helpers shared by the codec files: integers by width, timevals,
// fixed-size names (nspace, key) and procs.
#ifndef PMIXPP_COMMON_BUFFER_CODEC_UTIL_H
#define PMIXPP_COMMON_BUFFER_CODEC_UTIL_H

#include <sys/time.h>

#include <cstring>
#include <type_traits>

#include <pmix_common.h>

#include "common/buffer/packer.h"

namespace pmixpp::buffer {

template <typename T> pmix_status_t put_integer(Packer &p, T v)
{
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8);
    if constexpr (sizeof(T) == 1) {
        return p.put_u8(static_cast<uint8_t>(v));
    } else if constexpr (sizeof(T) == 2) {
        return p.put_u16(static_cast<uint16_t>(v));
    } else if constexpr (sizeof(T) == 4) {
        return p.put_u32(static_cast<uint32_t>(v));
    } else {
        return p.put_u64(static_cast<uint64_t>(v));
    }
}

template <typename T> pmix_status_t get_integer(Unpacker &u, T *v_p)
{
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8);
    pmix_status_t rc;
    if constexpr (sizeof(T) == 1) {
        uint8_t w;
        rc = u.get_u8(&w);
        if (rc == PMIX_SUCCESS) *v_p = static_cast<T>(w);
    } else if constexpr (sizeof(T) == 2) {
        uint16_t w;
        rc = u.get_u16(&w);
        if (rc == PMIX_SUCCESS) *v_p = static_cast<T>(w);
    } else if constexpr (sizeof(T) == 4) {
        uint32_t w;
        rc = u.get_u32(&w);
        if (rc == PMIX_SUCCESS) *v_p = static_cast<T>(w);
    } else {
        uint64_t w;
        rc = u.get_u64(&w);
        if (rc == PMIX_SUCCESS) *v_p = static_cast<T>(w);
    }
    return rc;
}

inline pmix_status_t put_timeval(Packer &p, const struct timeval &tv)
{
    pmix_status_t rc = p.put_i64(tv.tv_sec);
    return rc == PMIX_SUCCESS ? p.put_i64(tv.tv_usec) : rc;
}

inline pmix_status_t get_timeval(Unpacker &u, struct timeval *tv_p)
{
    int64_t sec, usec;
    pmix_status_t rc = u.get_i64(&sec);
    if (rc == PMIX_SUCCESS) {
        rc = u.get_i64(&usec);
    }
    if (rc == PMIX_SUCCESS) {
        tv_p->tv_sec = static_cast<time_t>(sec);
        tv_p->tv_usec = static_cast<suseconds_t>(usec);
    }
    return rc;
}

// A fixed-size name is sent like a string; strnlen keeps an unterminated
// array from being overread.
inline pmix_status_t put_fixed_string(Packer &p, const char *s, size_t cap)
{
    size_t len = strnlen(s, cap - 1);
    pmix_status_t rc = p.put_u32(static_cast<uint32_t>(len + 1));
    return rc == PMIX_SUCCESS ? p.put_raw(s, len) : rc;
}

inline pmix_status_t put_nspace(Packer &p, const char *ns)
{
    return put_fixed_string(p, ns, PMIX_MAX_NSLEN + 1);
}

inline pmix_status_t put_key(Packer &p, const char *key)
{
    return put_fixed_string(p, key, PMIX_MAX_KEYLEN + 1);
}

inline pmix_status_t get_key(Unpacker &u, char *key)
{
    return u.get_fixed_string(key, PMIX_MAX_KEYLEN + 1);
}

inline pmix_status_t put_proc(Packer &p, const pmix_proc_t &proc)
{
    pmix_status_t rc = put_nspace(p, proc.nspace);
    return rc == PMIX_SUCCESS ? p.put_u32(proc.rank) : rc;
}

inline pmix_status_t get_proc(Unpacker &u, pmix_proc_t *proc)
{
    pmix_status_t rc = u.get_fixed_string(proc->nspace, PMIX_MAX_NSLEN + 1);
    return rc == PMIX_SUCCESS ? u.get_u32(&proc->rank) : rc;
}

// Runs field steps in order and stops at the first failure:
//   return chain(rc, [&] { return p.put_u8(...); }, ...);
template <typename... Steps> pmix_status_t chain(Steps &&...steps)
{
    pmix_status_t rc = PMIX_SUCCESS;
    ((rc == PMIX_SUCCESS ? (rc = steps(), 0) : 0), ...);
    return rc;
}

}  // namespace pmixpp::buffer

#endif
