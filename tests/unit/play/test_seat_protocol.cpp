// The seat protocol (docs/bot-protocol.md): every message of whole games of
// every bundled game against its schema, the answer check, the command
// line's words, and exec seats that misbehave (a timeout, an exit, bad
// JSON, an index out of range) ending the game with a message naming the
// seat, with no process left behind.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "agents/exec_transport.hpp"
#include "agents/external_seat.hpp"
#include "agents/seat_protocol.hpp"
#include "files.hpp"
#include "play/match.hpp"
#include "schema/json_schema.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const schema::Schema& protocol_schema(const std::string& type) {
  static std::map<std::string, schema::Schema> schemas;
  auto it = schemas.find(type);
  if (it == schemas.end())
    it = schemas.emplace(type, schema::Schema::load(std::string(RULEBOOK_SOURCE_DIR) + "/schemas/bot-protocol/" +
                                                    type + ".schema.json")).first;
  return it->second;
}

void check_message(const json& message, const std::string& type) {
  const auto issues = protocol_schema(type).validate(message);
  for (const auto& issue : issues) UNSCOPED_INFO(type << " " << issue.pointer << ": " << issue.message);
  CHECK(issues.empty());
}

// An in-process transport: checks every message against its schema and
// answers each decide with a random index.
class CheckingTransport : public SeatTransport {
 public:
  void send(const std::string& line, Clock::time_point) override {
    const json message = json::parse(line);
    const std::string type = message.at("type");
    ++counts[type];
    check_message(message, type);
    if (type == "decide") {
      options = static_cast<int>(message.at("options").size());
      number = message.at("decision");
    }
  }
  std::string receive(Clock::time_point) override {
    return json{{"choose", rng.below(static_cast<uint32_t>(options))}, {"decision", number}}.dump();
  }
  std::map<std::string, int> counts;
  int options = 0, number = 0;
  Rng rng{7};
};

}  // namespace

TEST_CASE("seat protocol: every message of whole games of every bundled game follows its schema", "[protocol]") {
  for (const auto& entry : fs::directory_iterator(std::string(RULEBOOK_SOURCE_DIR) + "/rules")) {
    if (!fs::exists(entry.path() / "game.yaml")) continue;
    auto def = load_game(entry.path().string());
    INFO(def->name);
    Match match(def);
    std::vector<CheckingTransport*> transports;
    for (Seat s : Seat::all(def->default_players)) {
      auto transport = std::make_unique<CheckingTransport>();
      transports.push_back(transport.get());
      match.set_agent(s, std::make_unique<ExternalSeat>(std::move(transport), "test"));
    }
    for (uint64_t seed : {1, 2}) {
      const GameResult& result = match.play(def->default_players, seed);
      CHECK(result.finished);
    }
    int decides = 0;
    for (auto* t : transports) {
      CHECK(t->counts["hello"] == 2);
      CHECK(t->counts["end"] == 2);
      CHECK(t->counts["event"] > 0);
      decides += t->counts["decide"];
    }
    CHECK(decides > 0);
  }
}

TEST_CASE("seat protocol: hello names the game, the seat and the players, never the chance seed", "[protocol]") {
  seat_protocol::GameInfo info{"hao-hao", "Hao Hao", {"Ann", "Bob"}, json{{"rounds", 3}}};
  const json hello = seat_protocol::hello(info, Seat{1}, 42);
  check_message(hello, "hello");
  CHECK(hello.at("seat") == 1);
  CHECK(hello.at("players") == json::array({"Ann", "Bob"}));
  CHECK(hello.at("seed") == 42);
  DecisionRequest request{Seat{1}, "Play which?", {"red 3", "blue 5"}, json::object(), {}};
  const json decide = seat_protocol::decide(request, 4);
  check_message(decide, "decide");
  CHECK(decide.at("options").at(1) == json{{"index", 1}, {"label", "blue 5"}});
  // Options that are on the table say where (a page offers them by a click).
  request.targets = {json{{"component", 7}}, json{{"board", "field"}, {"cell", "2,3"}}};
  const json placed = seat_protocol::decide(request, 5);
  check_message(placed, "decide");
  CHECK(placed.at("options").at(0).at("target") == json{{"component", 7}});
  CHECK(placed.at("options").at(1).at("target").at("cell") == "2,3");
  check_message(seat_protocol::undo(2, json::object()), "undo");
}

