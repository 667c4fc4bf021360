// Text from outside (scripts, network clients) made safe: valid UTF-8 for
// JSON and logs, visible escapes for terminals, and player names checked.
#include <catch2/catch.hpp>

#include <string>

#include "core/input_file.hpp"
#include "core/player_name.hpp"
#include "core/safe_text.hpp"

using namespace rulebook;

TEST_CASE("safe text: ill-formed UTF-8 becomes U+FFFD, valid text stays byte for byte", "[core][text]") {
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(to_valid_utf8("plain ascii") == "plain ascii");
  CHECK(to_valid_utf8("caf\xC3\xA9 \xF0\x9F\x8E\xB2") == "caf\xC3\xA9 \xF0\x9F\x8E\xB2");  // é, a die
  CHECK(to_valid_utf8("caf\xE9") == "caf" + fffd);                // Latin-1
  CHECK(to_valid_utf8("\xFF\xFE") == fffd + fffd);                 // no lead byte
  CHECK(to_valid_utf8("\x80x") == fffd + "x");                     // a stray continuation
  CHECK(to_valid_utf8("\xC0\xAF") == fffd + fffd);                 // overlong '/'
  CHECK(to_valid_utf8("\xED\xA0\x80") == fffd + fffd + fffd);      // a surrogate
  CHECK(to_valid_utf8("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // past U+10FFFF
  CHECK(to_valid_utf8("ab\xE2\x82") == "ab" + fffd + fffd);        // cut short
  CHECK(to_valid_utf8(std::string("a\0b", 3)) == std::string("a\0b", 3));
  for (const std::string bad : {"caf\xE9", "\xFF", "\xC0\xAF", "ab\xE2\x82"}) {
    CHECK_FALSE(valid_utf8(bad));
    CHECK(valid_utf8(to_valid_utf8(bad)));
  }
  std::string in_place = "x\xFFy";
  make_valid_utf8(in_place);
  CHECK(in_place == "x" + fffd + "y");
}

TEST_CASE("safe text: a terminal sees control characters as escapes", "[core][text]") {
  // An OSC title, a clear screen, CR + erase line, a bell, DEL, C1's CSI.
  CHECK(terminal_text("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07");
  CHECK(terminal_text("\x1b[2J") == "\\x1b[2J");
  CHECK(terminal_text("ok\r\x1b[2Kfake") == "ok\\r\\x1b[2Kfake");
  CHECK(terminal_text("a\x7f") == "a\\x7f");
  CHECK(terminal_text("\xC2\x9B" "31m") == "\\u009b31m");
  CHECK(terminal_text("\x9b" "31m") == "\xEF\xBF\xBD" "31m");  // a bare C1 byte is no UTF-8
  // Lines and tabs of narration stay; a one-line field escapes them.
  CHECK(terminal_text("two\nlines\tand a tab") == "two\nlines\tand a tab");
  CHECK(terminal_text("two\nlines\t", true) == "two\\nlines\\t");
  // Printable text, accents and symbols included, is unchanged.
  CHECK(terminal_text("Zo\xC3\xAB rolls \xE2\x9A\x80 (\xC2\xA0)") == "Zo\xC3\xAB rolls \xE2\x9A\x80 (\xC2\xA0)");
}

TEST_CASE("player names from outside: short, UTF-8, no controls", "[core][text]") {
  CHECK(player_name_problem("").empty());
  CHECK(player_name_problem("Ann").empty());
  CHECK(player_name_problem("Zo\xC3\xAB").empty());
  CHECK(player_name_problem(std::string(64, 'x')).empty());
  CHECK(player_name_problem(std::string(65, 'x')) == "is longer than 64 characters (65)");
  std::string long_accents;
  for (int i = 0; i < 64; ++i) long_accents += "\xC3\xA9";  // 64 characters, 128 bytes
  CHECK(player_name_problem(long_accents).empty());
  CHECK(player_name_problem("\x1b]0;x\x07") == "holds a control character (U+001B)");
  CHECK(player_name_problem("a\rb") == "holds a control character (U+000D)");
  CHECK(player_name_problem("a\nb") == "holds a control character (U+000A)");
  CHECK(player_name_problem("\xC2\x9B") == "holds a control character (U+009B)");
  CHECK(player_name_problem("caf\xE9") == "is not valid UTF-8");
}
