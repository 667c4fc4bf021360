#pragma once
// One table's routes over HTTP, shared by the single table (web_table.cpp)
// and the lobby's tables (web_lobby.cpp): each maps a request onto the
// Table's methods and its refusals onto statuses, in our words.
#include <memory>
#include <string>

#include "cli/http_server.hpp"
#include "table/table.hpp"

namespace rulebook::cli::table_routes {

// A page or asset compiled into the binary (never cached: a new binary serves a new page).
http::Response asset(const char* type, const char* body);
// The game's image NUMBER (game.yaml display:); 404 when it is not one.
http::Response image(const Table& table, const std::string& number, const http::Request& request);
// GET api/messages[?token=T][&from=N]: the stream so far as one JSON array.
http::Response messages(const Table& table, const http::Request& request);
// GET api/events[?token=T]: the stream as Server-Sent Events, resumed after
// Last-Event-ID. The stream holds `table` as long as it is open.
http::Response events(std::shared_ptr<Table> table, const http::Request& request);
// POST api/answer?token=T: {"choose": INDEX, "decision": N}.
http::Response answer(Table& table, const http::Request& request);
// POST api/undo?token=T.
http::Response undo(Table& table, const http::Request& request);

// The page for every person's seat at one screen (pass the device):
// "play?seats=SEAT:TOKEN,..." (after the table's address). It holds every
// person's token, as the people at that screen may.
std::string hot_seat_page(const Table& table);

}  // namespace rulebook::cli::table_routes
