#pragma once
// Inside a Table (table.hpp): its streams and state under one lock, and
// the game thread that writes them. Only runtime/table/ includes this.
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "observation/narrator.hpp"
#include "play/undo.hpp"
#include "table/table.hpp"
#include "table/table_page.hpp"

namespace rulebook {

class Match;

// One reader of the game: a person's seat, or the spectators'.
struct TableStream {
  Seat seat;  // kSpectatorSeat for spectators
  std::string token;
  std::vector<std::string> messages;  // JSON texts, in order; SSE ids are indexes
  size_t last_view = 0;               // index of the last view message (0: none yet; 0 is the table message)
  // The game thread's own: the narration as this seat may know it.
  std::ostringstream narration_text;
  std::unique_ptr<Narrator> narrator;
  // The seat's decision being asked (seat protocol numbering: this seat's
  // decisions, from 1) and its option count; `open` while the game waits
  // for its answer, which Table::answer() leaves in `answer`.
  int decision = 0;
  int count = 0;
  bool open = false;
  std::optional<std::string> answer;
};

class TableCore : public EventSink {
 public:
  using Clock = Table::Clock;
  // The spectators' stream is written as a seat that no player holds: it
  // receives only events every seat receives and sees only public
  // components (at most 31 players, so bit 31 is never a player's).
  static constexpr Seat kSpectatorSeat{31};

  explicit TableCore(TableConfig config);

  // The game thread's body: plays, then sends the end and closes.
  void play();

  // Adds a message (a JSON text) to a stream and tells listeners.
  void push(TableStream& stream, std::string text, bool is_view = false);
  // A JSON value would convert to a string silently (and throw): dump it.
  void push(TableStream& stream, const nlohmann::json& message, bool is_view = false) = delete;
  // Raises the version (lock held) and notes the activity.
  void touch();
  // Calls the listeners (lock NOT held) with `version`, unless they were
  // told a later one already: two threads' changes can reach here in the
  // other order, and the later notice covers the earlier change.
  void tell_listeners(Table::Version version);

  TableStream& stream(Table::StreamId id) const;
  TableStream* stream_of_seat(Seat seat) const;
  TableStream& spectators() const { return *streams.back(); }

  const TableConfig config;
  const std::string instance;
  const DisplayImages images;  // read when the table opens: served by number
  std::thread game_thread;

  mutable std::mutex mutex;
  mutable std::condition_variable changed;  // the version rose, an answer or undo came, or stopping
  std::vector<std::unique_ptr<TableStream>> streams;  // people's seats first, the spectators' last
  Table::Version version = 0;
  TableState state = TableState::created;
  Clock::time_point last_activity = Clock::now();
  bool stopping = false;
  bool over = false;
  std::string error;
  nlohmann::json result;
  std::string log_text;
  TableStream* waiting_for = nullptr;  // the stream whose answer the game waits for
  int answered = 0;
  // An undo asked by a seat, waiting for the game thread to check it (it
  // stays while checked, so that a second one is refused meanwhile).
  struct AskedUndo {
    Seat asker;
    Table::UndoDone done;
    bool checking = false;
  };
  std::optional<AskedUndo> undo_asked;
  // A table brought back: answers given to the simultaneous decision under
  // way before the server stopped (the game thread's, used up as asked).
  std::vector<TableResume::Given> resumed_together;
  // The given answer of `seat` to its decision `number`, taken out (the game thread's).
  std::optional<int> take_resumed(Seat seat, int number);
  // Gives a person's seat's open decision that answer, as the page would have.
  void give_answer(Seat seat, int number, int index);

  // Listeners have their own lock: they are called outside the table's.
  std::mutex listeners_mutex;
  std::map<int, Table::Listener> listeners;
  Table::Version told = 0;  // the last version the listeners were told (under listeners_mutex)
  int next_listener = 1;

 private:
  void on_event(const GameState& state, const Event& e) override;
  void send_narration(TableStream& s, bool flush = false);
  void send_views();
  // `together`: the seats of a simultaneous decision (null: a decision of
  // one seat); its views and waiting messages go out once, with the first.
  void before_decide(Seat seat, int number, int count, const std::vector<Seat>* together = nullptr);
  std::string await_answer(TableStream& s);
  void announce_undo(const UndoCheck& undo, const std::vector<AnswerRecord>& answers);
  void end_pending_undo();

  friend class PageTransport;
  friend class PageSeat;
  Match* match_ = nullptr;                // the game thread's, while it plays
  bool group_announced_ = false;         // the game thread's: the simultaneous decision under way was announced
  std::optional<UndoCheck> undo_going_;  // the game thread's: an undo that goes ahead
};

}  // namespace rulebook
