#include "cli/web_table.hpp"

#include "bots/agent_factory.hpp"

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <httplib.h>

#include "cli/commands.hpp"
#include "cli/web_assets.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The spectators' stream is written as a seat that no player holds: it
// receives only events every seat receives and sees only public
// components (at most 31 players, so bit 31 is never a player's).
constexpr Seat kSpectatorSeat = 31;

// A token nobody can guess: 128 bits from the operating system. Not game
// randomness (which is seeded and replayable): a secret.
std::string new_token() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 4; ++i) token += fmt::format("{:08x}", device());
  return token;
}

// Messages may quote what the client sent: never let its bytes break the JSON.
std::string error_body(const std::string& message) {
  return json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

// One reader of the game: a human seat's page, or the spectators'.
struct Stream {
  Seat seat = -1;  // kSpectatorSeat for spectators
  std::string token;
  std::vector<std::string> messages;  // JSON texts, in order; SSE ids are indexes
  // The game thread's own: the narration as this seat may know it.
  std::ostringstream narration_text;
  std::unique_ptr<Narrator> narrator;
};

struct WebTable::Impl : EventSink {
  WebTableConfig config;
  httplib::Server server;
  std::thread http_thread, game_thread;

  mutable std::mutex mutex;
  mutable std::condition_variable changed;  // a message was added, an answer came, or stopping
  std::vector<std::unique_ptr<Stream>> streams;  // human seats first, the spectators' last
  bool stopping = false;
  bool over = false;
  std::string error;
  json result;
  // The pending decision of a human seat: its number (1, 2, ...), seat and
  // option count; the answer, once given.
  int decision = 0;
  Seat pending_seat = -1;
  int pending_count = 0;
  int answer = -1;
  int answered = 0;

  Match* match = nullptr;  // the game thread's, while it plays

  Stream* stream_for_token(const std::string& token) const {
    for (const auto& s : streams)
      if (s->token == token) return s.get();
    return nullptr;
  }
  Stream* spectators() const { return streams.back().get(); }

  // Adds a message to a stream (game thread).
  void push(Stream& stream, const json& message) {
    std::string text = message.dump();
    std::lock_guard lock(mutex);
    stream.messages.push_back(std::move(text));
    changed.notify_all();
  }

  json hello(const Stream& s) const {
    const GameDefinition& def = *config.definition;
    json boards = json::object();
    for (const auto& b : def.boards)
      boards[b.name] = {{"title", b.title}, {"width", b.geometry.width()}, {"height", b.geometry.height()}};
    json types = json::object();
    for (const auto& t : def.types)
      types[t.name] = {{"title", t.title}, {"kind", t.kind}, {"faces", t.faces}, {"attributes", t.attributes}};
    json seats = json::array();
    for (size_t i = 0; i < config.kinds.size(); ++i) seats.push_back(config.kinds[i] == "human" ? "web" : config.kinds[i]);
    const bool spectator = s.seat == kSpectatorSeat;
    return json{{"type", "hello"},
                {"game", def.name},
                {"title", def.title},
                {"seat", spectator ? json(nullptr) : json(s.seat)},
                {"players", config.spec.players},
                {"agents", seats},
                {"options", def.options},
                {"variants", config.spec.variants},
                {"boards", boards},
                {"types", types}};
  }

  // The event sink (game thread): each stream receives what its seat may see.
  void on_event(const GameState& state, const Event& e) override {
    for (auto& s : streams) {
      if (!can_see(e, s->seat)) continue;
      push(*s, json{{"type", "event"}, {"event", event_json(state, e, s->seat)}});
      s->narrator->on_event(state, e);
      send_narration(*s);
    }
  }

  // Lines the narrator completed since the last call (game thread).
  void send_narration(Stream& s, bool flush = false) {
    if (flush) s.narrator->flush();
    std::string text = s.narration_text.str();
    const auto end = text.rfind('\n');
    if (end == std::string::npos) return;
    json lines = json::array();
    std::istringstream in(text.substr(0, end));
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    s.narration_text.str(text.substr(end + 1));
    s.narration_text.seekp(0, std::ios::end);
    push(s, json{{"type", "narration"}, {"lines", lines}});
  }

  // Every stream gets its view of the game now (game thread).
  void send_views() {
    for (auto& s : streams) {
      send_narration(*s, true);
      json view = match->view(s->seat);
      if (s->seat == kSpectatorSeat) view["seat"] = nullptr;
      push(*s, json{{"type", "view"}, {"view", std::move(view)}});
    }
  }

  // A human seat's decision (game thread): publish it, wait for the answer.
  int decide(Seat seat, const Decision& d) {
    send_views();
    json options = json::array();
    for (int i = 0; i < d.count(); ++i) {
      json option{{"index", i}, {"label", d.label(i)}};
      json target = d.target(i);  // a component or cell the page offers by a click
      if (!target.is_null()) option["target"] = std::move(target);
      options.push_back(std::move(option));
    }
    int number = 0;
    {
      std::lock_guard lock(mutex);
      number = ++decision;
    }
    const std::string player = match->state().player(seat).name;
    for (auto& s : streams) {
      if (s->seat == seat)
        push(*s, json{{"type", "decide"}, {"decision", number}, {"seat", seat}, {"prompt", d.prompt()},
                      {"options", options}});
      else
        push(*s, json{{"type", "waiting"}, {"seat", seat}, {"player", player}});
    }
    std::unique_lock lock(mutex);
    pending_seat = seat;
    pending_count = d.count();
    answer = -1;
    changed.wait(lock, [&] { return answer >= 0 || stopping; });
    pending_seat = -1;
    if (answer < 0) throw AgentFailure(fmt::format("the table closed while seat {} ({}) was deciding", seat, player));
    ++answered;
    return answer;
  }

  void play() {
    GameResult game_result;
    EventRecorder full_log;
    std::unique_ptr<Match> owned;
    try {
      owned = std::make_unique<Match>(config.definition, config.limits);
      Match& m = *owned;
      for (Seat s = 0; s < config.spec.players; ++s) {
        if (config.kinds[s] == "human") m.set_agent(s, std::make_unique<Seat_>(*this, s));
        else m.set_agent(s, build_agent(config.kinds[s], config.agent_settings));
      }
      m.add_sink(this);
      if (!config.log_file.empty()) m.add_sink(&full_log);
      m.record_answers();
      match = &m;
      game_result = m.play(config.spec.players, config.spec.seed, config.spec.names);
      send_views();
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      error = e.what();
    }
    json end{{"type", "end"}};
    if (owned) {
      try {
        end["result"] = result_json(owned->state(), game_result);
        if (!config.log_file.empty()) {
          // A browser's seat is logged as "human": a person answered it.
          const std::vector<std::string>& kinds = config.kinds;
          write_file("--log", config.log_file,
                     dump_log(make_log(config.spec, owned->state(), game_result, owned->answers(), full_log.events(), kinds)));
        }
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        if (error.empty()) error = e.what();
      }
    }
    {
      std::lock_guard lock(mutex);
      if (!error.empty()) end["error"] = error;
      result = end.value("result", json(nullptr));
    }
    for (auto& s : streams) {
      if (owned) send_narration(*s, true);
      push(*s, end);
    }
    std::lock_guard lock(mutex);
    over = true;
    match = nullptr;
    changed.notify_all();
  }

  // A human seat: answered from its page.
  struct Seat_ : Agent {
    Seat_(Impl& table, Seat seat) : table(table), seat(seat) {}
    std::string kind() const override { return "web"; }
    int choose(const Decision& d) override { return table.decide(seat, d); }
    Impl& table;
    Seat seat;
  };

  void routes();
};

void WebTable::Impl::routes() {
  auto page = [](const char* type, const char* body) {
    return [type, body](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-store");
      res.set_content(body, type);
    };
  };
  server.Get("/", page("text/html; charset=utf-8", kTableHtml));
  server.Get("/play", page("text/html; charset=utf-8", kTableHtml));
  server.Get("/watch", page("text/html; charset=utf-8", kTableHtml));
  server.Get("/table.js", page("text/javascript; charset=utf-8", kTableJs));
  server.Get("/table.css", page("text/css; charset=utf-8", kTableCss));
  server.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& res) { res.status = 204; });

  auto fail = [](httplib::Response& res, int status, const std::string& message) {
    res.status = status;
    res.set_content(error_body(message), "application/json");
  };
  // The stream a request may read: its token's, or the spectators' when it
  // gives none. Null (and a 403 set) for a wrong token.
  auto stream_of = [this, fail](const httplib::Request& req, httplib::Response& res) -> Stream* {
    std::lock_guard lock(mutex);
    if (!req.has_param("token") || req.get_param_value("token").empty()) return spectators();
    Stream* s = stream_for_token(req.get_param_value("token"));
    if (!s || s->seat == kSpectatorSeat) {
      fail(res, 403, "unknown token: this link opens no seat at this table");
      return nullptr;
    }
    return s;
  };

  // Everything a page has received so far, as one JSON array (?from=N: from
  // message N on). Pages use the event stream; this serves scripts and tests.
  server.Get("/api/messages", [this, stream_of](const httplib::Request& req, httplib::Response& res) {
    Stream* s = stream_of(req, res);
    if (!s) return;
    size_t from = 0;
    if (req.has_param("from")) from = static_cast<size_t>(std::strtoull(req.get_param_value("from").c_str(), nullptr, 10));
    std::string body = "[";
    {
      std::lock_guard lock(mutex);
      for (size_t i = from; i < s->messages.size(); ++i) {
        if (i > from) body += ",";
        body += s->messages[i];
      }
    }
    body += "]";
    res.set_header("Cache-Control", "no-store");
    res.set_content(body, "application/json");
  });

  // The stream as Server-Sent Events, each message's index as its id: a
  // reconnecting EventSource sends Last-Event-ID and resumes after it; a
  // reloaded page starts from the first message and redraws.
  server.Get("/api/events", [this, stream_of](const httplib::Request& req, httplib::Response& res) {
    Stream* s = stream_of(req, res);
    if (!s) return;
    size_t next = 0;
    if (req.has_header("Last-Event-ID"))
      next = static_cast<size_t>(std::strtoull(req.get_header_value("Last-Event-ID").c_str(), nullptr, 10)) + 1;
    res.set_header("Cache-Control", "no-store");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider("text/event-stream", [this, s, next](size_t, httplib::DataSink& sink) mutable {
      std::string chunk;
      bool finished = false;
      {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, std::chrono::seconds(15), [&] { return stopping || next < s->messages.size(); });
        for (; next < s->messages.size(); ++next) chunk += fmt::format("id: {}\ndata: {}\n\n", next, s->messages[next]);
        finished = stopping;
      }
      if (chunk.empty()) chunk = ": still here\n\n";  // keeps proxies and dead peers honest
      if (finished) {
        sink.done();
        return false;
      }
      return sink.write(chunk.data(), chunk.size());
    });
  });

  // An answer: {"choose": INDEX} (and "decision": N, the decision it
  // answers, so a late double click never answers the next one).
  server.Post("/api/answer", [this, fail, stream_of](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("token") || req.get_param_value("token").empty())
      return fail(res, 403, "a spectator cannot answer: open a seat's link");
    Stream* s = stream_of(req, res);
    if (!s) return;
    json body;
    try {
      body = json::parse(req.body);
    } catch (const json::exception& e) {
      return fail(res, 400, std::string("malformed JSON: ") + e.what());
    }
    if (!body.is_object() || !body.contains("choose") || !body["choose"].is_number_integer())
      return fail(res, 400, "expected {\"choose\": INDEX} with an integer INDEX");
    if (body.contains("decision") && !body["decision"].is_number_integer())
      return fail(res, 400, "\"decision\" must be an integer");
    std::lock_guard lock(mutex);
    if (over) return fail(res, 409, "the game is over");
    if (pending_seat != s->seat || answer >= 0)
      return fail(res, 409, fmt::format("it is not seat {}'s decision", s->seat));
    if (body.contains("decision") && body["decision"].get<int64_t>() != decision)
      return fail(res, 409, fmt::format("decision {} is no longer open (decision {} is)",
                                        body["decision"].get<int64_t>(), decision));
    const int64_t index = body["choose"].get<int64_t>();
    if (index < 0 || index >= pending_count)
      return fail(res, 400, fmt::format("option {} is not in 0..{}", index, pending_count - 1));
    answer = static_cast<int>(index);
    s->messages.push_back(json{{"type", "answered"}, {"decision", decision}, {"choose", index}}.dump());
    changed.notify_all();
    res.set_content(json{{"ok", true}, {"decision", decision}}.dump(), "application/json");
  });

  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) res.set_content(error_body(fmt::format("HTTP {}", res.status)), "application/json");
  });
}

