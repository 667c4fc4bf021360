#pragma once
// Zones: ordered collections (piles, hands, dice pools, board cells) and
// moving components between them. items[0] is the bottom, back() the top.
#include <utility>

#include "core/ids.hpp"
#include "core/visibility.hpp"

namespace rulebook {

class GameState;

// Matches components by the face they show, or by their type.
struct ComponentMatch {
  FaceId face;    // a face id (GameDefinition::face_id), or none
  int type = -1;  // a type index, used when face is none
  bool operator()(const GameState& state, ComponentId id) const;
};

// How a move is made: onto the top of the zone or its bottom, and seats
// that see the component as it moves (they know it afterwards).
struct MoveOptions {
  bool to_bottom = false;
  SeatMask seen_by = 0;
};

// Onto the top of a zone (or its bottom); the zone's visibility policy and
// owner apply. Who knows the component survives the move unless the move
// hides it: into a `hidden` zone (a deck, a face-down pile) nobody but
// `seen_by` knows it any more; into a `public` zone everybody does; into an
// `owner` or `keep` zone everybody who knew it before still does (a trade
// of hands keeps what each player gave in mind), besides the new owner;
// into an `others` zone (a hand held facing out) everybody but the owner
// sees it, and the owner knows it only if they knew it before.
// Shuffling (deck.hpp) hides too.
void move_component(GameState& state, ComponentId id, int to_zone, const MoveOptions& how);
inline void move_component(GameState& state, ComponentId id, int to_zone, bool to_bottom = false) {
  move_component(state, id, to_zone, MoveOptions{to_bottom, 0});
}
// Each returns how many moved.
int move_all(GameState& state, int from, int to, const MoveOptions& how = {});
int move_top(GameState& state, int from, int count, int to, const MoveOptions& how = {});
int move_matching(GameState& state, int from, const ComponentMatch& match, int to, int limit = -1,
                  const MoveOptions& how = {});
// The matching component nearest the top, or none.
ComponentId find_matching(const GameState& state, int zone, const ComponentMatch& match);
// The two zones swap contents, each keeping its order; returns the counts moved.
std::pair<int, int> exchange_zones(GameState& state, int a, int b);

}  // namespace rulebook
