// The lobby's POST /api/tables body, as Lobby::check reads it (the check
// create makes before it starts a table): JSON in, a checked table or a
// LobbyError out, over the bundled games. Besides never crashing: what it
// accepts sets only declared options and names only offered variants and
// seatable kinds, and no refusal shows a folder of the server's. Anything
// else aborts, and libFuzzer keeps the input.
#include <algorithm>
#include <cstdlib>

#include "bots/agent_factory.hpp"
#include "fuzz_input.hpp"
#include "setup/game_loader.hpp"
#include "table/lobby.hpp"

namespace {

const rulebook::Lobby& lobby() {
  static const rulebook::Lobby the_lobby{rulebook::LobbyConfig{}};
  return the_lobby;
}

void check_accepted(const rulebook::TableConfig& c) {
  const rulebook::LobbyGame* game = nullptr;
  for (const auto& g : lobby().games())
    if (g.source == c.spec.game) game = &g;
  if (!game) std::abort();
  for (const std::string& set : c.spec.sets) {
    const size_t eq = set.find('=');
    if (set.rfind("options.", 0) != 0 || eq == std::string::npos) std::abort();
    if (!game->definition->options.contains(set.substr(8, eq - 8))) std::abort();
  }
  for (const std::string& v : c.spec.variants)
    if (std::none_of(game->variants.begin(), game->variants.end(), [&](const auto& info) { return info.name == v; }))
      std::abort();
  if (c.definition->script != game->definition->script || c.definition->dir != game->definition->dir) std::abort();
  for (const std::string& kind : c.kinds) {
    if (kind == "human") continue;
    const rulebook::AgentKind* known = rulebook::builtin_agents().find(kind);
    if (!known || !known->argument.empty() || known->terminal_only) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string request = rulebook::fuzz::text(data, size);
  try {
    check_accepted(lobby().check(request));
  } catch (const rulebook::LobbyError& e) {
    // A refusal may quote what the client sent, never a folder of the server's it did not.
    const std::string message = e.what(), root = rulebook::rules_root();
    if (message.find(root) != std::string::npos && request.find(root) == std::string::npos) std::abort();
  }
  return 0;
}
