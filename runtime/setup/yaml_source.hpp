#pragma once
// Reading YAML setup files into a SourcedJson: the JSON value plus the
// file:line:column of every node, so that later stages can report errors
// against the text the user wrote.
//
// Typing follows the YAML 1.2 core schema for plain (unquoted) scalars:
//   null:    null Null NULL ~ and the empty value
//   boolean: true True TRUE false False FALSE
//   integer: [-+]?[0-9]+, 0o[0-7]+, 0x[0-9a-fA-F]+   (int64; larger -> error)
//   number:  [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?,
//            [-+]?(.inf|.Inf|.INF), .nan .NaN .NAN   (overflow -> error)
//   string:  anything else.
// Quoted and block (| >) scalars are always strings. The explicit tags
// !!str !!int !!float !!bool !!null (and !!map / !!seq on collections) are
// honoured; any other tag is an error.
//
// Mapping keys must be strings (an unquoted `1:` or `true:` key is an error:
// quote it). Duplicate keys, invalid UTF-8, recursive aliases, more than one
// document per file and syntax errors are errors too (when a file has both,
// the syntax error is reported). Aliases are expanded: an alias is located
// where `*name` is written, the nodes inside it where the anchored node
// wrote them; expansion is capped at 100000 nodes.
//
// Locations: `where[pointer]` is the position of the node's first character
// (for a map entry, the position of its value; for an empty value such as
// `key:` with nothing after it, the position of the key).
#include <stdexcept>
#include <string>

#include "json/sourced_json.hpp"

namespace rulebook {

// An error in the setup input. The message is complete and already
// formatted as "file:line:col: error: ..." (or "file: error: ...").
struct SetupError : std::runtime_error {
  using runtime_error::runtime_error;
};

// Parses one YAML document. `file_name` is used in locations and messages.
// Throws SetupError; never anything else for any input text.
SourcedJson parse_yaml(const std::string& text, const std::string& file_name);

// "a list", "an integer", ... for messages about a value's type.
const char* json_type_phrase(const nlohmann::json& value);

// Reads and parses `path` (the path as given is used as the file name).
// An unreadable file gives "path: error: cannot read file (<strerror>)".
SourcedJson load_yaml_file(const std::string& path);

}  // namespace rulebook
