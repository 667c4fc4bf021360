#include "cli/web_table.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <httplib.h>

#include "agents/external_seat.hpp"
#include "bots/agent_factory.hpp"
#include "cli/commands.hpp"
#include "cli/component_look.hpp"
#include "cli/web_assets.hpp"
#include "observation/event_recorder.hpp"
#include "observation/event_view.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "play/undo.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The spectators' stream is written as a seat that no player holds: it
// receives only events every seat receives and sees only public
// components (at most 31 players, so bit 31 is never a player's).
constexpr Seat kSpectatorSeat{31};

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
  Seat seat;  // kSpectatorSeat for spectators
  std::string token;
  std::vector<std::string> messages;  // JSON texts, in order; SSE ids are indexes
  // The game thread's own: the narration as this seat may know it.
  std::ostringstream narration_text;
  std::unique_ptr<Narrator> narrator;
  // The seat's decision being asked (seat protocol numbering: this seat's
  // decisions, from 1) and its option count; `open` while the game waits
  // for its answer, which an HTTP thread leaves in `answer`.
  int decision = 0;
  int count = 0;
  bool open = false;
  std::optional<std::string> answer;
};

// Thrown out of a web seat's wait when its undo goes ahead: the game
// unwinds and is played again up to the decision taken back.
struct UndoGoesAhead : std::runtime_error {
  UndoGoesAhead() : std::runtime_error("undo") {}
};

struct WebTable::Impl : EventSink {
  WebTableConfig config;
  httplib::Server server;
  std::thread http_thread, game_thread;

  mutable std::mutex mutex;
  mutable std::condition_variable changed;  // a message was added, an answer or undo came, or stopping
  std::vector<std::unique_ptr<Stream>> streams;  // human seats first, the spectators' last
  bool stopping = false;
  bool over = false;
  std::string error;
  json result;
  Stream* waiting_for = nullptr;  // the stream whose answer the game waits for
  int answered = 0;
  // An undo asked by a seat, checked by the game thread; its reply.
  Seat undo_asked;
  std::optional<UndoCheck> undo_reply;
  std::optional<UndoCheck> undo_going;  // the game thread's: an undo that goes ahead

  Match* match = nullptr;  // the game thread's, while it plays
  // The display's images, read when the table opens: served at /display/N.
  std::vector<std::string> image_files;
  std::vector<std::string> images;

  std::string image_url(const std::string& file) const {
    const auto it = std::find(image_files.begin(), image_files.end(), file);
    return fmt::format("/display/{}", it - image_files.begin());
  }

  Stream* stream_for_token(const std::string& token) const {
    for (const auto& s : streams)
      if (s->token == token) return s.get();
    return nullptr;
  }
  Stream* stream_of_seat(Seat seat) const {
    for (const auto& s : streams)
      if (s->seat == seat) return s.get();
    return nullptr;
  }
  Stream* spectators() const { return streams.back().get(); }

  // Adds a message (a JSON text) to a stream.
  void push(Stream& stream, std::string text) {
    std::lock_guard lock(mutex);
    stream.messages.push_back(std::move(text));
    changed.notify_all();
  }
  void push(Stream& stream, const json& message) { push(stream, message.dump()); }