TEST_CASE("seat protocol: an answer is {\"choose\": INDEX}; every other line is refused with the reason", "[protocol]") {
  using seat_protocol::parse_answer;
  CHECK(parse_answer(R"({"choose": 2})", 3, 1).index == 2);
  CHECK(parse_answer("{\"choose\":0}\r", 3, 1).index == 0);
  CHECK(parse_answer(R"({"choose": 1, "decision": 5})", 3, 5).index == 1);
  CHECK(parse_answer(R"({"choose": 1, "decision": 4})", 3, 5).error == "answers decision 4 but decision 5 is asked");
  CHECK(parse_answer(R"({"choose": 3})", 3, 1).error == "\"choose\" is 3 but there are 3 options (0 to 2)");
  CHECK(parse_answer(R"({"choose": -1})", 3, 1).error == "\"choose\" is -1 but there are 3 options (0 to 2)");
  CHECK(parse_answer(R"({"choose": 1.5})", 3, 1).error == "\"choose\" must be an integer index, got 1.5");
  CHECK(parse_answer(R"({"choose": "1"})", 3, 1).error == "\"choose\" must be an integer index, got \"1\"");
  CHECK(parse_answer(R"({"chose": 1})", 3, 1).error == "unknown field \"chose\" (an answer is {\"choose\": INDEX})");
  CHECK(parse_answer(R"({})", 3, 1).error == "no \"choose\" field (an answer is {\"choose\": INDEX})");
  CHECK(parse_answer("[1]", 3, 1).error == "expected an object {\"choose\": INDEX}, got array");
  CHECK(parse_answer("1", 3, 1).error == "expected an object {\"choose\": INDEX}, got number");
  CHECK(parse_answer("choose 1", 3, 1).error == "not JSON: 'choose 1'");
  CHECK(parse_answer("", 3, 1).error == "an empty line, not an answer");
  // Every good answer follows the answer schema; the refused ones do not.
  check_message(json::parse(R"({"choose": 1, "decision": 5})"), "answer");
  CHECK_FALSE(protocol_schema("answer").validate(json::parse(R"({"chose": 1})")).empty());
}

TEST_CASE("exec: the command line is split into words without a shell", "[protocol]") {
  using V = std::vector<std::string>;
  CHECK(split_command_line("python3 bot.py") == V{"python3", "bot.py"});
  CHECK(split_command_line("  a   b\tc ") == V{"a", "b", "c"});
  CHECK(split_command_line("bot 'two words' \"say \\\"hi\\\"\" a\\ b") == V{"bot", "two words", "say \"hi\"", "a b"});
  CHECK(split_command_line("echo $HOME *.py | cat > x") == V{"echo", "$HOME", "*.py", "|", "cat", ">", "x"});
  CHECK(split_command_line("a''b \"\"") == V{"ab", ""});
  CHECK_THROWS_WITH(split_command_line("bot 'open"), Catch::Contains("unclosed single quote"));
  CHECK_THROWS_WITH(split_command_line("bot \"open"), Catch::Contains("unclosed double quote"));
  CHECK_THROWS_WITH(split_command_line("   "), Catch::Contains("needs a command"));
  CHECK_THROWS_AS(ExecTransport("no-such-program-for-rulebook"), AgentSpecError);
  CHECK_THROWS_WITH(ExecTransport("./no/such/bot"), Catch::Contains("not found or not executable"));
}

