#include "core/event.hpp"

namespace rulebook {

const char* to_string(EventType t) {
  switch (t) {
    case EventType::GameStart: return "game_start";
    case EventType::TurnBegin: return "turn";
    case EventType::Roll: return "roll";
    case EventType::Move: return "move";
    case EventType::SetFace: return "set_face";
    case EventType::Reveal: return "reveal";
    case EventType::Hide: return "hide";
    case EventType::Peek: return "peek";
    case EventType::Facing: return "facing";
    case EventType::Shuffle: return "shuffle";
    case EventType::Score: return "score";
    case EventType::Eliminate: return "eliminate";
    case EventType::Choice: return "choice";
    case EventType::Message: return "message";
    case EventType::GameEnd: return "game_end";
    case EventType::RoundBegin: return "round";
    case EventType::SitOut: return "sit_out";
    case EventType::TrickBegin: return "trick";
    case EventType::PhaseBegin: return "phase";
  }
  return "?";
}

}  // namespace rulebook
