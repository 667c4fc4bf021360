#pragma once
// Text from outside the program -- a rule script's narration, prompts,
// labels and errors, a network client's player name -- made safe for where
// it goes:
//  - JSON and logs hold only well-formed UTF-8 (nlohmann::json refuses to
//    write anything else), so script text is repaired where it enters the
//    runtime: each ill-formed sequence becomes U+FFFD. Valid text is left
//    byte for byte as it is (golden logs do not change).
//  - A terminal obeys control characters (an OSC sequence retitles the
//    window, "\x1b[2J" clears it, a CR overwrites the line), so whatever a
//    terminal writer prints of such text goes through terminal_text first.
//    JSON keeps the text as it is: JSON escapes controls itself.
#include <cstddef>
#include <string>
#include <string_view>

namespace rulebook {

// The length (1 to 4) of the well-formed UTF-8 sequence that starts at
// s[at], or 0 when the bytes there are none (a stray continuation byte, an
// overlong form, a surrogate, a code point past U+10FFFF, a cut sequence).
std::size_t utf8_sequence_length(std::string_view s, std::size_t at);

// Well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF):
// text that goes into JSON (logs, --json output) must be.
bool valid_utf8(std::string_view s);

// U+FFFD, as UTF-8: what an ill-formed byte becomes.
constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// `s` with each byte that starts no well-formed sequence replaced by U+FFFD.
std::string to_valid_utf8(std::string_view s);
// The same in place; allocates nothing when `s` is already valid.
void make_valid_utf8(std::string& s);

// `s` as a terminal may print it: C0 controls (but newline and tab, unless
// `one_line`), DEL and C1 controls (U+0080..U+009F) are written as visible
// escapes ("\x1b", "\r", "\u009b"); ill-formed UTF-8 as U+FFFD. Printable
// text, valid UTF-8, is unchanged.
std::string terminal_text(std::string_view s, bool one_line = false);

}  // namespace rulebook
