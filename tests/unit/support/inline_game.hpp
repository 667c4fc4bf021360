#pragma once
// Small games written inline by the tests: a rules.lua around the few lines
// a test is about, and a game folder written to a fresh temporary directory
// for one test, removed afterwards.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <unistd.h>

namespace rulebook::test {

// game.yaml of a small game: one zone (supply) holding one six-faced die,
// for tests that only need rules to run.
inline std::string one_die_game_yaml(const std::string& name, const std::string& title, int max_players = 2) {
  return "name: " + name + "\ntitle: " + title + "\nscript: rules.lua\n" +
         "players: {min: 2, max: " + std::to_string(max_players) + ", default: 2}\n" +
         "zones:\n  - {name: supply}\ncomponents:\n"
         "  - {name: die, kind: die, faces: [one, two, three, four, five, six], count: 1, zone: supply}\n";
}

// rules.lua of a game whose rules.play runs `play_body`, on the lines from
// 4 on when `setup_body` is empty (`local rules = {}`, an empty rules.setup
// and rules.play's header come first), then `end` and `return rules`. A
// setup body goes on the lines after rules.setup's header (from line 3).
inline std::string rules_lua(const std::string& play_body, const std::string& setup_body = "") {
  const std::string setup = setup_body.empty() ? "function rules.setup(game) end\n"
                                               : "function rules.setup(game)\n" + setup_body + "\nend\n";
  return "local rules = {}\n" + setup + "function rules.play(game)\n" + play_body + "\nend\nreturn rules\n";
}

class TempGame {
 public:
  TempGame(const std::string& yaml, const std::string& lua,
           const std::map<std::string, std::string>& extra = {}) {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("rb-game-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    write("game.yaml", yaml);
    write("rules.lua", lua);
    for (const auto& [name, text] : extra) write(name, text);
  }
  ~TempGame() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempGame(const TempGame&) = delete;
  TempGame& operator=(const TempGame&) = delete;
  std::string dir() const { return dir_.string(); }
  void write(const std::string& name, const std::string& text) const {
    const auto path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

 private:
  std::filesystem::path dir_;
};

// A bundled game with a defect, for the tests of `rulebook check`: a copy
// of rules/GAME (its game.yaml without the `check:` section, and rules.lua)
// whose only variants are those of tests/fixtures/FIXTURE/variants, small
// scripts replacing named rule functions. The fixture keeps only the defect,
// so the copy follows the bundled game as it changes.
class DefectiveGame : public TempGame {
 public:
  DefectiveGame(const std::string& game, const std::string& fixture)
      : TempGame(without_check(read(rules_dir(game) / "game.yaml")), read(rules_dir(game) / "rules.lua")) {
    const auto variants = std::filesystem::path(RULEBOOK_TESTS_DIR) / "fixtures" / fixture / "variants";
    for (const auto& entry : std::filesystem::directory_iterator(variants))
      write("variants/" + entry.path().filename().string(), read(entry.path()));
  }

 private:
  static std::filesystem::path rules_dir(const std::string& game) {
    return std::filesystem::path(RULEBOOK_TESTS_DIR) / ".." / "rules" / game;
  }
  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // The variant combinations it lists name the game's own variants.
  static std::string without_check(const std::string& yaml) {
    std::istringstream in(yaml);
    std::string out, line;
    bool skipping = false;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != ' ' && line[0] != '#') skipping = line.rfind("check:", 0) == 0;
      if (!skipping) out += line + "\n";
    }
    return out;
  }
};

}  // namespace rulebook::test
