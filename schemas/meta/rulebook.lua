---@meta rulebook
-- Type definitions of the rulebook rule-script API for lua-language-server
-- (LuaLS): completion, hover and typo warnings for `game:`, zones,
-- components and boards. Definitions only; the runtime never loads this
-- file. A test (tests/unit/lua/test_editor_support.cpp) checks that every
-- method here is one the runtime registers and that none is missing.
-- Documentation: docs/lua-api.md.

---@alias Seat integer Seats are numbered from 0; seat 0 plays first.
---@alias Direction "north"|"northeast"|"east"|"southeast"|"south"|"southwest"|"west"|"northwest"|"n"|"ne"|"e"|"se"|"s"|"sw"|"w"|"nw"
---@alias Cell Zone A board cell is a zone.

---@class MoveOptions How a component moves.
---@field position? "top"|"bottom" where in the zone (top by default)
---@field seen_by? Seat|Seat[] seats that see it as it moves and know it afterwards

---@class ChoiceOptions How a decision is asked.
---@field private? boolean true: other seats learn that a choice was made, not which; false: never private (by default a decision is private when an option is a component hidden from some seat)
---@field labels? "seat" numbers are labelled with player names

---@class FinishResult
---@field winners? Seat[] seats that won
---@field losers? Seat[] seats that lost
---@field summary? string one line shown at the end
---@field details? table extra data written to the log
---@field reason? string how the game ended, a short word ("last-tile"), tallied by simulate
---@field stats? table<string, number> the game's own statistics by name (finite numbers), tallied by simulate, compare and sweep

---The game being played: a fresh table every game. The rules may keep their
---own per-game data in it (`game.dice = {...}`).
---@class Game
---@field options table the merged, validated `options` of game.yaml (read-only)
---@field state table public per-game data, shown in every player's view and log
local Game = {}

---Number of seats.
---@return integer
function Game:player_count() end

---The player's name.
---@param seat Seat
---@return string
function Game:player_name(seat) end

---`{0, 1, ..., n-1}`.
---@return Seat[]
function Game:seats() end

---A zone by name; per-player zones need the seat.
---@param name string
---@param seat? Seat
---@return Zone
function Game:zone(name, seat) end

---A board by name.
---@param name string
---@return Board
function Game:board(name) end

---Every component (of one type), in id order.
---@param type? string
---@return Component[]
function Game:components(type) end

---A narration line (`string.format`); costs nothing when nobody listens.
---@param fmt string
---@param ... any
function Game:say(fmt, ...) end

---A narration line only `seats` hear (a seat or a list of seats); logs filter it per seat.
---@param seats Seat|Seat[]
---@param fmt string
---@param ... any
function Game:say_to(seats, fmt, ...) end

---True when events are being recorded or narrated.
---@return boolean
function Game:listening() end

---Changes a score; returns the new total.
---@param seat Seat
---@param delta number
---@return number
function Game:add_score(seat, delta) end

---A seat's score.
---@param seat Seat
---@return number
function Game:score(seat) end

---Ends the game at once, wherever the rules are.
---@param result FinishResult
function Game:finish(result) end

---Asks `seat` to pick one of `options`; returns the value and its 1-based index.
---With `"seat"` (or `{labels = "seat"}`), numbers are labelled with player names;
---`{private = true}` hides the answer from the other seats.
---@generic T
---@param seat Seat
---@param prompt string
---@param options T[]
---@param how? "seat"|ChoiceOptions
---@return T value
---@return integer index
function Game:choose(seat, prompt, options, how) end

---Asks every seat of `seats` at once (a simultaneous decision: sealed bids, a draft);
---each picks from `options` (one list for all, or a function of the seat returning its
---list, called for every seat before anybody is asked) without seeing the others'
---answers. Returns `answers[seat]` (the value) and `indices[seat]` (1-based) once all
---are in. Private unless `{private = false}`: the rules tell what they choose.
---@generic T
---@param seats Seat[]
---@param prompt string
---@param options T[]|fun(seat: Seat): T[]
---@param how? "seat"|ChoiceOptions
---@return table<Seat, T> answers
---@return table<Seat, integer> indices
function Game:choose_together(seats, prompt, options, how) end

---`seat` takes a turn now (counted; a new round when play passes the first seat).
---@param seat Seat
function Game:begin_turn(seat) end

---Whose turn it is (nil before the first).
---@return Seat?
function Game:current_seat() end

---The next seat clockwise still in the game.
---@param seat? Seat
---@return Seat
function Game:next_seat(seat) end

---The previous seat still in the game.
---@param seat? Seat
---@return Seat
function Game:previous_seat(seat) end

---The seat that starts.
---@return Seat
function Game:first_seat() end

---The round number.
---@return integer
function Game:round() end

