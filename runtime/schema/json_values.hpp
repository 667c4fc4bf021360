#pragma once
// JSON values as JSON Schema sees them (types, numeric equality, multiples,
// pointers) and as its messages show them to a person.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace rulebook::schema::detail {

using json = nlohmann::json;


enum TypeBit : unsigned {
  kNull = 1u << 0,
  kBoolean = 1u << 1,
  kInteger = 1u << 2,
  kNumber = 1u << 3,  // includes integers
  kString = 1u << 4,
  kArray = 1u << 5,
  kObject = 1u << 6,
};
std::optional<unsigned> type_bit(const std::string& name);  // "integer" -> kInteger
bool is_integral(const json& v);                            // 1 and 1.0, not 1.5
std::string type_name(const json& v);                       // as used in messages
bool type_matches(const json& v, unsigned types);
long double num(const json& v);                             // exact for int64, uint64 and double
bool json_equal(const json& a, const json& b);              // numbers by value, 1 == 1.0
bool is_multiple_of(const json& v, const json& m);
std::size_t code_points(const std::string& s);              // UTF-8 length
std::string percent_decode(const std::string& s);
// The value at a JSON pointer (segments escaped with ~0/~1), or nullptr.
const json* at_pointer(const json& root, const std::string& pointer);
// Short, single-line rendering of a value for messages.
std::string show(const json& v);
std::string join_values(const std::vector<json>& values);   // at most 20, then "... (N more)"
std::string join_or(const std::vector<std::string>& items); // "a", "a or b", "a, b or c"
std::string plural(std::size_t n, const char* word);        // "1 item", "2 items"

}  // namespace rulebook::schema::detail
