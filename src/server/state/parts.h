// The state a subsystem keeps in the server (or in one namespace) without
// the state layer knowing its type: fences keep their trackers, groups their
// registry, pnet its per-job progress. The bottom of the server then never
// includes a subsystem, and a request that holds state adds a type of its
// own instead of a member to Server.
//
// A part is made on first use, with `T(owner)` when T takes its owner and
// `T()` otherwise, and destroyed with its owner, newest first. Lookup is an
// index into a vector: each part type gets a number the first time any
// owner asks for it (a function-local static: no static constructor runs
// when the library is loaded).
//
// Progress thread only, like everything the server owns.
#ifndef PMIXPP_SERVER_STATE_PARTS_H
#define PMIXPP_SERVER_STATE_PARTS_H

#include <atomic>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace pmixpp::server {

namespace parts_detail {

inline std::size_t next_index()
{
    static std::atomic<std::size_t> next{0};
    return next.fetch_add(1, std::memory_order_relaxed);
}

template <typename T> std::size_t index_of()
{
    static const std::size_t index = next_index();
    return index;
}

struct Holder {
    virtual ~Holder() = default;
};

template <typename T> struct Typed final : Holder {
    template <typename... Args> explicit Typed(Args &&...args) : value(std::forward<Args>(args)...) {}
    T value;
};

}  // namespace parts_detail

template <typename Owner> class Parts {
public:
    Parts() = default;
    Parts(const Parts &) = delete;
    Parts &operator=(const Parts &) = delete;
    Parts(Parts &&) noexcept = default;
    Parts &operator=(Parts &&) noexcept = default;
    ~Parts() { clear(); }

    // The part of type T, made now if this owner has none yet.
    template <typename T> T &get(Owner &owner)
    {
        const std::size_t index = parts_detail::index_of<T>();
        if (index >= slots_.size()) slots_.resize(index + 1, nullptr);
        if (slots_[index] == nullptr) slots_[index] = make<T>(owner);
        return static_cast<parts_detail::Typed<T> *>(slots_[index])->value;
    }

    // The part of type T, or nullptr when nothing made it yet (readers that
    // must not create state, e.g. a query about fences when none ran).
    template <typename T> T *find() const
    {
        const std::size_t index = parts_detail::index_of<T>();
        if (index >= slots_.size() || slots_[index] == nullptr) return nullptr;
        return &static_cast<parts_detail::Typed<T> *>(slots_[index])->value;
    }

    // Destroys every part, newest first (a later part may refer to an
    // earlier one, never the other way round).
    void clear()
    {
        while (!made_.empty()) {
            made_.pop_back();
        }
        slots_.clear();
    }

private:
    template <typename T> parts_detail::Holder *make(Owner &owner)
    {
        std::unique_ptr<parts_detail::Holder> holder;
        if constexpr (std::is_constructible_v<T, Owner &>) {
            holder = std::make_unique<parts_detail::Typed<T>>(owner);
        } else {
            holder = std::make_unique<parts_detail::Typed<T>>();
        }
        made_.push_back(std::move(holder));
        return made_.back().get();
    }

    std::vector<parts_detail::Holder *> slots_;                // by part type, not owning
    std::vector<std::unique_ptr<parts_detail::Holder>> made_;  // owning, oldest first
};

}  // namespace pmixpp::server

#endif