---Whether it is round 1.
---@return boolean
function Game:first_round() end

---Turns so far.
---@return integer
function Game:turns_started() end

---Takes a seat out of the game: next/previous skip it.
---@param seat Seat
function Game:eliminate(seat) end

---Whether a seat is out of the game.
---@param seat Seat
---@return boolean
function Game:is_eliminated(seat) end

---Brings an eliminated seat back.
---@param seat Seat
function Game:reinstate(seat) end

---Seats still in (neither out of the game nor sitting out the round).
---@return integer
function Game:active_count() end

---A new round of the game whose first turn goes to `first_seat`: laps count again, nobody sits out.
---@param first_seat? Seat
function Game:begin_round(first_seat) end

---The game's round: 0 before the first begin_round.
---@return integer
function Game:game_round() end

---A new trick of the round (counted from 1 in each game round), led by `leader`
---or by nobody (everybody plays at once): narrated "-- Trick 3 --".
---@param leader? Seat
function Game:begin_trick(leader) end

---The round's trick: 0 before the first begin_trick (and after begin_round).
---@return integer
function Game:trick() end

---A named phase of the game ("bidding", "scoring"): narrated "-- Trick 3: bidding --".
---@param name string
function Game:begin_phase(name) end

---The phase the rules named last, or nil.
---@return string?
function Game:phase() end

---Takes a seat out of this round only (until the next begin_round).
---@param seat Seat
function Game:sit_out(seat) end

---Whether a seat sits out this round.
---@param seat Seat
---@return boolean
function Game:is_sitting_out(seat) end

---Clockwise (1) or not (-1).
---@param direction 1|-1
function Game:set_direction(direction) end

---A die, tile, card, piece or token declared under `components:`.
---@class Component
local Component = {}

---The component's id.
---@return integer
function Component:id() end

---Its type's name in game.yaml.
---@return string
function Component:type() end

---Its kind ("die", "tile", "card", "piece", "token").
---@return string
function Component:kind() end

---Its title.
---@return string
function Component:title() end

---The face showing.
---@return string
function Component:face() end

---Whether `face` is showing.
---@param face string
---@return boolean
function Component:is(face) end

---Every face, in order.
---@return string[]
function Component:faces() end

---Shows another face.
---@param name string
function Component:set_face(name) end

---Shows the next face (the other side of a tile).
---@return string
function Component:turn_over() end

---Rolls a die; returns the face.
---@return string
function Component:roll() end

---An attribute from game.yaml.
---@param key string
---@return any
function Component:attr(key) end

---The zone it lies in.
---@return Zone
function Component:zone() end

---Moves it (to the top by default); who knew it still does unless the zone hides it.
---@param zone Zone
---@param how? "top"|"bottom"|MoveOptions
function Component:move(zone, how) end

---Its owner, if any.
---@return Seat?
function Component:owner() end

---Sets or clears the owner.
---@param seat Seat?
function Component:set_owner(seat) end

---Makes its identity public.
function Component:reveal() end

---Hides its identity.
function Component:hide() end

---Whether its identity is public.
---@return boolean
function Component:is_public() end

---One player secretly learns it.
---@param seat Seat
function Component:peek(seat) end

---Whether a seat knows it.
---@param seat Seat
---@return boolean
function Component:known_by(seat) end

---The direction a piece faces.
---@return Direction?
function Component:facing() end

---Turns a piece to face a direction.
---@param direction Direction
function Component:face_to(direction) end

---An ordered collection: a pile, hand, dice pool, deck or board cell.
---Position 1 is the top.
---@class Zone
local Zone = {}

---The zone's name in game.yaml.
---@return string
function Zone:name() end

---Its id ("hand@2", "sea@3,1").
---@return string
function Zone:id() end

---Its title.
---@return string
function Zone:title() end

---The owning seat of a per-player zone.
---@return Seat?
function Zone:owner() end

---The number of components, or how many show each face given.
---@param ... string faces
---@return integer ...
function Zone:count(...) end

---Whether it holds no components.
---@return boolean
function Zone:empty() end

---The component at position `i` (1 = top).
---@param i integer
---@return Component?
function Zone:get(i) end

---The top component.
---@return Component?
function Zone:top() end

---The bottom component.
---@return Component?
function Zone:bottom() end

---Every component, top first.
---@return Component[]
function Zone:items() end

---The first component from the top showing a face or of a type.
---@param face_or_type string
---@return Component?
function Zone:find(face_or_type) end

---Whether it holds `c`.
---@param c Component
---@return boolean
function Zone:contains(c) end

---Moves everything to `dest`; returns how many moved.
---@param dest Zone
---@param how? "top"|"bottom"|MoveOptions
---@return integer
function Zone:move_all(dest, how) end

