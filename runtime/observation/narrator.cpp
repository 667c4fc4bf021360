#include "observation/narrator.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <string_view>

#include <fmt/format.h>

#include "core/board_geometry.hpp"
#include "core/game_state.hpp"
#include "core/safe_text.hpp"
#include "observation/event_view.hpp"

namespace rulebook {
namespace {

std::string plural(const std::string& word, int n) {
  if (n == 1) return word;
  if (word.size() > 2 && word.substr(word.size() - 2) == "ie") return word.substr(0, word.size() - 2) + "ice";  // die
  if (!word.empty() && word.back() == 's') return word;
  if (!word.empty() && (word.back() == 'x' || word.back() == 'z')) return word + "es";  // Sixes
  if (word.size() > 2 && (word.substr(word.size() - 2) == "ch" || word.substr(word.size() - 2) == "sh")) return word + "es";
  return word + "s";
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Whether `text` names `word` (any case), starting at a word boundary:
// "The full shark at (1,3)" names "shark" and "(1,3)"; "sharks" names "shark".
// `t` is the text in lower case.
bool mentions_lowered(const std::string& t, const std::string& word) {
  if (word.empty()) return false;
  const std::string w = lower(word);
  for (size_t at = t.find(w); at != std::string::npos; at = t.find(w, at + 1))
    if (at == 0 || !std::isalnum(static_cast<unsigned char>(t[at - 1])) || !std::isalnum(static_cast<unsigned char>(w[0])))
      return true;
  return false;
}

// The rules' messages of one action, in lower case, searched for the words
// of its other lines. An action's lines may be many (a 20,000-card deal
// with a message each): every search is paid for from a fixed allowance of
// characters read, and once it is spent the action's remaining lines are
// told as they are, unmerged, so that narrating costs at most a constant
// times the action's size (it runs in C++, where the script's CPU budget
// cannot stop it).
class MessageIndex {
 public:
  static constexpr size_t kAllowance = size_t{1} << 24;  // characters read per action

  explicit MessageIndex(const std::vector<Narrator::Line>& lines) {
    for (const auto& l : lines)
      if (l.kind == Narrator::Line::Message) {
        texts_.push_back(lower(l.text));
        length_ += texts_.back().size() + 1;
      }
  }
  // Whether one message names every word of `words`; the same question
  // is answered once. False once the allowance is spent.
  bool any_names(const std::vector<std::string>& words) {
    if (texts_.empty()) return false;
    std::string key;
    for (const auto& w : words) key += w + '\0';
    const auto known = answers_.find(key);
    if (known != answers_.end()) return known->second;
    if (spent_ + length_ * words.size() > kAllowance) return answers_[key] = false;
    spent_ += length_ * words.size();
    bool named = false;
    for (const auto& t : texts_) {
      bool all = true;
      for (const auto& w : words) all = all && mentions_lowered(t, w);
      if (all) {
        named = true;
        break;
      }
    }
    return answers_[key] = named;
  }

 private:
  std::vector<std::string> texts_;
  size_t length_ = 0;
  size_t spent_ = 0;
  std::unordered_map<std::string, bool> answers_;
};

// "Trick 3", or "Round 2, trick 3" in a game played in rounds.
std::string trick_heading(int game_round, int trick) {
  return game_round > 0 ? fmt::format("Round {}, trick {}", game_round, trick) : fmt::format("Trick {}", trick);
}

std::string capitalised(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

std::string number_word(int n) {
  static const char* const kWords[] = {"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"};
  return n >= 0 && n <= 10 ? kWords[n] : std::to_string(n);
}

std::string cell_text(const GameState& s, int board, int cell) {
  const auto& g = s.definition().boards[board].geometry;
  if (g.named()) return g.cell_name(cell);
  return fmt::format("({},{})", g.x(cell) + 1, g.y(cell) + 1);
}

bool is_yes_no(const Event& e) { return e.from == 2 && (e.text == "yes" || e.text == "no"); }

// How far a run of moves of one type within one board went, alike for all:
// "one place along the ring", "one place east"; empty when they differ.
std::string common_step(const GameState& s, const std::vector<const Narrator::Line*>& run) {
  const auto& g = s.definition().boards[run.front()->board].geometry;
  for (const auto& path : g.paths()) {
    int steps = 0;
    bool alike = true;
    for (const auto* m : run) {
      const int a = BoardGeometry::position_on(path, m->from_cell), b = BoardGeometry::position_on(path, m->to_cell);
      const int n = static_cast<int>(path.cells.size());
      int d = a < 0 || b < 0 ? 0 : (path.cyclic ? ((b - a) % n + n) % n : b - a);
      if (path.cyclic && d > n / 2) d -= n;
      if (d == 0 || (m != run.front() && d != steps)) alike = false;
      steps = d;
      if (!alike) break;
    }
    if (!alike) continue;
    std::string name = path.name;
    for (char& c : name)
      if (c == '_') c = ' ';
    const int n = steps < 0 ? -steps : steps;
    return fmt::format("{} {} {} the {}", number_word(n), n == 1 ? "place" : "places",
                       steps < 0 ? "back along" : "along", name);
  }
  Direction d{};
  bool alike = true;
  int distance = 0;
  for (const auto* m : run) {
    Direction here{};
    const int dx = std::abs(g.x(m->to_cell) - g.x(m->from_cell)), dy = std::abs(g.y(m->to_cell) - g.y(m->from_cell));
    const int n = dx > dy ? dx : dy;
    if (!g.direction_between(m->from_cell, m->to_cell, here) || (m != run.front() && (here != d || n != distance))) {
      alike = false;
      break;
    }
    d = here;
    distance = n;
  }
  if (!alike) return {};
  return fmt::format("{} {} {}", number_word(distance), distance == 1 ? "place" : "places", to_string(d));
}

}  // namespace

const char* to_string(NarrationLevel level) {
  switch (level) {
    case NarrationLevel::Brief: return "brief";
    case NarrationLevel::Normal: return "normal";
    case NarrationLevel::Full: return "full";
  }
  return "normal";
}

bool parse_narration_level(const std::string& text, NarrationLevel& out) {
  for (auto level : {NarrationLevel::Brief, NarrationLevel::Normal, NarrationLevel::Full})
    if (text == to_string(level)) {
      out = level;
      return true;
    }
  return false;
}

std::string with_article(const std::string& noun) {
  if (noun.empty()) return noun;
  return (std::string("AEIOUaeiou").find(noun[0]) != std::string::npos ? "an " : "a ") + noun;
}

std::string board_coordinates(const BoardDef& board) {
  const BoardGeometry& g = board.geometry;
  if (g.named())
    return fmt::format("{}, {}x{}: a square is named by its column then its row, {} being the top-left corner and {} "
                       "the bottom-right", board.title.empty() ? board.name : board.title, g.width(), g.height(),
                       g.cell_name(0), g.cell_name(g.cell_count() - 1));
  return fmt::format("{}, {}x{}: a cell is written (column,row), (1,1) being the top-left corner",
                     board.title.empty() ? board.name : board.title, board.geometry.width(),
                     board.geometry.height());
}

std::string describe_component(const GameState& state, ComponentId id, Seat seat) {
  return describe_component(state, id, state.visible_to(id, seat));
}

std::string describe_component(const GameState& state, ComponentId id, bool known) {
  const ComponentType& t = state.type_of(id);
  if (!known) return with_article(t.kind);
  if (t.faces.size() > 1) return fmt::format("{} ({})", t.title, state.face_name(id));
  return t.title;
}

Narrator::~Narrator() { flush(); }

void Narrator::emit_line(const std::string& line) {
  if (!style_.escape_controls) {
    out_ << line << '\n';
    return;
  }
  // Text between the style's escapes is made safe; the escapes pass.
  std::string_view rest = line;
  for (;;) {
    size_t cut = rest.size();
    const std::string* mark = nullptr;
    for (const std::string* m : {&style_.strong, &style_.faint, &style_.reset}) {
      const size_t at = m->empty() ? std::string_view::npos : rest.find(*m);
      if (at < cut) {
        cut = at;
        mark = m;
      }
    }
    out_ << terminal_text(rest.substr(0, cut));
    if (!mark) break;
    out_ << *mark;
    rest.remove_prefix(cut + mark->size());
  }
  out_ << '\n';
}

void Narrator::flush() {
  resolve();
  if (level_ == NarrationLevel::Brief && !brief_items_.empty()) {
    end_brief_turn();
    brief_head_ = "  ...";  // the turn goes on after a person's answer
  }
}

void Narrator::add(Line line) { action_.push_back(std::move(line)); }

void Narrator::on_event(const GameState& s, const Event& e) {
  if (!can_see(e, seat_)) return;
  state_ = &s;
  auto name = [&](Seat seat) { return !seat.is_none() && seat.value() < s.player_count() ? s.player(seat).name : std::string("?"); };
  const bool visible = !e.component.is_none() && s.visible_to(e.component, seat_);
  Line line;
  switch (e.type) {
    case EventType::Roll: {
      const std::string face = visible ? s.face_name(e.component) : "?";
      if (!action_.empty() && action_.back().kind == Line::Roll && action_.back().zone == e.from) {
        action_.back().text += ", " + face;
        return;
      }
      const Seat owner = s.zone_owner(e.from);
      line.kind = Line::Roll;
      line.zone = e.from;
      line.text = !owner.is_none() ? fmt::format("{} rolls: {}", name(owner), face)
                             : fmt::format("{} rolled: {}", s.zone_title(e.from), face);
      add(std::move(line));
      return;
    }
    case EventType::Move: {
      // As the seat saw it move: one who knew it before still knows what moved.
      const bool known = knows_event_component(s, e, seat_);
      const std::string what = describe_component(s, e.component, known);
      const std::string from = e.from >= 0 ? s.zone_title(e.from) : "nowhere";
      const std::string to = s.zone_title(e.to);
      const GameDefinition& def = s.definition();
      const ZoneDef& dest = def.zone_defs[def.zone_def_of[e.to]];
      const ZoneDef* source = e.from >= 0 ? &def.zone_defs[def.zone_def_of[e.from]] : nullptr;
      const auto& t = s.type_of(e.component);
      line.kind = Line::Move;
      line.text = fmt::format("{} moves from {} to {}", what, from, to);
      // Moves onto several cells of one board are counted together
      // ("25 tiles move from the bag to the field").
      line.group = dest.board >= 0 ? fmt::format("{}:board{}:{}", e.from, dest.board, what)
                                   : fmt::format("{}:{}:{}", e.from, e.to, what);
      const std::string many = known ? (t.faces.size() > 1 ? fmt::format("{} ({})", plural(t.title, 2), s.face_name(e.component))
                                                             : plural(t.title, 2))
                                       : plural(t.kind, 2);
      line.counted = fmt::format("{} move from {} to {}", many, from, dest.board >= 0 ? dest.title : to);
      line.counted_exact = fmt::format("{} move from {} to {}", many, from, to);
      line.from = e.from;
      line.to = e.to;
      line.to_title = to;
      if (dest.per_player) {
        line.dest_def = def.zone_def_of[e.to];
        line.dest_owner = Seat{def.zone_key_of[e.to]};
      }
      line.from_title = from;
      line.dest_board = dest.board;
      line.plural_kind = plural(t.kind, 2);
      line.plural_title = plural(t.title, 2);
      if (known) {
        line.title = t.title;
        line.type = s.component(e.component).type;
        line.mark = dest.board >= 0 ? cell_text(s, dest.board, def.zone_key_of[e.to]) : to;
        if (dest.board >= 0 && source && source->board == dest.board) {
          line.board = dest.board;
          line.from_cell = def.zone_key_of[e.from];
          line.to_cell = def.zone_key_of[e.to];
        }
      }
      add(std::move(line));
      return;
    }
    case EventType::SetFace:
    case EventType::Reveal:
    case EventType::Hide:
    case EventType::Facing: {
      const auto& t = s.type_of(e.component);
      const std::string at = s.zone_title(e.from);
      line.kind = Line::Change;
      if (e.type == EventType::SetFace) {
        line.text = visible ? fmt::format("{} at {} turns to {}", t.title, at, t.faces[e.value])
                            : fmt::format("{} at {} turns over", with_article(t.kind), at);
        line.mark = t.faces[e.value];
      } else if (e.type == EventType::Reveal) {
        line.text = fmt::format("{} at {} is revealed", describe_component(s, e.component, seat_), at);
      } else if (e.type == EventType::Hide) {
        line.text = fmt::format("{} at {} is turned face down", t.title, at);
      } else {
        line.mark = to_string(static_cast<Direction>(e.value));
        line.text = fmt::format("{} at {} now faces {}", t.title, at, line.mark);
      }
      if (line.mark.empty()) {
        const GameDefinition& def = s.definition();
        const ZoneDef& z = def.zone_defs[def.zone_def_of[e.from]];
        line.mark = z.board >= 0 ? cell_text(s, z.board, def.zone_key_of[e.from]) : at;
      }
      if (visible) line.title = t.title;
      add(std::move(line));
      return;
    }
    case EventType::Peek:
      line.text = fmt::format("{} secretly looks at {} at {}", name(e.seat), describe_component(s, e.component, seat_),
                              s.zone_title(e.from));
      add(std::move(line));
      return;
    case EventType::Shuffle:
      line.text = fmt::format("{} is shuffled ({} {})", s.zone_title(e.from), e.value, e.value == 1 ? "item" : "items");
      add(std::move(line));
      return;
    case EventType::Score:
      line.text = fmt::format("{} scores {:+d} (now {})", name(e.seat), e.value, e.to);
      add(std::move(line));
      return;
    case EventType::Eliminate:
      line.text = fmt::format("{} is out of the game", name(e.seat));
      add(std::move(line));
      return;
    case EventType::SitOut:
      line.text = fmt::format("{} is out of this round", name(e.seat));
      add(std::move(line));
      return;
    case EventType::Message:
      line.kind = Line::Message;
      line.text = e.text;
      if (seat_.is_none() && e.audience != ~SeatMask{0}) {  // the onlooker hears who was told (game:say_to)
        std::string to;
        for (Seat seat : Seat::all(s.player_count()))
          if (e.audience & seat_bit(seat)) to += (to.empty() ? "" : ", ") + name(seat);
        line.text = fmt::format("(to {}) {}", to, e.text);
      }
      add(std::move(line));
      return;
    case EventType::Choice: {
      // One legal option is no decision: what happens is told by the events
      // that follow, and nobody was asked anything.
      if (hides_choice(e, seat_)) {
        // A private decision, to another seat: that a choice was made, not
        // which, and alike whether there was one option or many (telling
        // only real choices would tell what the hand holds). Brief leaves it out.
        resolve();
        line.kind = Line::Choice;
        line.text = fmt::format("{}{} makes a choice{}", style_.faint, name(e.seat), style_.reset);
        line.secret = true;
        add(std::move(line));
        return;
      }
      if (e.from == 1) return;
      resolve();
      line.kind = Line::Choice;
      line.label = e.text;
      const bool yes_no = is_yes_no(e);
      line.text = yes_no ? fmt::format("{}{} answers {} to \"{}\"{}", style_.faint, name(e.seat), e.text, e.prompt, style_.reset)
                         : fmt::format("{}{} chooses: {}{}", style_.faint, name(e.seat), e.text, style_.reset);
      const std::string what = yes_no ? fmt::format("{} {}", e.prompt, e.text) : "chooses " + e.text;
      line.brief = e.seat == turn_seat_ ? what : fmt::format("{}{} {}", name(e.seat), yes_no ? ":" : "", what);
      add(std::move(line));
      return;
    }
    default: break;
  }
  resolve();
  switch (e.type) {
    case EventType::GameStart: {
      std::string names;
      for (Seat i : Seat::all(s.player_count())) names += (i.value() ? ", " : "") + s.player(i).name;
      emit_line(fmt::format("{}{}{} for {} players: {} (seed {})", style_.strong, s.definition().title, style_.reset,
                            s.player_count(), names, s.seed()));
      for (const auto& board : s.definition().boards) emit_line("Board: " + board_coordinates(board));
      if (level_ == NarrationLevel::Brief) brief_head_ = "Setup";
      break;
    }
    case EventType::TurnBegin: {
      if (level_ == NarrationLevel::Brief) end_brief_turn();
      turn_seat_ = e.seat;
      // A game played in rounds counts its own rounds, not the laps; a
      // game of tricks names its trick instead of the laps.
      const int round = e.to > 0 ? e.to : e.value;
      const std::string where =
          s.turns().tricks_started() > 0 ? trick_heading(e.to, s.turns().trick()) : fmt::format("Round {}", round);
      if (level_ == NarrationLevel::Brief) {
        brief_head_ = fmt::format("{}{}, {}{}", style_.strong, where, name(e.seat), style_.reset);
      } else {
        emit_line(fmt::format("{}-- {}, {}'s turn --{}", style_.strong, where, name(e.seat), style_.reset));
      }
      break;
    }
    case EventType::TrickBegin:
    case EventType::PhaseBegin: {
      // Games without turns (everybody acts at once) are told by their tricks and phases.
      if (level_ == NarrationLevel::Brief) end_brief_turn();
      turn_seat_ = Seat::none();
      const int game_round = s.turns().game_round(), trick = s.turns().trick();
      std::string heading;
      if (e.type == EventType::TrickBegin) {
        heading = trick_heading(game_round, trick);
        if (!e.seat.is_none()) heading += fmt::format(", {} leads", name(e.seat));
      } else {
        const std::string context = trick > 0 ? trick_heading(game_round, trick)
                                              : game_round > 0 ? fmt::format("Round {}", game_round) : "";
        heading = context.empty() ? capitalised(e.text) : context + ": " + e.text;
      }
      if (level_ == NarrationLevel::Brief) brief_head_ = fmt::format("{}{}{}", style_.strong, heading, style_.reset);
      else emit_line(fmt::format("{}-- {} --{}", style_.strong, heading, style_.reset));
      break;
    }
    case EventType::RoundBegin:
      if (level_ == NarrationLevel::Brief) end_brief_turn();
      turn_seat_ = Seat::none();  // the deal belongs to no turn
      // A round of a game without turns has no first player to name.
      if (e.seat.is_none()) emit_line(fmt::format("{}== Round {} begins =={}", style_.strong, e.value, style_.reset));
      else emit_line(fmt::format("{}== Round {} begins: {} plays first =={}", style_.strong, e.value, name(e.seat),
                                 style_.reset));
      if (level_ == NarrationLevel::Brief) brief_head_ = fmt::format("Round {}, the deal", e.value);
      break;
    case EventType::GameEnd:
      if (level_ == NarrationLevel::Brief) end_brief_turn();
      emit_line(fmt::format("{}Game over: {}{}", style_.strong, e.text, style_.reset));
      break;
    default: break;
  }
}

void Narrator::end_brief_turn() {
  // A turn is told even when nothing happened in it; the setup or a deal only when something did.
  if (brief_items_.empty() && (brief_head_.empty() || turn_seat_.is_none())) {
    brief_head_.clear();
    return;
  }
  std::string line = brief_head_;
  // "Round 2, Lou: flips a Koi": the turn's player is named once.
  const std::string subject = !turn_seat_.is_none() && state_ ? state_->player(turn_seat_).name + " " : std::string();
  for (size_t i = 0; i < brief_items_.size(); ++i) {
    const std::string& item = brief_items_[i];
    const bool named = !subject.empty() && item.size() > subject.size() && item.compare(0, subject.size(), subject) == 0;
    line += (i ? "; " : ": ") + (named ? item.substr(subject.size()) : item);
  }
  if (!line.empty()) emit_line(line);
  brief_head_.clear();
  brief_items_.clear();
}

// The held-back action as lines: covered changes dropped, moves counted or
// summarised (normal and brief); everything on its own line (full).
// Brief marks component lines with a leading \x01: kept only when nothing
// else tells the action.
std::vector<std::string> Narrator::render(std::vector<Line>& lines) const {
  const bool full = level_ == NarrationLevel::Full;
  MessageIndex messages(lines);
  if (!full)
    for (auto& l : lines)
      if ((l.kind == Line::Move || l.kind == Line::Change) && !l.title.empty())
        l.covered = messages.any_names({l.title, l.mark});
  std::vector<std::string> out;
  // A deal's stretch of moves found too small to tell as one (its start's
  // zone and destination, and where it ends): a later start inside it is
  // a part of it, too small as well, and is not scanned again.
  size_t deal_refused_until = 0;
  int deal_refused_from = -1, deal_refused_dest = -1;
  for (size_t i = 0; i < lines.size();) {
    const Line& l = lines[i];
    if (l.covered) {
      ++i;
      continue;
    }
    if (l.kind == Line::Move && full) {
      // Full: every move, identical ones (same component kind, same places) counted.
      int count = 1;
      while (i + count < lines.size() && lines[i + count].kind == Line::Move && lines[i + count].text == l.text) ++count;
      out.push_back(count == 1 ? l.text : fmt::format("{} {}", count, l.counted_exact));
      i += count;
      continue;
    }
    if (l.kind != Line::Move) {
      if (level_ == NarrationLevel::Brief && l.kind == Line::Choice && l.secret) {
        // nothing: another seat's private choice tells nothing in brief
      } else if (level_ == NarrationLevel::Brief && l.kind == Line::Choice) {
        // A choice a message of its action names ("the field (4,4)") is told by it.
        if (!messages.any_names({l.label})) out.push_back(l.brief);
      } else if (level_ != NarrationLevel::Brief || l.kind != Line::Change) {
        out.push_back(l.text);
      } else {
        out.push_back("\x01" + l.text);  // a component line: brief keeps it only when nothing else tells
      }
      ++i;
      continue;
    }
    // A run of moves of one type within one board: summarised when many.
    std::vector<const Line*> run;
    size_t j = i;
    for (; j < lines.size(); ++j) {
      if (lines[j].covered) continue;
      const Line& m = lines[j];
      if (m.kind != Line::Move || m.board < 0 || m.type != l.type || m.board != l.board) break;
      run.push_back(&m);
    }
    if (l.board >= 0 && run.size() >= 3) {
      const int total = state_->definition().types[l.type].count;
      const int n = static_cast<int>(run.size());
      const std::string how = common_step(*state_, run);
      const std::string board = state_->definition().boards[l.board].title;
      std::string text = n == total ? fmt::format("every {} moves {}", l.title, how.empty() ? "on " + board : how)
                                    : fmt::format("{} {} move {}", n, l.plural_title, how.empty() ? "on " + board : how);
      if (!how.empty()) text += " of " + board;
      const bool told = messages.any_names({l.title, "every"}) || messages.any_names({l.title, "all"}) ||
                        messages.any_names({l.title, std::to_string(n)});
      if (!told) out.push_back(text);
      i = j;
      continue;
    }
    // Consecutive identical moves: counted.
    int count = 1;
    size_t k = i + 1;
    for (; k < lines.size(); ++k) {
      if (lines[k].covered) continue;
      if (lines[k].kind != Line::Move || lines[k].group != l.group) break;
      ++count;
    }
    if (count > 1) {
      const std::string text = fmt::format("{} {}", count, l.counted);
      out.push_back(level_ == NarrationLevel::Brief ? "\x01" + text : text);
      i = k;
      continue;
    }
    // Many moves from one zone into the hands of several players (a deal):
    // one line, and what the narrated seat itself received.
    if (l.dest_def >= 0 && !(i < deal_refused_until && l.from == deal_refused_from && l.dest_def == deal_refused_dest)) {
      size_t h = i;
      std::vector<std::pair<std::string, int>> per_zone;  // zone title, count (in order of first arrival)
      std::vector<std::string> mine;
      std::string mine_zone;
      for (; h < lines.size(); ++h) {
        if (lines[h].covered) continue;
        const Line& m = lines[h];
        if (m.kind != Line::Move || m.dest_def < 0 || m.dest_def != l.dest_def || m.from != l.from) break;
        auto it = std::find_if(per_zone.begin(), per_zone.end(), [&](const auto& z) { return z.first == m.to_title; });
        if (it == per_zone.end()) per_zone.emplace_back(m.to_title, 1);
        else ++it->second;
        if (!seat_.is_none() && m.dest_owner == seat_ && !m.title.empty()) {
          mine.push_back(m.title);
          mine_zone = m.to_title;
        }
      }
      int dealt = 0;
      for (const auto& z : per_zone) dealt += z.second;
      if (l.dest_def >= 0 && dealt >= 6 && per_zone.size() >= 2) {
        std::string text = fmt::format("{} {} are dealt from {}:", dealt, l.plural_kind, l.from_title);
        for (size_t z = 0; z < per_zone.size(); ++z)
          text += fmt::format("{} {} to {}", z ? "," : "", per_zone[z].second, per_zone[z].first);
        out.push_back(text);
        if (!mine.empty()) {
          std::string list;
          for (size_t k = 0; k < mine.size(); ++k) list += (k ? ", " : "") + mine[k];
          const std::string receives = fmt::format("{} receives: {}", mine_zone, list);
          out.push_back(level_ == NarrationLevel::Brief ? "\x01" + receives : receives);
        }
        i = h;
        continue;
      }
      deal_refused_until = h;
      deal_refused_from = l.from;
      deal_refused_dest = l.dest_def;
    }
    // Many moves from one zone onto one board (a layout dealt): counted.
    size_t d = i;
    bool one_type = true;
    for (; d < lines.size(); ++d) {
      if (lines[d].covered) continue;
      const Line& m = lines[d];
      if (m.kind != Line::Move || m.dest_board < 0 || m.dest_board != l.dest_board || m.from != l.from) break;
      one_type = one_type && m.type == l.type && m.type >= 0;
    }
    int dealt = 0;
    for (size_t x = i; x < d; ++x) dealt += !lines[x].covered;
    if (l.dest_board >= 0 && dealt >= (one_type ? 3 : 8)) {
      const std::string text = fmt::format("{} {} move from {} to {}", dealt, one_type ? l.plural_title : l.plural_kind,
                                           l.from_title, state_->definition().boards[l.dest_board].title);
      out.push_back(level_ == NarrationLevel::Brief ? "\x01" + text : text);
      i = d;
      continue;
    }
    out.push_back(level_ == NarrationLevel::Brief ? "\x01" + l.text : l.text);
    ++i;
  }
  return out;
}

void Narrator::resolve() {
  if (action_.empty()) return;
  const auto lines = render(action_);
  action_.clear();
  if (level_ != NarrationLevel::Brief) {
    for (const auto& text : lines) emit_line(text);
    return;
  }
  auto detail = [](const std::string& text) { return !text.empty() && text[0] == '\x01'; };
  bool told = false;
  for (const auto& text : lines) told = told || !detail(text);
  for (const auto& text : lines)
    if (!detail(text)) brief_items_.push_back(text);
    else if (!told) brief_items_.push_back(text.substr(1));
}

}  // namespace rulebook
