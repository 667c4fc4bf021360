#include "observation/narrator.hpp"

#include <fmt/format.h>

#include "core/game_state.hpp"
#include "observation/event_view.hpp"

namespace rulebook {
namespace {

std::string plural(const std::string& word, int n) {
  if (n == 1) return word;
  if (word.size() > 2 && word.substr(word.size() - 2) == "ie") return word.substr(0, word.size() - 2) + "ice";  // die
  if (!word.empty() && word.back() == 's') return word;
  return word + "s";
}

}  // namespace

std::string describe_component(const GameState& state, ComponentId id, Seat seat) {
  return describe_component(state, id, state.visible_to(id, seat));
}

std::string describe_component(const GameState& state, ComponentId id, bool known) {
  const ComponentType& t = state.type_of(id);
  if (!known) return "a " + t.kind;
  if (t.faces.size() > 1) return fmt::format("{} ({})", t.title, state.face_name(id));
  return t.title;
}

Narrator::~Narrator() { flush(); }

void Narrator::emit_line(const std::string& line) { out_ << line << '\n'; }

void Narrator::flush() {
  if (pending_key_.empty()) return;
  if (pending_roll_ || pending_count_ <= 1) emit_line(pending_text_);
  else emit_line(fmt::format("{} {}", pending_count_, pending_counted_));
  pending_key_.clear();
  pending_count_ = 0;
  pending_roll_ = false;
}

void Narrator::on_event(const GameState& s, const Event& e) {
  if (!can_see(e, seat_)) return;
  auto name = [&](int seat) { return seat >= 0 && seat < s.player_count() ? s.player(seat).name : std::string("?"); };
  switch (e.type) {
    case EventType::Roll: {
      const std::string key = fmt::format("roll:{}", e.from);
      const std::string face = s.visible_to(e.component, seat_) ? s.face_name(e.component) : "?";
      if (pending_key_ == key) {
        pending_text_ += ", " + face;
        return;
      }
      flush();
      const int owner = s.zone_owner(e.from);
      pending_key_ = key;
      pending_roll_ = true;
      pending_text_ = owner >= 0 ? fmt::format("{} rolls: {}", name(owner), face)
                                 : fmt::format("{} rolled: {}", s.zone_title(e.from), face);
      return;
    }
    case EventType::Move: {
      // As the seat saw it move: one who knew it before still knows what moved.
      // Moves of components that end up hidden from the seat are counted
      // together by kind ("36 cards move from the discard pile to the draw
      // pile"); a single one is named when the seat knew it.
      const bool known = knows_event_component(s, e, seat_);
      const bool still_known = s.visible_to(e.component, seat_);
      const std::string what = describe_component(s, e.component, known);
      const std::string counted_as = still_known ? what : describe_component(s, e.component, false);
      const std::string from = e.from >= 0 ? s.zone_title(e.from) : "nowhere";
      const std::string to = s.zone_title(e.to);
      // Moves onto several cells of one board are counted together
      // ("25 tiles move from the bag to the field").
      const GameDefinition& def = s.definition();
      const ZoneDef& dest = def.zone_defs[def.zone_def_of[e.to]];
      const std::string to_many = dest.board >= 0 ? dest.title : to;
      const std::string key = dest.board >= 0 ? fmt::format("move:{}:board{}:{}", e.from, dest.board, counted_as)
                                              : fmt::format("move:{}:{}:{}", e.from, e.to, counted_as);
      if (pending_key_ == key) {
        ++pending_count_;
        return;
      }
      flush();
      pending_key_ = key;
      pending_count_ = 1;
      pending_text_ = fmt::format("{} moves from {} to {}", what, from, to);
      const auto& t = s.type_of(e.component);
      std::string many = still_known
                             ? (t.faces.size() > 1 ? fmt::format("{} ({})", plural(t.title, 2), s.face_name(e.component))
                                                   : plural(t.title, 2))
                             : plural(t.kind, 2);
      pending_counted_ = fmt::format("{} move from {} to {}", many, from, to_many);
      return;
    }
    default: break;
  }
  flush();
  switch (e.type) {
    case EventType::GameStart: {
      std::string names;
      for (int i = 0; i < s.player_count(); ++i) names += (i ? ", " : "") + s.player(i).name;
      emit_line(fmt::format("{}{}{} for {} players: {} (seed {})", style_.strong,
                            s.definition().title, style_.reset, s.player_count(), names, s.seed()));
      break;
    }
    case EventType::TurnBegin:
      // A game played in rounds counts its own rounds, not the laps.
      emit_line(fmt::format("{}-- Round {}, {}'s turn --{}", style_.strong, e.to > 0 ? e.to : e.value, name(e.seat),
                            style_.reset));
      break;
    case EventType::RoundBegin:
      emit_line(fmt::format("{}== Round {} begins: {} plays first =={}", style_.strong, e.value, name(e.seat),
                            style_.reset));
      break;
    case EventType::SitOut: emit_line(fmt::format("{} is out of this round", name(e.seat))); break;
    case EventType::SetFace:
      emit_line(fmt::format("{} at {} turns to {}", s.type_of(e.component).title,
                            s.zone_title(e.from), s.type_of(e.component).faces[e.value]));
      break;
    case EventType::Reveal:
      emit_line(fmt::format("{} at {} is revealed", describe_component(s, e.component, seat_), s.zone_title(e.from)));
      break;
    case EventType::Hide:
      emit_line(fmt::format("{} at {} is turned face down", s.type_of(e.component).title, s.zone_title(e.from)));
      break;
    case EventType::Peek:
      emit_line(fmt::format("{} secretly looks at {} at {}", name(e.seat),
                            describe_component(s, e.component, seat_), s.zone_title(e.from)));
      break;
    case EventType::Facing:
      emit_line(fmt::format("{} at {} now faces {}", s.type_of(e.component).title, s.zone_title(e.from),
                            to_string(static_cast<Direction>(e.value))));
      break;
    case EventType::Shuffle:
      emit_line(fmt::format("{} is shuffled ({} {})", s.zone_title(e.from), e.value, e.value == 1 ? "item" : "items"));
      break;
    case EventType::Score:
      emit_line(fmt::format("{} scores {:+d} (now {})", name(e.seat), e.value, e.to));
      break;
    case EventType::Eliminate: emit_line(fmt::format("{} is out of the game", name(e.seat))); break;
    case EventType::Choice:
      if (hides_choice(e, seat_)) emit_line(fmt::format("{}{} makes a choice{}", style_.faint, name(e.seat), style_.reset));
      else emit_line(fmt::format("{}{} chooses: {}{}", style_.faint, name(e.seat), e.text, style_.reset));
      break;
    case EventType::Message:
      if (seat_ < 0 && e.audience != ~SeatMask{0}) {  // the onlooker hears who was told
        std::string to;
        for (int seat = 0; seat < s.player_count(); ++seat)
          if (e.audience & seat_bit(seat)) to += (to.empty() ? "" : ", ") + name(seat);
        emit_line(fmt::format("(to {}) {}", to, e.text));
      } else {
        emit_line(e.text);
      }
      break;
    case EventType::GameEnd:
      emit_line(fmt::format("{}Game over: {}{}", style_.strong, e.text, style_.reset));
      break;
    default: break;
  }
}

}  // namespace rulebook
