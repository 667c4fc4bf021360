// The folder of rulebook serve --state-dir (table/table_store.hpp): a kept
// table's answers come back in the game's order, with the simultaneous
// decision under way; an undo's cut and the end reach the disk; a damaged
// or foreign file is set aside with its reason and nothing else is lost.
#include <filesystem>
#include <fstream>
#include <map>

#include <catch2/catch.hpp>

#include "files.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"
#include "table/table_store.hpp"

using namespace rulebook;
namespace fs = std::filesystem;

namespace {

TableConfig goofspiel_table() {
  TableConfig c;
  c.definition = load_game("goofspiel");
  c.spec = GameSpec{"goofspiel", {}, {}, 2, 11, {}};
  c.kinds = {"human", "random"};
  return c;
}

// Plays `count` answers (option 0, or 1 where there is one) on a match of
// the table's game and tells them to the journal, seat by seat, as a table
// would. Returns the match (its answers: the game's order).
std::unique_ptr<Match> play_into(const TableConfig& c, TableJournal& journal, int count) {
  auto m = std::make_unique<Match>(c.definition);
  m->record_answers();
  REQUIRE(m->start(c.spec.players, c.spec.seed));
  std::vector<int> numbers(static_cast<size_t>(c.spec.players), 0);
  for (int i = 0; i < count; ++i) {
    // The last seat asked answers first: a simultaneous decision's answers
    // reach the disk in any order.
    const Seat seat = m->pending_seats().back();
    const int index = m->pending(seat).count() > 1 ? 1 : 0;
    journal.answered(seat, ++numbers[seat.index()], index);
    REQUIRE(m->answer(seat, index));
  }
  return m;
}

}  // namespace

TEST_CASE("table store: a kept table comes back in the game's order, with its tokens and a simultaneous decision half answered",
          "[table][state-dir]") {
  const std::string dir = test::temp_folder("table-store");
  TableStore store(dir);
  TableConfig c = goofspiel_table();
  store.keep(c, "goofspiel", "2026-12-02T03:00:00Z");
  REQUIRE(c.journal);
  REQUIRE(c.tokens.size() == 2);
  CHECK(c.tokens[0].size() == 32);
  CHECK(c.tokens[1].empty());  // a bot's seat has no link
  const auto played = play_into(c, *c.journal, 5);  // two rounds of two bids, and one bid of the third
  // The file's last line cut short (the server died writing it): never accepted.
  {
    std::ofstream torn(dir + "/" + c.id + ".table", std::ios::app);
    torn << R"({"seat": 0, "decis)";
  }

  std::vector<TableStore::SetAside> aside;
  auto loaded = store.load(EngineLimits{}, aside);
  CHECK(aside.empty());
  REQUIRE(loaded.size() == 1);
  const TableConfig& back = loaded[0].config;
  CHECK(back.id == c.id);
  CHECK(back.tokens == c.tokens);
  CHECK(back.kinds == c.kinds);
  CHECK(back.spec.seed == 11);
  CHECK(loaded[0].game == "goofspiel");
  REQUIRE(back.resume.answers.size() == played->answers().size());
  for (size_t i = 0; i < played->answers().size(); ++i) {
    CHECK(back.resume.answers[i].seat == played->answers()[i].seat);
    CHECK(back.resume.answers[i].index == played->answers()[i].index);
  }
  REQUIRE(back.resume.together.size() == 1);  // the third round's one bid
  CHECK(back.resume.together[0].decision == 3);
}

TEST_CASE("table store: an undo's cut and the end reach the disk", "[table][state-dir]") {
  const std::string dir = test::temp_folder("table-store-undo");
  TableStore store(dir);
  TableConfig c = goofspiel_table();
  store.keep(c, "", "");
  const auto played = play_into(c, *c.journal, 4);
  c.journal->taken_back({played->answers().begin(), played->answers().begin() + 2});
  std::vector<TableStore::SetAside> aside;
  auto loaded = store.load(EngineLimits{}, aside);
  REQUIRE(loaded.size() == 1);
  CHECK(loaded[0].config.resume.answers.size() == 2);
  CHECK(store.kept() == std::vector<std::string>{c.id});
  loaded[0].config.journal->finished();
  CHECK(store.kept().empty());
  CHECK_FALSE(fs::exists(dir + "/" + c.id + ".table"));
}

TEST_CASE("table store: a damaged or foreign file is set aside with its reason, the other tables stay", "[table][state-dir]") {
  const std::string dir = test::temp_folder("table-store-damaged");
  TableStore store(dir);
  TableConfig good = goofspiel_table(), bad = goofspiel_table(), lying = goofspiel_table();
  store.keep(good, "", "1");
  store.keep(bad, "", "2");
  store.keep(lying, "", "3");
  play_into(good, *good.journal, 3);
  play_into(bad, *bad.journal, 3);
  // An answer the game never asked for: seat 0 chooses option 99.
  lying.journal->answered(Seat{0}, 1, 99);
  const std::string file = dir + "/" + bad.id + ".table";
  std::string text = test::read_text(file);
  text.insert(text.find('\n') + 1, "not json\n");
  test::write_file(file, text);
  test::write_file(dir + "/readme.txt", "notes");

  std::vector<TableStore::SetAside> aside;
  auto loaded = store.load(EngineLimits{}, aside);
  REQUIRE(loaded.size() == 1);
  CHECK(loaded[0].config.id == good.id);
  REQUIRE(aside.size() == 3);
  std::map<std::string, std::string> reasons;
  for (const auto& a : aside) reasons[fs::path(a.file).filename().string()] = a.reason;
  CHECK(reasons[bad.id + ".table"] == "line 2 is not an answer: not json");
  CHECK(reasons["readme.txt"] == "it is not a table's file (they are named ID.table)");
  CHECK(reasons[lying.id + ".table"].rfind("its answers do not replay", 0) == 0);
  CHECK(test::read_text(dir + "/set-aside/" + bad.id + ".table.reason") == "line 2 is not an answer: not json\n");
  CHECK(test::read_text(dir + "/set-aside/readme.txt") == "notes");
  CHECK(store.kept() == std::vector<std::string>{good.id});
}
