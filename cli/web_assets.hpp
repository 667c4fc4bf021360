#pragma once
// The web table's page, compiled into the binary (cli/web/ holds the
// sources; CMake turns them into web_assets.cpp): nothing to install, no
// build step, nothing fetched from elsewhere.
namespace rulebook::cli {
extern const char* const kTableHtml;
extern const char* const kTableCss;
extern const char* const kTableJs;
// The lobby's page (rulebook serve with no game).
extern const char* const kLobbyHtml;
extern const char* const kLobbyJs;
}  // namespace rulebook::cli