  // The page's own first message: how to draw this game (boards' sizes,
  // component types, who plays each seat). The seat protocol's hello
  // follows when the game begins.
  json table_message(const Stream& s) const {
    const GameDefinition& def = *config.definition;
    json boards = json::object();
    for (const auto& b : def.boards)
      boards[b.name] = {{"title", b.title}, {"width", b.geometry.width()}, {"height", b.geometry.height()}};
    json types = json::object();
    for (const auto& t : def.types) {
      // How each face looks (game.yaml display:, over the defaults).
      json looks = json::object();
      for (const auto& face : t.faces) {
        const ComponentLook look = look_of(def, t.name, face);
        json l{{"label", look.label}, {"glyph", look.glyph}};
        if (!look.colour.empty()) l["colour"] = look.colour;
        if (!look.image.empty()) l["image"] = image_url(look.image);
        looks[face] = std::move(l);
      }
      types[t.name] = {{"title", t.title}, {"kind", t.kind}, {"faces", t.faces}, {"attributes", t.attributes},
                       {"looks", std::move(looks)}};
    }
    json seats = json::array();
    for (size_t i = 0; i < config.kinds.size(); ++i) seats.push_back(config.kinds[i] == "human" ? "web" : config.kinds[i]);
    const bool spectator = s.seat == kSpectatorSeat;
    return json{{"type", "table"},
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

  // The event sink (game thread): each stream's narration and, for the
  // spectators, the events (a seat's events come through its seat).
  void on_event(const GameState& state, const Event& e) override {
    for (auto& s : streams) {
      if (!can_see(e, s->seat)) continue;
      if (s->seat == kSpectatorSeat) push(*s, seat_protocol::event(event_json(state, e, s->seat)));
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

  // Before a human seat's decide (game thread): the views of the moment,
  // and the other pages learn whom the game waits for.
  void before_decide(Seat seat, int number, int count) {
    send_views();
    const std::string player = match->state().player(seat).name;
    for (auto& s : streams)
      if (s->seat != seat) push(*s, json{{"type", "waiting"}, {"seat", seat}, {"player", player}});
    // Open before the decide message goes out: a page may answer the moment
    // it reads it, before the game thread waits in await_answer.
    std::lock_guard lock(mutex);
    Stream& mine = *stream_of_seat(seat);
    mine.decision = number;
    mine.count = count;
    mine.answer.reset();
    mine.open = true;
    waiting_for = &mine;
  }

  // The seat's answer, as one line of the seat protocol (game thread). An
  // undo asked meanwhile (by any seat) is checked here, where the game is
  // still; when it goes ahead the wait ends with UndoGoesAhead.
  std::string await_answer(Stream& s) {
    std::unique_lock lock(mutex);
    s.open = true;  // since before_decide; an answer may be here already
    waiting_for = &s;
    struct Closed {
      Impl& t;
      Stream& s;
      ~Closed() { s.open = false; t.waiting_for = nullptr; }
    } closed{*this, s};
    for (;;) {
      changed.wait(lock, [&] { return s.answer || stopping || (!undo_asked.is_none() && !undo_reply); });
      if (s.answer) return *s.answer;
      if (stopping) throw TransportFault("the table closed while this seat was deciding");
      const Seat asker = undo_asked;
      const std::vector<AnswerRecord> answers = match->answers();
      lock.unlock();
      UndoCheck check;
      try {
        check = check_undo(config.definition, config.limits,
                           ReplayStart{config.spec.players, config.spec.seed, config.spec.names}, answers, asker);
      } catch (const std::exception& e) {
        check = UndoCheck{false, fmt::format("the game could not be replayed ({})", e.what()), 0};
      }
      lock.lock();
      undo_reply = check;
      changed.notify_all();
      if (check.allowed) {
        undo_going = check;
        throw UndoGoesAhead();
      }
    }
  }

  // Every stream hears that decisions were taken back (game thread).
  void announce_undo(const UndoCheck& undo, const std::vector<AnswerRecord>& answers) {
    const size_t taken = answers.size() - undo.keep;
    const std::string line = fmt::format("{} takes back {} decision{}.", match->state().player(answers[undo.keep].seat).name,
                                         taken, taken == 1 ? "" : "s");
    for (auto& s : streams) {
      send_narration(*s, true);
      push(*s, json{{"type", "narration"}, {"lines", json::array({line})}});
    }
  }

  void play() {
    GameResult game_result;
    EventRecorder full_log;
    std::unique_ptr<Match> owned;
    std::vector<std::unique_ptr<Agent>> agents;
    try {
      owned = std::make_unique<Match>(config.definition, config.limits);
      Match& m = *owned;
      std::vector<Agent*> seats;
      for (Seat s : Seat::all(config.spec.players)) {
        if (config.kinds[s.index()] == "human") agents.push_back(std::make_unique<WebSeat>(*this, *stream_of_seat(s)));
        else agents.push_back(build_agent(config.kinds[s.index()], config.agent_settings));
        seats.push_back(agents.back().get());
      }
      // Human seats may take decisions back: the game is played again up
      // to there, quietly (play/undo.hpp), as in rulebook play.
      Rewinder rewinder(m, seats);
      rewinder.install();
      m.add_sink(rewinder.gate(this));
      if (!config.log_file.empty()) m.add_sink(&full_log);
      m.record_answers();
      match = &m;
      for (;;) {
        try {
          game_result = m.play(config.spec.players, config.spec.seed, config.spec.names);
          break;
        } catch (const AgentFailure&) {  // the engine rethrows an agent's exception as AgentFailure
          if (!undo_going) throw;
          announce_undo(*undo_going, m.answers());
          rewinder.rewind(m.answers(), undo_going->keep);
          undo_going.reset();
          full_log = EventRecorder();
        }
      }
      send_views();
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex);
      error = e.what();
    }
    json end = seat_protocol::end(json(nullptr));
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

  // A browser's side of the seat protocol: what the seat sends goes to its
  // page's stream, the answers its page posts come back as lines.
  struct WebTransport : SeatTransport {
    WebTransport(Impl& table, Stream& stream) : table(table), stream(stream) {}
    void send(const std::string& line, Clock::time_point) override { table.push(stream, line); }
    // A person takes the time they need: no deadline.
    std::string receive(Clock::time_point) override {
      if (table.config.before_wait) table.config.before_wait(stream.seat);
      return table.await_answer(stream);
    }
    Impl& table;
    Stream& stream;
  };

  // A human seat: a seat answered from outside the process, like an exec
  // bot (agents/external_seat.hpp), over its page. The table sends the
  // end itself, to every page, after the last view.
  struct WebSeat : ExternalSeat {
    WebSeat(Impl& table, Stream& stream)
        : ExternalSeat(std::make_unique<WebTransport>(table, stream), "web", std::chrono::hours(24 * 365)),
          table(table),
          seat(stream.seat) {}
    int choose(const Decision& d) override {
      table.before_decide(seat, decisions() + 1, d.count());
      return ExternalSeat::choose(d);
    }
    void end_game(const nlohmann::json&) override {}
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
  // The game's own images (game.yaml display:), by number.
  server.Get(R"(/display/(\d+))", [this](const httplib::Request& req, httplib::Response& res) {
    const size_t n = static_cast<size_t>(std::strtoull(req.matches[1].str().c_str(), nullptr, 10));
    if (n >= images.size()) {
      res.status = 404;
      res.set_content(error_body("no such image"), "application/json");
      return;
    }
    const std::string& file = image_files[n];
    const std::string ext = file.substr(file.rfind('.') + 1);
    const char* type = ext == "svg" ? "image/svg+xml" : ext == "png" ? "image/png" : ext == "gif" ? "image/gif"
                       : ext == "webp" ? "image/webp" : "image/jpeg";
    res.set_header("Cache-Control", "max-age=3600");
    res.set_content(images[n], type);
  });
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
  // answers, so a late double click never answers the next one): the seat
  // protocol's answer, checked by its own parser before the game sees it.
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
    std::lock_guard lock(mutex);
    if (over) return fail(res, 409, "the game is over");
    if (!s->open || s->answer) return fail(res, 409, fmt::format("it is not seat {}'s decision", s->seat));
    if (body.is_object() && body.contains("decision") && body["decision"].is_number_integer() &&
        body["decision"].get<int64_t>() != s->decision)
      return fail(res, 409, fmt::format("decision {} is no longer open (decision {} is)",
                                        body["decision"].get<int64_t>(), s->decision));
    const seat_protocol::Answer answer = seat_protocol::check_answer(body, s->count, s->decision);
    if (!answer.ok()) return fail(res, 400, answer.error);
    s->answer = json{{"choose", answer.index}, {"decision", s->decision}}.dump();
    ++answered;
    s->messages.push_back(json{{"type", "answered"}, {"decision", s->decision}, {"choose", answer.index}}.dump());
    changed.notify_all();
    res.set_content(json{{"ok", true}, {"decision", s->decision}}.dump(), "application/json");
  });

  // Undo: the seat takes back its last decision and every one after it,
  // unless something was revealed to anybody since (play/undo.hpp). The
  // game thread checks it while it waits for a person's answer; a refusal
  // is a 409 with the reason and changes nothing.
  server.Post("/api/undo", [this, fail, stream_of](const httplib::Request& req, httplib::Response& res) {
    if (!req.has_param("token") || req.get_param_value("token").empty())
      return fail(res, 403, "a spectator cannot undo: open a seat's link");
    Stream* s = stream_of(req, res);
    if (!s) return;
    std::unique_lock lock(mutex);
    if (over) return fail(res, 409, "the game is over");
    if (!waiting_for || waiting_for->answer)
      return fail(res, 409, "cannot undo now: a bot is deciding (try again in a moment)");
    if (!undo_asked.is_none()) return fail(res, 409, "cannot undo now: another undo is being checked");
    undo_asked = s->seat;
    undo_reply.reset();
    changed.notify_all();
    changed.wait(lock, [&] { return undo_reply.has_value() || stopping || over; });
    undo_asked = Seat::none();
    if (!undo_reply) return fail(res, 409, stopping ? "the table closed" : "the game is over");
    const UndoCheck check = *undo_reply;
    undo_reply.reset();
    changed.notify_all();
    if (!check.allowed) return fail(res, 409, "cannot undo: " + check.reason);
    res.set_content(json{{"ok", true}}.dump(), "application/json");
  });

  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) res.set_content(error_body(fmt::format("HTTP {}", res.status)), "application/json");
  });
}

