// rulebook list / info / validate: what games there are and whether their
// files are sound.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "observation/narrator.hpp"
#include "lua/rule_engine.hpp"
#include "setup/component_shapes.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace fs = std::filesystem;

namespace rulebook::cli {
namespace {

int run_list(bool json) {
  nlohmann::json out = nlohmann::json::array();
  int broken = 0;
  for (const auto& name : list_games()) {
    try {
      auto def = load_game(name);
      out.push_back({{"name", def->name}, {"title", def->title}, {"min_players", def->min_players},
                     {"max_players", def->max_players}, {"variants", list_variants(def->dir).size()}});
    } catch (const SetupError& e) {
      // One broken game folder must not hide the others.
      std::cerr << e.what() << "\n";
      ++broken;
    }
  }
  if (json) {
    std::cout << out.dump() << "\n";
    return broken ? kUsage : kOk;
  }
  for (const auto& g : out)
    std::cout << fmt::format("{:<18} {:<20} {}-{} players, {} variant{}\n", g["name"].get<std::string>(),
                             g["title"].get<std::string>(), g["min_players"].get<int>(),
                             g["max_players"].get<int>(), g["variants"].get<size_t>(),
                             g["variants"].get<size_t>() == 1 ? "" : "s");
  return broken ? kUsage : kOk;
}

int run_info(const std::string& game, const LoadOptions& setup, bool json) {
  auto def = load_game(game, setup);
  const auto variants = list_variants(def->dir);
  nlohmann::json out;
  out["name"] = def->name;
  out["title"] = def->title;
  out["authors"] = def->authors;
  out["source"] = def->source;
  out["description"] = def->description;
  out["players"] = {{"min", def->min_players}, {"max", def->max_players}, {"default", def->default_players}};
  out["folder"] = def->dir;
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [key, value] : def->options.items())
    options[key] = {{"value", value}, {"help", def->option_help.value(key, "")}};
  out["options"] = options;
  nlohmann::json vs = nlohmann::json::array();
  for (const auto& v : variants)
    vs.push_back({{"name", v.name}, {"title", v.title}, {"source", v.source}, {"description", v.description}});
  out["variants"] = vs;
  // Components as the options shape them; `shape` says how, as written.
  nlohmann::json comps = nlohmann::json::array();
  std::vector<std::string> shapes;
  for (size_t i = 0; i < def->types.size(); ++i) {
    const auto& t = def->types[i];
    const nlohmann::json& written = def->setup.at("components").at(i);
    nlohmann::json comp{{"name", t.name}, {"kind", t.kind}, {"count", t.count}, {"faces", t.faces},
                        {"attributes", t.attributes}};
    shapes.push_back(shape_summary(written));
    if (!shapes.back().empty()) {
      nlohmann::json shape = nlohmann::json::object();
      for (const char* key : {"count", "faces"})
        if (written.contains(key) && written.at(key).is_object()) shape[key] = written.at(key);
      comp["shape"] = shape;
    }
    comps.push_back(std::move(comp));
  }
  out["components"] = comps;
  nlohmann::json zones = nlohmann::json::array();
  for (const auto& z : def->zone_defs)
    if (z.board < 0) zones.push_back({{"name", z.name}, {"per_player", z.per_player}, {"visibility", to_string(z.policy)}});
  out["zones"] = zones;
  nlohmann::json boards = nlohmann::json::array();
  for (const auto& b : def->boards) {
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& p : b.geometry.paths()) paths.push_back(p.name);
    boards.push_back({{"name", b.name}, {"width", b.geometry.width()}, {"height", b.geometry.height()}, {"paths", paths},
                      {"coordinates", "(column,row), (1,1) the top-left corner"}});
  }
  out["boards"] = boards;
  if (json) {
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  std::cout << def->title << " (" << def->name << ")\n";
  if (!def->authors.empty()) std::cout << "  by " << fmt::format("{}", fmt::join(def->authors, ", ")) << "\n";
  if (!def->source.empty()) std::cout << "  source: " << def->source << "\n";
  if (!def->description.empty()) std::cout << "\n" << def->description << "\n";
  std::cout << fmt::format("\nPlayers: {} to {} (default {})\n", def->min_players, def->max_players, def->default_players);
  std::cout << "\nOptions (--set options.NAME=VALUE):\n";
  for (const auto& [key, o] : options.items())
    std::cout << fmt::format("  {} = {}\n      {}\n", key, o["value"].dump(), o["help"].get<std::string>());
  std::cout << "\nVariants (--variant NAME):\n";
  if (variants.empty()) std::cout << "  none\n";
  for (const auto& v : variants) std::cout << fmt::format("  {:<16} {} -- {}\n", v.name, v.title, v.source);
  std::cout << "\nComponents:\n";
  for (size_t i = 0; i < def->types.size(); ++i) {
    const auto& t = def->types[i];
    // Numbered faces read as a range: "1..13", not thirteen names.
    const bool ranged = def->setup.at("components").at(i).value("faces", nlohmann::json()).is_object();
    const std::string faces = ranged ? fmt::format("{}..{}", t.faces.front(), t.faces.back())
                                     : fmt::format("{}", fmt::join(t.faces, ", "));
    std::cout << fmt::format("  {:>3} x {:<16} {:<6} faces: {}{}\n", t.count, t.name, t.kind, faces,
                             shapes[i].empty() ? "" : "  (" + shapes[i] + ")");
  }
  std::cout << "\nZones:";
  for (const auto& z : zones) std::cout << " " << z["name"].get<std::string>() << (z["per_player"].get<bool>() ? " (per player)" : "");
  std::cout << "\n";
  for (const auto& b : def->boards)
    std::cout << fmt::format("Board: {} ({})\n", b.name, board_coordinates(b));
  return kOk;
}

// Validates files or whole game folders: YAML against the schemas, then the
// game's Lua (loaded in the sandbox) and each variant applied.
int run_validate(const std::vector<std::string>& paths, const std::string& kind) {
  int problems = 0;
  auto report = [&](const std::vector<std::string>& errors) {
    for (const auto& e : errors) std::cerr << e << "\n";
    problems += static_cast<int>(errors.size());
  };
  for (const auto& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> files{(fs::path(path) / "game.yaml").string()};
      for (const char* sub : {"variants", "scenarios"}) {
        std::vector<std::string> found;
        for (const auto& e : fs::directory_iterator(fs::path(path) / sub, ec))
          if (e.path().extension() == ".yaml") found.push_back(e.path().string());
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
      }
      const size_t before = problems;
      for (const auto& f : files) report(validate_file(f));
      if (static_cast<size_t>(problems) == before) {
        try {
          for (const auto& v : list_variants(path)) RuleEngine(load_game(path, LoadOptions{{v.name}, {}}));
          RuleEngine(load_game(path));
        } catch (const SetupError& e) {
          report({e.what()});
        } catch (const ScriptError& e) {
          report({fmt::format("error: {}", e.what())});
        }
      }
      if (static_cast<size_t>(problems) == before) std::cout << path << ": ok (" << files.size() << " files)\n";
    } else if (fs::exists(path, ec)) {
      auto errors = validate_file(path, kind);
      report(errors);
      if (errors.empty()) std::cout << path << ": ok\n";
    } else {
      report({fmt::format("{}: error: no such file or folder", path)});
    }
  }
  return problems ? kUsage : kOk;
}

}  // namespace