WebTable::WebTable(WebTableConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  const auto& c = impl_->config;
  for (Seat s = 0; s < c.spec.players; ++s) {
    if (c.kinds[s] != "human") continue;
    auto stream = std::make_unique<Stream>();
    stream->seat = s;
    stream->token = new_token();
    impl_->streams.push_back(std::move(stream));
  }
  auto spectators = std::make_unique<Stream>();
  spectators->seat = kSpectatorSeat;
  impl_->streams.push_back(std::move(spectators));
  for (auto& s : impl_->streams) {
    s->narrator = std::make_unique<Narrator>(s->narration_text, s->seat);
    s->messages.push_back(impl_->hello(*s).dump());
  }
  const size_t threads = c.threads;
  impl_->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl_->routes();
}

WebTable::~WebTable() { stop(); }

int WebTable::start() {
  auto& server = impl_->server;
  const auto& c = impl_->config;
  port_ = c.port == 0 ? server.bind_to_any_port(c.host) : (server.bind_to_port(c.host, c.port) ? c.port : -1);
  if (port_ < 0) throw SetupError(fmt::format("--port: error: cannot listen on {}:{} (in use, or not an address of this machine)", c.host, c.port));
  impl_->http_thread = std::thread([this] { impl_->server.listen_after_bind(); });
  // stop() only stops a server that is listening: wait until it is.
  for (int i = 0; i < 500 && !server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  impl_->game_thread = std::thread([this] { impl_->play(); });
  return port_;
}

void WebTable::stop() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
    impl_->changed.notify_all();
  }
  if (impl_->game_thread.joinable()) impl_->game_thread.join();
  impl_->server.stop();
  if (impl_->http_thread.joinable()) impl_->http_thread.join();
}

std::string WebTable::token(int seat) const {
  for (const auto& s : impl_->streams)
    if (s->seat == seat) return s->token;
  return "";
}

std::string WebTable::link(int seat) const {
  std::string host = impl_->config.host;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  if (seat < 0) return fmt::format("http://{}:{}/watch", host, port_);
  return fmt::format("http://{}:{}/play?token={}", host, port_, token(seat));
}

bool WebTable::wait_over(double seconds) const {
  std::unique_lock lock(impl_->mutex);
  return impl_->changed.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return impl_->over; });
}

bool WebTable::over() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->over;
}

std::string WebTable::error() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->error;
}

nlohmann::json WebTable::result() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->result;
}

int WebTable::answered() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->answered;
}

std::vector<std::string> WebTable::messages(const std::string& token) const {
  std::lock_guard lock(impl_->mutex);
  if (token.empty()) return impl_->spectators()->messages;
  const Stream* s = impl_->stream_for_token(token);
  if (!s) throw std::out_of_range("unknown token");
  return s->messages;
}

}  // namespace rulebook::cli