WebTable::WebTable(WebTableConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  const auto& c = impl_->config;
  for (Seat s : Seat::all(c.spec.players)) {
    if (c.kinds[s.index()] != "human") continue;
    auto stream = std::make_unique<Stream>();
    stream->seat = s;
    stream->token = new_token();
    impl_->streams.push_back(std::move(stream));
  }
  auto spectators = std::make_unique<Stream>();
  spectators->seat = kSpectatorSeat;
  impl_->streams.push_back(std::move(spectators));
  // Every image the display names, read once (the loader checked they exist).
  const GameDefinition& def = *c.definition;
  auto add_image = [&](const nlohmann::json& style) {
    if (!style.is_object() || !style.contains("image")) return;
    const std::string file = style["image"];
    if (std::find(impl_->image_files.begin(), impl_->image_files.end(), file) != impl_->image_files.end()) return;
    std::ifstream in(def.dir + "/" + file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    impl_->image_files.push_back(file);
    impl_->images.push_back(bytes.str());
  };
  for (const auto& [type, style] : def.display.items()) {
    add_image(style);
    if (style.contains("faces"))
      for (const auto& [face, face_style] : style["faces"].items()) add_image(face_style);
  }
  for (auto& s : impl_->streams) {
    s->narrator = std::make_unique<Narrator>(s->narration_text, s->seat);
    s->messages.push_back(impl_->table_message(*s).dump());
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

std::string WebTable::token(Seat seat) const {
  for (const auto& s : impl_->streams)
    if (s->seat == seat) return s->token;
  return "";
}

std::string WebTable::link(Seat seat) const {
  std::string host = impl_->config.host;
  if (host == "0.0.0.0" || host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  if (seat.is_none()) return fmt::format("http://{}:{}/watch", host, port_);
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
