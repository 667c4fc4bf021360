// rulebook serve --state-dir, through the real binary: a lobby killed with
// SIGKILL in the middle of play comes back on the same folder with every
// table at its decision under its old link, each plays to its end and its
// log replays; a damaged file sets aside its table only; Ctrl-C stops a
// server with exit 0 and names the tables it saved.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using namespace rulebook;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The real server in a child process, its output in files.
class Server {
 public:
  Server(const std::vector<std::string>& args, const std::string& dir) : out_(dir + "/out"), err_(dir + "/err") {
    // Never read a previous server's output as this one's.
    fs::remove(out_);
    fs::remove(err_);
    pid_ = test::start_rulebook(args, out_, err_);
    REQUIRE(pid_ >= 0);
  }
  ~Server() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  // Waits until standard output holds `text` (false: the server exited first, or 60 s passed).
  bool wait_for(const std::string& text) {
    for (int i = 0; i < 600 && pid_ > 0; ++i) {
      if (out().find(text) != std::string::npos) return true;
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return out().find(text) != std::string::npos;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // The port of the first "http://127.0.0.1:PORT/" it printed.
  int port() {
    REQUIRE(wait_for("http://127.0.0.1:"));
    const std::string text = out();
    return std::stoi(text.substr(text.find("http://127.0.0.1:") + 17));
  }
  // Sends `signal`, waits; returns the exit code (128 + signal when killed by it).
  int end_with(int signal) {
    REQUIRE(pid_ > 0);  // still running (kill(-1) would signal every process)
    kill(pid_, signal);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  std::string out() const { return test::read_text(out_); }
  std::string err() const { return test::read_text(err_); }

 private:
  std::string out_, err_;
  pid_t pid_ = -1;
};

// A person's seat at a lobby's table, by its link.
struct SeatLink {
  std::string table;  // the id
  std::string token;
};

SeatLink seat_link(const json& created, int seat) {
  const std::string link = created["links"][std::to_string(seat)];
  return SeatLink{created["table"], link.substr(link.find("token=") + 6)};
}

json messages_of(httplib::Client& client, const SeatLink& seat) {
  const auto r = client.Get("/t/" + seat.table + "/api/messages?token=" + seat.token);
  REQUIRE(r);
  REQUIRE(r->status == 200);
  return json::parse(r->body);
}

// The seat's decision open now (its decide message), if any; `answered`:
// the decision it answered last, still waiting for the others.
std::optional<json> open_decision(const json& messages) {
  std::optional<json> open;
  for (const json& m : messages) {
    const std::string type = m.value("type", "");
    if (type == "decide") open = m;
    else if ((type == "answered" && open && m["decision"] == (*open)["decision"]) || type == "undo" || type == "end") open.reset();
  }
  return open;
}

bool over(const json& messages) { return !messages.empty() && messages.back().value("type", "") == "end"; }

// Waits for the seat to have a decision open (or its game to be over).
std::optional<json> wait_decision(httplib::Client& client, const SeatLink& seat) {
  for (int i = 0; i < 3000; ++i) {
    const json messages = messages_of(client, seat);
    if (auto open = open_decision(messages)) return open;
    if (over(messages)) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL("the seat never got a decision");
  return std::nullopt;
}

// Waits until one of `seats` has a decision open (or the game is over): the
// table then waits for a person, and its bots do nothing more.
void wait_person(httplib::Client& client, const std::vector<SeatLink>& seats) {
  for (int i = 0; i < 3000; ++i) {
    for (const SeatLink& seat : seats) {
      const json messages = messages_of(client, seat);
      if (open_decision(messages) || over(messages)) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL("no person at the table was ever asked");
}

void answer(httplib::Client& client, const SeatLink& seat, const json& decide) {
  const int count = static_cast<int>(decide["options"].size());
  const int decision = decide["decision"];
  const auto r = client.Post("/t/" + seat.table + "/api/answer?token=" + seat.token,
                             json{{"choose", decision % count}, {"decision", decision}}.dump(), "application/json");
  REQUIRE(r);
  INFO(r->body);
  CHECK(r->status == 200);
}

// Answers `count` decisions of whichever of `seats` is asked.
void play(httplib::Client& client, const std::vector<SeatLink>& seats, int count) {
  for (int answered = 0; answered < count;) {
    bool any = false, ended = false;
    for (const SeatLink& seat : seats) {
      if (answered == count) break;
      const json messages = messages_of(client, seat);
      ended = ended || over(messages);
      if (auto open = open_decision(messages)) {
        answer(client, seat, *open);
        ++answered;
        any = true;
      }
    }
    if (ended) return;
    if (!any) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

json create(httplib::Client& client, const json& request) {
  const auto r = client.Post("/api/tables", request.dump(), "application/json");
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 201);
  return json::parse(r->body);
}

void check_log_replays(httplib::Client& client, const std::string& id) {
  const auto log = client.Get("/t/" + id + "/log");
  REQUIRE(log);
  REQUIRE(log->status == 200);
  const std::string file = test::temp_folder("state-dir-log") + "/" + id + ".json";
  test::write_file(file, log->body);
  const auto replay = test::run_rulebook("replay --quiet '" + file + "'");
  INFO(replay.out << replay.err);
  CHECK(replay.exit_code == 0);
}

}  // namespace

TEST_CASE("serve --state-dir: a lobby killed mid-game comes back with every table at its decision, under its old link",
          "[serve][state-dir]") {
  const std::string dir = test::temp_folder("state-dir-crash");
  const std::string state = dir + "/state";
  std::map<std::string, std::vector<SeatLink>> people;  // game -> its people's seats
  std::map<std::string, std::string> ids;
  std::map<std::string, json> asked;  // "game/seat" -> its open decision when the server died
  int port = 0;
  {
    Server first({"serve", "--port", "0", "--state-dir", state}, dir);
    port = first.port();
    httplib::Client client("127.0.0.1", port);
    const json hai = create(client, {{"game", "hai-noon"}, {"players", 2}, {"seed", 3}, {"agents", {{"1", "random"}}}});
    // Goofspiel: both seats bid at once (game:choose_together).
    const json goof = create(client, {{"game", "goofspiel"}, {"players", 2}, {"seed", 4}});
    const json pandas = create(client, {{"game", "pass-the-pandas"}, {"players", 3}, {"seed", 26}, {"agents", {{"1", "random"}, {"2", "random"}}}});
    people["hai-noon"] = {seat_link(hai, 0)};
    people["goofspiel"] = {seat_link(goof, 0), seat_link(goof, 1)};
    people["pass-the-pandas"] = {seat_link(pandas, 0)};
    for (const auto& [game, seats] : people) ids[game] = seats[0].table;
    play(client, people["hai-noon"], 4);
    play(client, people["goofspiel"], 5);  // two rounds, and seat 0's bid (or seat 1's) of the third
    play(client, people["pass-the-pandas"], 2);  // seed 26: seat 0 decides often (a game of seed 5 ended by its third)
    // The bots play on by themselves: wait until each table waits for one of
    // its people, so what is read here is what the server holds when it dies.
    for (const auto& [game, seats] : people) wait_person(client, seats);
    for (const auto& [game, seats] : people)
      for (size_t s = 0; s < seats.size(); ++s) {
        const json messages = messages_of(client, seats[s]);
        REQUIRE_FALSE(over(messages));
        if (auto open = open_decision(messages)) asked[game + "/" + std::to_string(s)] = *open;
      }
    // Goofspiel stands in the middle of a simultaneous decision: one seat has bid.
    CHECK(asked.count("goofspiel/0") + asked.count("goofspiel/1") == 1);
    CHECK(first.end_with(SIGKILL) == 128 + SIGKILL);
  }
  CHECK(fs::exists(state + "/" + ids["hai-noon"] + ".table"));

  fs::create_directories(dir + "/again");
  Server second({"serve", "--port", std::to_string(port), "--state-dir", state}, dir + "/again");
  REQUIRE(second.wait_for("Tables are kept in"));
  for (const auto& [game, id] : ids) CHECK(second.out().find("brought back table " + id) != std::string::npos);
  CHECK(second.err().find("set aside") == std::string::npos);
  httplib::Client client("127.0.0.1", port);
  // Every seat is asked what it was asked, by its old link; the seat that
  // had bid has its bid in.
  for (const auto& [game, seats] : people)
    for (size_t s = 0; s < seats.size(); ++s) {
      INFO(game << " seat " << s);
      const auto before = asked.find(game + "/" + std::to_string(s));
      if (before == asked.end()) {
        const json messages = messages_of(client, seats[s]);
        CHECK_FALSE(open_decision(messages));
        continue;
      }
      const auto now = wait_decision(client, seats[s]);
      REQUIRE(now);
      CHECK((*now)["decision"] == before->second["decision"]);
      CHECK((*now)["options"] == before->second["options"]);
    }
  // ... and plays on to its end; its log replays.
  for (const auto& [game, seats] : people) {
    INFO(game);
    play(client, seats, 100000);
    const auto listed = client.Get("/api/tables/" + ids[game]);
    REQUIRE(listed);
    CHECK(json::parse(listed->body)["state"] == "finished");
    check_log_replays(client, ids[game]);
    CHECK_FALSE(fs::exists(state + "/" + ids[game] + ".table"));  // an ended table is not kept
  }
  CHECK(second.end_with(SIGINT) == 0);
  CHECK(second.out().find("No table was playing") != std::string::npos);
}

TEST_CASE("serve --state-dir: a damaged or foreign file is set aside with its reason, the other tables come back",
          "[serve][state-dir]") {
  const std::string dir = test::temp_folder("state-dir-damage");
  const std::string state = dir + "/state";
  std::string kept, damaged;
  int port = 0;
  {
    Server first({"serve", "--port", "0", "--state-dir", state}, dir);
    port = first.port();
    httplib::Client client("127.0.0.1", port);
    const json a = create(client, {{"game", "hai-noon"}, {"players", 2}, {"seed", 8}, {"agents", {{"1", "random"}}}});
    const json b = create(client, {{"game", "hai-noon"}, {"players", 2}, {"seed", 9}, {"agents", {{"1", "random"}}}});
    play(client, {seat_link(a, 0)}, 3);
    play(client, {seat_link(b, 0)}, 3);
    kept = a["table"];
    damaged = b["table"];
    first.end_with(SIGKILL);
  }
  // An answer line in the middle of b's file is garbled; a stray file lies beside.
  const std::string file = state + "/" + damaged + ".table";
  std::string text = test::read_text(file);
  const size_t second_line = text.find('\n') + 1;
  text.replace(second_line, 5, "#####");
  test::write_file(file, text);
  test::write_file(state + "/notes.txt", "the club's notes\n");

  fs::create_directories(dir + "/again");
  Server second({"serve", "--port", std::to_string(port), "--state-dir", state}, dir + "/again");
  REQUIRE(second.wait_for("Tables are kept in"));
  CHECK(second.out().find("brought back table " + kept) != std::string::npos);
  CHECK(second.out().find(damaged) == std::string::npos);
  const std::string err = second.err();
  INFO(err);
  CHECK(err.find("set aside " + state + "/set-aside/" + damaged + ".table: line 2 is not an answer") != std::string::npos);
  CHECK(err.find("set aside " + state + "/set-aside/notes.txt: it is not a table's file") != std::string::npos);
  CHECK(fs::exists(state + "/set-aside/" + damaged + ".table.reason"));
  CHECK(test::read_text(state + "/set-aside/notes.txt") == "the club's notes\n");  // moved, not lost
  CHECK_FALSE(fs::exists(file));
  httplib::Client client("127.0.0.1", port);
  CHECK(client.Get("/api/tables/" + damaged)->status == 404);
  CHECK(client.Get("/api/tables/" + kept)->status == 200);
}

TEST_CASE("serve: Ctrl-C stops a table mid-game with exit 0 and says whether it was saved; --state-dir brings it back",
          "[serve][state-dir]") {
  const std::string dir = test::temp_folder("state-dir-sigint");
  {
    Server unsaved({"serve", "hai-noon", "--players", "2", "--port", "0"}, dir);
    unsaved.port();
    REQUIRE(unsaved.wait_for("Ctrl-C stops the table"));
    CHECK(unsaved.end_with(SIGINT) == 0);
    CHECK(unsaved.out().find("Stopped. 1 table had not ended and was not kept: Hai Noon (hai-noon)") != std::string::npos);
    CHECK(unsaved.err().find("the table closed while this seat was deciding") == std::string::npos);
  }
  const std::string state = dir + "/state";
  std::string link;
  int port = 0;
  {
    Server kept({"serve", "hai-noon", "--players", "2", "--port", "0", "--seed", "6", "--state-dir", state}, dir);
    port = kept.port();
    REQUIRE(kept.wait_for("Ctrl-C stops the table"));
    const std::string out = kept.out();
    link = out.substr(out.find("seat 0: ") + 8, out.find('\n', out.find("seat 0: ")) - out.find("seat 0: ") - 8);
    CHECK(kept.end_with(SIGINT) == 0);
    CHECK(kept.out().find("Stopped. Saved 1 table in " + state + ": Hai Noon (hai-noon). `rulebook serve hai-noon --state-dir " +
                          state + " --port " + std::to_string(port) + "` brings it back.") != std::string::npos);
  }
  fs::create_directories(dir + "/again");
  Server again({"serve", "hai-noon", "--port", std::to_string(port), "--state-dir", state}, dir + "/again");
  REQUIRE(again.wait_for("Ctrl-C stops the table"));
  CHECK(again.out().find("(seed 6)") != std::string::npos);
  CHECK(again.out().find("seat 0: " + link) != std::string::npos);  // the same link
  CHECK(again.out().find("Brought back from " + state) != std::string::npos);
  // Another game on that folder is refused: the table there has not ended.
  const auto other = test::run_rulebook("serve goofspiel --port 0 --state-dir '" + state + "'");
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("holds a table of 'hai-noon' that has not ended") != std::string::npos);
}