Runner add_list(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("list", "list the bundled games");
  cmd->add_flag("--json", *json, "print JSON");
  return [json] { return run_list(*json); };
}

Runner add_info(CLI::App& app) {
  auto game = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto setup = std::make_shared<LoadOptions>();
  auto* cmd = app.add_subcommand("info", "players, options, variants and components of a game");
  cmd->add_option("GAME", *game, "a bundled game's name, or a game folder")->required();
  cmd->add_flag("--json", *json, "print JSON");
  // Components may follow options: show them as a variant or --set shapes them.
  cmd->add_option("--variant,-v", setup->variants, "apply a variant (repeatable, applied in order)")->check(utf8_text());
  cmd->add_option("--set", setup->sets, "override one setup value: PATH=VALUE (repeatable)")->check(utf8_text());
  return [game, json, setup] { return run_info(*game, *setup, *json); };
}

Runner add_validate(CLI::App& app) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("validate", "check game folders, variants, scenarios and logs");
  auto kind = std::make_shared<std::string>();
  cmd->add_option("PATH", *paths, "game folders or single YAML/JSON files")->required();
  cmd->add_option("--kind", *kind, "what the files are, when neither their place nor their content tells")
      ->check(CLI::IsMember(file_kinds()));
  return [paths, kind] { return run_validate(*paths, *kind); };
}

}  // namespace rulebook::cli
