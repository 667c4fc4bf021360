// Boards: grid geometry in 1-based (x, y) coordinates, y growing
// downwards. Each cell is a zone, so what lies on it is moved like anything
// else; board methods answer questions of place and sight.
#include "core/face_down.hpp"
#include "core/game_state.hpp"
#include "lua/engine_impl.hpp"

namespace rulebook {
namespace {

struct BoardArgs {
  const BoardDef* board;
  const GameDefinition* def;
  BoardId id;
};

BoardArgs check(lua_State* L) {
  const int b = check_board(L, 1);
  const GameDefinition& def = *engine(L).def;
  return {&def.boards[b], &def, b};
}

// The 0-based cell of 1-based (x, y), or -1 off the board; coordinates
// too large for an int are off every board.
int cell_at(const BoardGeometry& g, lua_Integer x, lua_Integer y) {
  if (x < 1 || y < 1 || x > g.width() || y > g.height()) return -1;
  return g.cell(static_cast<int>(x - 1), static_cast<int>(y - 1));
}

int check_cell(lua_State* L, const BoardArgs& a, int arg) {
  const lua_Integer x = luaL_checkinteger(L, arg);
  const lua_Integer y = luaL_checkinteger(L, arg + 1);
  const auto& g = a.board->geometry;
  const int cell = cell_at(g, x, y);
  if (cell < 0) luaL_argerror(L, arg, lua_pushfstring(L, "(%I,%I) is off the %dx%d board", x, y, g.width(), g.height()));
  return cell;
}

Direction check_direction(lua_State* L, int arg) {
  Direction d;
  luaL_argcheck(L, parse_direction(luaL_checkstring(L, arg), d), arg,
                "direction expected (north, northeast, east, ..., or n, ne, e, ...)");
  return d;
}

void push_cell_zone(lua_State* L, const BoardArgs& a, int cell) {
  push_zone(L, a.def->zone_defs[a.board->zone_def].first_slot + cell);
}

void push_cells(lua_State* L, const BoardArgs& a, const std::vector<int>& cells) {
  lua_createtable(L, static_cast<int>(cells.size()), 0);
  for (size_t i = 0; i < cells.size(); ++i) {
    push_cell_zone(L, a, cells[i]);
    lua_rawseti(L, -2, static_cast<int>(i) + 1);
  }
}

// The cell a square's name ("e4") names on a board with named squares, or -1.
int named_cell(lua_State* L, const BoardArgs& a, int arg) {
  if (lua_type(L, arg) != LUA_TSTRING || !a.board->geometry.named()) return -1;
  return a.board->geometry.cell_named(lua_tostring(L, arg));
}

// A cell given as a zone of this board, as a square's name ("e4") or as
// x, y. Returns the cell index and the next argument position.
int check_place(lua_State* L, const BoardArgs& a, int arg, int* next) {
  if (const int cell = named_cell(L, a, arg); cell >= 0) {
    *next = arg + 1;
    return cell;
  }
  if (lua_type(L, arg) == LUA_TUSERDATA) {
    const int zone = check_zone(L, arg);
    const ZoneDef& zd = a.def->zone_defs[a.board->zone_def];
    luaL_argcheck(L, zone >= zd.first_slot && zone < zd.first_slot + zd.slots, arg,
                  "a cell of this board expected");
    *next = arg + 1;
    return zone - zd.first_slot;
  }
  *next = arg + 2;
  return check_cell(L, a, arg);
}

int board_name(lua_State* L) {
  lua_pushstring(L, check(L).board->name.c_str());
  return 1;
}

int board_width(lua_State* L) {
  lua_pushinteger(L, check(L).board->geometry.width());
  return 1;
}

int board_height(lua_State* L) {
  lua_pushinteger(L, check(L).board->geometry.height());
  return 1;
}

// board:cell(x, y) or board:cell("e4") -> the cell's zone, or nil off the
// board (or no square of that name)
int board_cell(lua_State* L) {
  const BoardArgs a = check(L);
  if (lua_type(L, 2) == LUA_TSTRING && lua_isnoneornil(L, 3) && a.board->geometry.named()) {
    const int cell = named_cell(L, a, 2);
    if (cell < 0) lua_pushnil(L);
    else push_cell_zone(L, a, cell);
    return 1;
  }
  const lua_Integer x = luaL_checkinteger(L, 2), y = luaL_checkinteger(L, 3);
  const int cell = cell_at(a.board->geometry, x, y);
  if (cell < 0) lua_pushnil(L);
  else push_cell_zone(L, a, cell);
  return 1;
}

// board:cells() -> every cell's zone, row by row
int board_cells(lua_State* L) {
  const BoardArgs a = check(L);
  std::vector<int> cells(a.board->geometry.cell_count());
  for (size_t i = 0; i < cells.size(); ++i) cells[i] = static_cast<int>(i);
  push_cells(L, a, cells);
  return 1;
}

// board:xy(cell) -> x, y
int board_xy(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  lua_pushinteger(L, a.board->geometry.x(cell) + 1);
  lua_pushinteger(L, a.board->geometry.y(cell) + 1);
  return 2;
}

// board:square_name(cell | x, y) -> "e4", or nil on a board without names
int board_square_name(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  if (!a.board->geometry.named()) lua_pushnil(L);
  else lua_pushstring(L, a.board->geometry.cell_name(cell).c_str());
  return 1;
}

// board:step(cell | x, y, dir) -> the neighbouring cell's zone, or nil
int board_step(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  const int to = a.board->geometry.step(cell, check_direction(L, next));
  if (to < 0) lua_pushnil(L);
  else push_cell_zone(L, a, to);
  return 1;
}

// board:neighbours(cell | x, y [, diagonal]) -> cells, clockwise from north
int board_neighbours(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  push_cells(L, a, a.board->geometry.neighbours(cell, lua_toboolean(L, next)));
  return 1;
}

// board:adjacent(cell_a, cell_b [, diagonal])
int board_adjacent(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int c1 = check_place(L, a, 2, &next);
  const int c2 = check_place(L, a, next, &next);
  lua_pushboolean(L, a.board->geometry.adjacent(c1, c2, lua_toboolean(L, next)));
  return 1;
}

// board:line(cell | x, y, dir) -> cells seen in that direction, nearest first
int board_line(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  push_cells(L, a, a.board->geometry.line_of_sight(cell, check_direction(L, next)));
  return 1;
}

// board:direction(from, to) -> direction name if they share a line, else nil
int board_direction(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int c1 = check_place(L, a, 2, &next);
  const int c2 = check_place(L, a, next, &next);
  Direction d;
  if (a.board->geometry.direction_between(c1, c2, d)) lua_pushstring(L, to_string(d));
  else lua_pushnil(L);
  return 1;
}

// board:directions([diagonal]) -> {"north", "east", ...}
int board_directions(lua_State* L) {
  check(L);
  const bool diagonal = lua_toboolean(L, 2);
  lua_newtable(L);
  int n = 0;
  for (int i = 0; i < kDirectionCount; ++i) {
    if (!diagonal && is_diagonal(static_cast<Direction>(i))) continue;
    lua_pushstring(L, to_string(static_cast<Direction>(i)));
    lua_rawseti(L, -2, ++n);
  }
  return 1;
}

const BoardPath& check_path(lua_State* L, const BoardArgs& a, int arg) {
  const char* name = luaL_checkstring(L, arg);
  const BoardPath* p = a.board->geometry.path(name);
  if (!p) luaL_argerror(L, arg, lua_pushfstring(L, "board has no path '%s'", name));
  return *p;
}

// board:path(name) -> the path's cells in order
int board_path(lua_State* L) {
  const BoardArgs a = check(L);
  push_cells(L, a, check_path(L, a, 2).cells);
  return 1;
}

// board:along(name, cell | x, y, steps) -> the cell `steps` further along
int board_along(lua_State* L) {
  const BoardArgs a = check(L);
  const BoardPath& path = check_path(L, a, 2);
  int next;
  const int cell = check_place(L, a, 3, &next);
  const lua_Integer steps = luaL_checkinteger(L, next);
  const int to = BoardGeometry::along(path, cell, steps);
  if (to < 0) lua_pushnil(L);
  else push_cell_zone(L, a, to);
  return 1;
}

// board:at(cell | x, y) -> the top component on the cell, or nil
int board_at(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  const auto& items = context(L)->state->zone(a.def->zone_defs[a.board->zone_def].first_slot + cell);
  if (items.empty()) lua_pushnil(L);
  else push_component(L, items.back());
  return 1;
}

// ---- face-down cells (core/face_down.hpp) ----------------------------------

// The board's face-down picture and the cells a query found, kept per
// thread so that a query allocates nothing once it has run: each thread
// runs its own Lua states, and nothing calls back into Lua while they are
// in use.
struct FaceDownScratch {
  FaceDownCells board;
  std::vector<int> cells;
  std::vector<Direction> directions;
};
FaceDownScratch& face_down_scratch() {
  thread_local FaceDownScratch scratch;
  return scratch;
}

// An optional cell of this board given as its zone: -1 when nil or absent.
int check_optional_cell(lua_State* L, const BoardArgs& a, int arg) {
  if (lua_isnoneornil(L, arg)) return -1;
  if (lua_type(L, arg) != LUA_TUSERDATA) luaL_typeerror(L, arg, "cell or nil");
  int next;
  return check_place(L, a, arg, &next);
}

// An optional list to fill (0: none, make a new one).
int check_into(lua_State* L, int arg) {
  if (lua_isnoneornil(L, arg)) return 0;
  luaL_checktype(L, arg, LUA_TTABLE);
  return arg;
}

// Pushes the list a query fills: the table at `into` (returning how long
// it was), or a new one for n entries.
lua_Unsigned push_list(lua_State* L, int into, int n) {
  if (!into) {
    lua_createtable(L, n, 0);
    return 0;
  }
  lua_pushvalue(L, into);
  return lua_rawlen(L, -1);
}

// Clears what a refilled list on top of the stack held past its n new
// entries (it held `old`).
void clear_past(lua_State* L, int n, lua_Unsigned old) {
  for (lua_Unsigned k = old; k > static_cast<lua_Unsigned>(n); --k) {
    lua_pushnil(L);
    lua_rawseti(L, -2, static_cast<lua_Integer>(k));
  }
}

// Pushes the cells' zones as a list -- the table at `into`, refilled and
// cleared past the new end, or a new one -- then their number.
int push_cell_list(lua_State* L, const BoardArgs& a, const std::vector<int>& cells, int into) {
  const int n = static_cast<int>(cells.size());
  const lua_Unsigned old = push_list(L, into, n);
  const int first = a.def->zone_defs[a.board->zone_def].first_slot;
  for (int i = 0; i < n; ++i) {
    push_zone(L, first + cells[static_cast<size_t>(i)]);
    lua_rawseti(L, -2, i + 1);
  }
  clear_past(L, n, old);
  lua_pushinteger(L, n);
  return 2;
}

// Points the scratch picture at the board, lets `question` fill the
// scratch list of cells and pushes it (C++ exceptions stop here).
template <typename Question>
int answer_cells(lua_State* L, const BoardArgs& a, int into, Question&& question) {
  FaceDownScratch& s = face_down_scratch();
  catch_exceptions(L, [&] {
    s.board.read(state_of(L), a.id);
    question(s.board, s.cells);
    return 0;
  });
  return push_cell_list(L, a, s.cells, into);
}

// board:face_down_cells([except [, into]]) -> the cells holding a face-down
// component, row by row, but `except`; and how many
int board_face_down_cells(lua_State* L) {
  const BoardArgs a = check(L);
  const int except = check_optional_cell(L, a, 2);
  const int into = check_into(L, 3);
  return answer_cells(L, a, into, [&](const FaceDownCells& board, std::vector<int>& out) {
    board.cells(except, out);
  });
}

// board:face_down_seeing(n [, except [, into [, diagonal]]]) -> the face-down
// cells but `except` from which at least n face-down cells lie in one
// direction, row by row; and how many
int board_face_down_seeing(lua_State* L) {
  const BoardArgs a = check(L);
  const int sees = check_int(L, 2);
  const int except = check_optional_cell(L, a, 3);
  const int into = check_into(L, 4);
  const bool diagonal = lua_toboolean(L, 5);
  return answer_cells(L, a, into, [&](const FaceDownCells& board, std::vector<int>& out) {
    board.seeing(sees, diagonal, except, out);
  });
}

// board:face_down_line(cell | x, y, dir [, into]) -> the face-down cells seen
// in that direction, nearest first; and how many
int board_face_down_line(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  const Direction d = check_direction(L, next);
  const int into = check_into(L, next + 1);
  return answer_cells(L, a, into, [&](const FaceDownCells& board, std::vector<int>& out) {
    board.along(cell, d, out);
  });
}

// board:face_down_directions(cell | x, y, n [, into [, diagonal]]) -> the
// directions, clockwise from north, in which at least n face-down cells are
// seen from the cell; and how many
int board_face_down_directions(lua_State* L) {
  const BoardArgs a = check(L);
  int next;
  const int cell = check_place(L, a, 2, &next);
  const int sees = check_int(L, next);
  const int into = check_into(L, next + 1);
  const bool diagonal = lua_toboolean(L, next + 2);
  FaceDownScratch& s = face_down_scratch();
  catch_exceptions(L, [&] {
    s.board.read(state_of(L), a.id);
    s.board.directions(cell, sees, diagonal, s.directions);
    return 0;
  });
  const int n = static_cast<int>(s.directions.size());
  const lua_Unsigned old = push_list(L, into, n);
  for (int i = 0; i < n; ++i) {
    lua_pushstring(L, to_string(s.directions[static_cast<size_t>(i)]));
    lua_rawseti(L, -2, i + 1);
  }
  clear_past(L, n, old);
  lua_pushinteger(L, n);
  return 2;
}

const luaL_Reg kBoardMethods[] = {
    {"name", board_name},
    {"width", board_width},
    {"height", board_height},
    {"cell", board_cell},
    {"cells", board_cells},
    {"xy", board_xy},
    {"square_name", board_square_name},
    {"step", board_step},
    {"neighbours", board_neighbours},
    {"adjacent", board_adjacent},
    {"line", board_line},
    {"direction", board_direction},
    {"directions", board_directions},
    {"path", board_path},
    {"along", board_along},
    {"at", board_at},
    {"face_down_cells", board_face_down_cells},
    {"face_down_seeing", board_face_down_seeing},
    {"face_down_line", board_face_down_line},
    {"face_down_directions", board_face_down_directions},
    {nullptr, nullptr},
};

}  // namespace

void register_boards(lua_State* L) { add_methods(L, "board", kBoardMethods); }

}  // namespace rulebook