namespace {

// A decision with fixed labels.
struct TwoOptions {
  Decision::LabelFn label = [](int i) { return i ? std::string("second") : std::string("first"); };
  Decision::ViewFn view = [] { return json::object(); };
  Decision decision() const { return Decision(Seat{1}, "Which one?", 2, &label, &view); }
};

// `pause`: time the bot has between its hello and the decision.
std::string fault_of(const std::string& script, std::chrono::milliseconds pause = std::chrono::milliseconds(0)) {
  const auto timeout = std::chrono::milliseconds(300);
  ExternalSeat seat(std::make_unique<ExecTransport>("sh -c '" + script + "'"), "exec:bad", timeout);
  seat.prepare_game(seat_protocol::GameInfo{"g", "G", {"A", "B"}, json::object()});
  TwoOptions options;
  try {
    seat.begin_game(1, Seat{1});
    std::this_thread::sleep_for(pause);
    seat.choose(options.decision());
  } catch (const AgentFailure& e) {
    return e.what();
  }
  return "no fault";
}

bool process_gone(pid_t pid) {
  // Gone, or a zombie nobody we know will reap: read its state.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(stat, text);
  if (text.empty()) return true;
  const auto close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

}  // namespace

TEST_CASE("exec: a bot that misbehaves ends the game with a message naming the seat and what it did", "[protocol]") {
  CHECK(fault_of("read a; read b; echo \\{\\\"choose\\\": 1\\}") == "no fault");
  CHECK_THAT(fault_of("read a; read b; sleep 5"),
             Catch::StartsWith("seat 1 (exec:bad): gave no answer within") && Catch::Contains("(decision 1: \"Which one?\")"));
  CHECK_THAT(fault_of("read a; read b; exit 3"),
             Catch::StartsWith("seat 1 (exec:bad): exited with status 3") && Catch::Contains("decision 1"));
  CHECK_THAT(fault_of("read a; read b; echo nonsense; sleep 5"),
             Catch::Equals("seat 1 (exec:bad): bad answer to decision 1 (\"Which one?\"): not JSON: 'nonsense'"));
  CHECK_THAT(fault_of("read a; read b; echo \\{\\\"choose\\\": 2\\}; sleep 5"),
             Catch::EndsWith("\"choose\" is 2 but there are 2 options (0 to 1)"));
  CHECK_THAT(fault_of("echo early; sleep 5", std::chrono::milliseconds(300)), Catch::Contains("wrote to its output before decision 1 was asked"));
  CHECK_THAT(fault_of("kill -9 $$"), Catch::Contains("was killed by signal 9"));
}

TEST_CASE("exec: closing a seat kills the bot's whole process group and reaps it", "[protocol]") {
  const std::string dir = test::temp_folder("exec-group");
  const std::string pids = dir + "/pids";
  pid_t bot = -1;
  {
    // The bot starts a helper in the background and then ignores its input.
    auto transport = std::make_unique<ExecTransport>("sh -c 'sleep 300 & echo $! > " + pids + "; sleep 300'");
    ExecTransport* raw = transport.get();
    ExternalSeat seat(std::move(transport), "exec:stubborn");
    seat.begin_game(1, Seat{0});
    bot = raw->pid();
    REQUIRE(bot > 0);
    for (int i = 0; i < 200 && test::read_text(pids).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }  // the seat closes here
  const pid_t helper = std::stoi(test::read_text(pids));
  int status = 0;
  CHECK(waitpid(bot, &status, WNOHANG) == -1);  // already reaped: no zombie of ours
  CHECK(errno == ECHILD);
  for (int i = 0; i < 200 && !process_gone(helper); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  CHECK(process_gone(helper));
  CHECK(process_gone(bot));
}

TEST_CASE("exec: the seats of a simultaneous decision are all asked before any answer is read", "[protocol][together]") {
  // Each bot marks its decide in a shared folder and answers only once it
  // sees the other seat's mark of the same decision: with decides sent one
  // seat after another, seat 0 would wait for ever (and answer nonsense).
  const std::string dir = test::temp_folder("exec-together");
  test::write_file(dir + "/bot.py",
                   "import json, os, sys, time\n"
                   "for line in sys.stdin:\n"
                   "    m = json.loads(line)\n"
                   "    if m['type'] != 'decide':\n"
                   "        continue\n"
                   "    d = m['decision']\n"
                   "    open(os.path.join(sys.argv[1], '%d-%d' % (m['seat'], d)), 'w').close()\n"
                   "    others = [s for s in m.get('together', []) if s != m['seat']]\n"
                   "    deadline = time.time() + 5\n"
                   "    while time.time() < deadline and not all(os.path.exists(os.path.join(sys.argv[1], '%d-%d' % (s, d))) for s in others):\n"
                   "        time.sleep(0.01)\n"
                   "    ok = others and all(os.path.exists(os.path.join(sys.argv[1], '%d-%d' % (s, d))) for s in others)\n"
                   "    print(json.dumps({'choose': d % len(m['options'])}) if ok else 'nobody else was asked', flush=True)\n");
  const std::string yaml = "name: bids\ntitle: Bids\nplayers: {min: 2, max: 2}\nscript: rules.lua\n";
  const std::string lua =
      "local rules = {}\nfunction rules.setup(game) end\nfunction rules.play(game)\n"
      "  local a = game:choose_together({0, 1}, 'Bid', {1, 2, 3})\n"
      "  local b = game:choose_together({0, 1}, 'Bid again', {1, 2, 3})\n"
      "  game:finish{details = {first = {a[0], a[1]}, second = {b[0], b[1]}}}\nend\nreturn rules\n";
  test::write_file(dir + "/game/game.yaml", yaml);
  test::write_file(dir + "/game/rules.lua", lua);
  Match match(load_game(dir + "/game"));
  match.record_answers();
  for (Seat s : Seat::all(2))
    match.set_agent(s, std::make_unique<ExternalSeat>(
                           std::make_unique<ExecTransport>("python3 " + dir + "/bot.py " + dir), "exec:bot.py"));
  const GameResult& result = match.play(2, 1);
  REQUIRE(result.finished);
  CHECK(result.details.at("first") == json::array({2, 2}));
  CHECK(result.details.at("second") == json::array({3, 3}));
  CHECK(match.answers().size() == 4);
}
