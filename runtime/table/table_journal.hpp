#pragma once
// What a table tells its keeper so that it survives the server (rulebook
// serve --state-dir): every answer as it is given, an undo's cut, the end.
// table_store.hpp keeps them in files; a table without a journal keeps
// nothing. And what a table brought back from its journal starts with.
#include <vector>

#include "lua/game_result.hpp"

namespace rulebook {

class TableJournal {
 public:
  virtual ~TableJournal() = default;
  // A seat's answer to its decision `decision` (the seat's own numbering,
  // from 1): a person's, before the table accepts it (what this throws
  // refuses the answer), a bot's as it is given. On disk when it returns.
  virtual void answered(Seat seat, int decision, int index) = 0;
  // An undo went ahead: the game's answers are now `kept` (in the game's order).
  virtual void taken_back(const std::vector<AnswerRecord>& kept) = 0;
  // The game reached its end: nothing is left to bring back.
  virtual void finished() = 0;
};

// Where a table brought back stands: the game's answers in its order
// (played again quietly before anybody is asked anything), and the
// answers some seats already gave to the simultaneous decision under way.
struct TableResume {
  struct Given {
    Seat seat;
    int decision = 0;  // the seat's numbering
    int index = 0;
  };
  std::vector<AnswerRecord> answers;
  std::vector<Given> together;
  bool empty() const { return answers.empty() && together.empty(); }
};

}  // namespace rulebook
