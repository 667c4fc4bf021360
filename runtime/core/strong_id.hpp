#pragma once
// A number that says what it numbers. StrongId<SeatTag> and
// StrongId<ComponentTag> hold the same int but are distinct types: one
// never converts into the other, nor from or to an int, without saying so
// (`Seat{2}`, `seat.value()`), so a seat passed where a component is
// expected does not compile. Same size and speed as the int it holds.
//
// -1 is "none" for every id (a default-constructed id is none). Ids print
// with fmt and read and write JSON as their plain number, so logs and
// protocols are unchanged.
#include <cstddef>
#include <functional>
#include <iterator>

#include <fmt/core.h>

namespace rulebook {

template <class Tag, class Rep = int>
class StrongId {
 public:
  using rep_type = Rep;

  constexpr StrongId() = default;
  constexpr explicit StrongId(Rep value) : value_(value) {}
  static constexpr StrongId none() { return StrongId{}; }

  constexpr Rep value() const { return value_; }
  // For a vector indexed by this id (never none there).
  constexpr std::size_t index() const { return static_cast<std::size_t>(value_); }
  constexpr bool is_none() const { return value_ < 0; }

  friend constexpr bool operator==(StrongId a, StrongId b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(StrongId a, StrongId b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(StrongId a, StrongId b) { return a.value_ < b.value_; }
  friend constexpr bool operator>(StrongId a, StrongId b) { return a.value_ > b.value_; }
  friend constexpr bool operator<=(StrongId a, StrongId b) { return a.value_ <= b.value_; }
  friend constexpr bool operator>=(StrongId a, StrongId b) { return a.value_ >= b.value_; }

  // The ids first, first + 1, ..., end - 1, for range-for:
  // `for (Seat s : Seat::all(players))`.
  class Range {
   public:
    class iterator {
     public:
      using iterator_category = std::forward_iterator_tag;
      using value_type = StrongId;
      using difference_type = std::ptrdiff_t;
      using pointer = const StrongId*;
      using reference = StrongId;
      constexpr explicit iterator(Rep at) : at_(at) {}
      constexpr StrongId operator*() const { return StrongId{at_}; }
      constexpr iterator& operator++() {
        ++at_;
        return *this;
      }
      constexpr iterator operator++(int) {
        iterator before = *this;
        ++at_;
        return before;
      }
      friend constexpr bool operator==(iterator a, iterator b) { return a.at_ == b.at_; }
      friend constexpr bool operator!=(iterator a, iterator b) { return a.at_ != b.at_; }

     private:
      Rep at_;
    };
    constexpr Range(Rep first, Rep end) : first_(first), end_(end < first ? first : end) {}
    constexpr iterator begin() const { return iterator{first_}; }
    constexpr iterator end() const { return iterator{end_}; }

   private:
    Rep first_;
    Rep end_;
  };
  // 0 .. count - 1.
  static constexpr Range all(Rep count) { return Range{0, count}; }
  // first .. end - 1.
  static constexpr Range range(Rep first, Rep end) { return Range{first, end}; }

  // Streams print the plain number too (test frameworks' messages); a
  // template, so that this header needs no <ostream>. Its return type names
  // Rep, not id.value(): clang refuses a member of the class, incomplete
  // there, in the friend's declaration.
  template <class Stream>
  friend auto operator<<(Stream& out, StrongId id) -> decltype(out << Rep{}) {
    return out << id.value_;
  }

  // nlohmann::json reads and writes the plain number (found by ADL; no
  // include of the JSON library needed here).
  template <class Json>
  friend void to_json(Json& j, StrongId id) {
    j = id.value_;
  }
  template <class Json>
  friend void from_json(const Json& j, StrongId& id) {
    id = StrongId{j.template get<Rep>()};
  }

 private:
  Rep value_ = -1;
};

}  // namespace rulebook

namespace std {
template <class Tag, class Rep>
struct hash<rulebook::StrongId<Tag, Rep>> {
  size_t operator()(rulebook::StrongId<Tag, Rep> id) const noexcept { return hash<Rep>{}(id.value()); }
};
}  // namespace std

// Prints the plain number, with the number's format specs ("{:>3}").
namespace fmt {
template <class Tag, class Rep>
struct formatter<rulebook::StrongId<Tag, Rep>> : formatter<Rep> {
  template <class FormatContext>
  auto format(rulebook::StrongId<Tag, Rep> id, FormatContext& ctx) const {
    return formatter<Rep>::format(id.value(), ctx);
  }
};
}  // namespace fmt