---Moves the top `n` components to `dest`; returns how many moved.
---@param n integer
---@param dest Zone
---@param how? "top"|"bottom"|MoveOptions
---@return integer
function Zone:move_top(n, dest, how) end

---Moves components showing a face (or of a type) to `dest`; returns how many moved.
---@param face_or_type string
---@param dest Zone
---@param n? integer|"top"|"bottom"|MoveOptions a limit, or `how` when no limit is given
---@param how? "top"|"bottom"|MoveOptions
---@return integer
function Zone:move_matching(face_or_type, dest, n, how) end

---The two zones swap contents; returns how many moved each way.
---@param other Zone
---@return integer, integer
function Zone:exchange(other) end

---Rolls every die in it.
---@return string[]
function Zone:roll() end

---Shuffles it with the game's seeded stream.
function Zone:shuffle() end

---Moves the top component to `dest`; when empty, first refills from `discard` and shuffles.
---@param dest Zone
---@param discard? Zone
---@return Component?
function Zone:draw(dest, discard) end

---`board, x, y` when the zone is a board cell.
---@return Board?, integer?, integer?
function Zone:cell() end

---A rectangular grid of cells (zones), with named paths. Coordinates are
---1-based, x to the east, y to the south.
---@class Board
local Board = {}

---Its width.
---@return integer
function Board:width() end

---Its height.
---@return integer
function Board:height() end

---Its name in game.yaml.
---@return string
function Board:name() end

---The cell at (x, y), nil off the board; or, on a board that names its
---squares (column_names, row_names), the square of that name ("e4"), nil
---when there is none.
---@param x integer|string
---@param y? integer
---@return Cell?
function Board:cell(x, y) end

---A square's name ("e4") on a board that names its squares; nil on one
---that does not.
---@param cell Cell|integer|string
---@param y? integer
---@return string?
function Board:square_name(cell, y) end

---All cells, row by row.
---@return Cell[]
function Board:cells() end

---A cell's coordinates.
---@param cell Cell
---@return integer x
---@return integer y
function Board:xy(cell) end

---The top component on a cell, or nil.
---@param cell Cell
---@return Component?
function Board:at(cell) end

---The neighbouring cell in a direction, or nil.
---@param cell Cell
---@param dir Direction
---@return Cell?
function Board:step(cell, dir) end

---Neighbouring cells, clockwise from north.
---@param cell Cell
---@param diagonal? boolean
---@return Cell[]
function Board:neighbours(cell, diagonal) end

---Whether two cells are adjacent.
---@param a Cell
---@param b Cell
---@param diagonal? boolean
---@return boolean
function Board:adjacent(a, b, diagonal) end

---The cells seen in a direction, nearest first, to the edge.
---@param cell Cell
---@param dir Direction
---@return Cell[]
function Board:line(cell, dir) end

---The direction from a to b if they share a line.
---@param a Cell
---@param b Cell
---@return Direction?
function Board:direction(a, b) end

---The directions: the four orthogonal ones, and the diagonals if asked.
---@param diagonal? boolean
---@return Direction[]
function Board:directions(diagonal) end

---A path's cells in order.
---@param name string
---@return Cell[]
function Board:path(name) end

---The cell `steps` further along a path.
---@param name string
---@param cell Cell
---@param steps integer
---@return Cell?
function Board:along(name, cell, steps) end

---The cells holding a face-down component (one that is not public), row by
---row, but `except`; then how many. `into`: a list to refill instead of a
---new table.
---@param except? Cell
---@param into? Cell[]
---@return Cell[] cells
---@return integer count
function Board:face_down_cells(except, into) end

---The face-down cells but `except` from which at least `n` face-down cells
---lie along one orthogonal direction (or diagonal, with `diagonal`), row by
---row; then how many.
---@param n integer
---@param except? Cell
---@param into? Cell[]
---@param diagonal? boolean
---@return Cell[] cells
---@return integer count
function Board:face_down_seeing(n, except, into, diagonal) end

---The face-down cells seen from a cell in a direction, nearest first; then
---how many.
---@param cell Cell
---@param dir Direction
---@param into? Cell[]
---@return Cell[] cells
---@return integer count
function Board:face_down_line(cell, dir, into) end

---The directions, clockwise from north, along which at least `n` face-down
---cells lie from a cell; then how many.
---@param cell Cell
---@param n integer
---@param into? Direction[]
---@param diagonal? boolean
---@return Direction[] directions
---@return integer count
function Board:face_down_directions(cell, n, into, diagonal) end

---The table a rules script returns: `setup` and `play` are required; one
---function per rulebook step lets a variant replace exactly one step.
---@class Rules
---@field setup fun(game: Game)
---@field play fun(game: Game)
