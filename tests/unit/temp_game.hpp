#pragma once
// A game folder written to a fresh temporary directory for one test, and
// removed afterwards.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
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

}  // namespace rulebook::test
