#pragma once
// Zones: ordered collections (piles, hands, dice pools, board cells) and
// moving components between them. items[0] is the bottom, back() the top.
#include <utility>

namespace rulebook {

class GameState;

// Matches components by the face they show, or by their type.
struct ComponentMatch {
  int face = -1;  // a face id (GameDefinition::face_id), or -1
  int type = -1;  // a type index, used when face is -1
  bool operator()(const GameState& state, int id) const;
};

// Onto the top of a zone (or its bottom); the zone's visibility policy and
// owner apply.
void move_component(GameState& state, int id, int to_zone, bool to_bottom = false);
// Each returns how many moved.
int move_all(GameState& state, int from, int to);
int move_top(GameState& state, int from, int count, int to);
int move_matching(GameState& state, int from, const ComponentMatch& match, int to, int limit = -1);
// The matching component nearest the top, or -1.
int find_matching(const GameState& state, int zone, const ComponentMatch& match);
// The two zones swap contents, each keeping its order; returns the counts moved.
std::pair<int, int> exchange_zones(GameState& state, int a, int b);

}  // namespace rulebook
