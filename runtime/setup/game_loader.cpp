#include "setup/game_loader.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "core/folder_boundary.hpp"
#include "core/suggest.hpp"
#include "schema/json_schema.hpp"
#include "setup/definition_builder.hpp"
#include "setup/overlay.hpp"
#include "setup/setup_error.hpp"
#include "setup/yaml_source.hpp"

namespace fs = std::filesystem;

namespace rulebook {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

const schema::Schema& schema_named(const std::string& file) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<schema::Schema>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[file];
  if (!slot) {
    try {
      slot = std::make_unique<schema::Schema>(schema::Schema::load(schemas_root() + "/" + file));
    } catch (const std::exception& e) {
      throw SetupError(fmt::format("{}/{}: error: {}", schemas_root(), file, e.what()));
    }
  }
  return *slot;
}

// "unknown key 'colr' (allowed: color, count)" gains "; did you mean
// `color`?", in YAML files and in --set alike.
std::string with_suggestion(const std::string& error) {
  static const std::string kKey = "unknown key '", kAllowed = "' (allowed: ";
  const size_t key = error.find(kKey);
  if (key == std::string::npos) return error;
  const size_t key_end = error.find(kAllowed, key + kKey.size());
  const size_t list_end = key_end == std::string::npos ? key_end : error.find(')', key_end);
  if (list_end == std::string::npos) return error;
  const std::string wrong = error.substr(key + kKey.size(), key_end - key - kKey.size());
  std::vector<std::string> allowed;
  const std::string list = error.substr(key_end + kAllowed.size(), list_end - key_end - kAllowed.size());
  for (size_t start = 0; start <= list.size();) {
    size_t comma = list.find(", ", start);
    if (comma == std::string::npos) comma = list.size();
    const std::string name = list.substr(start, comma - start);
    if (name.find(' ') == std::string::npos) allowed.push_back(name);  // not "keys matching ..."
    start = comma + 2;
  }
  return error.substr(0, list_end + 1) + did_you_mean(wrong, allowed) + error.substr(list_end + 1);
}

std::string join_errors(const std::vector<std::string>& errors) {
  std::string out;
  for (size_t i = 0; i < errors.size(); ++i) out += (i ? "\n" : "") + with_suggestion(errors[i]);
  return out;
}

std::string display(const fs::path& p) {
  std::error_code ec;
  auto rel = fs::relative(p, fs::current_path(ec), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  return p.string();
}

VariantInfo read_variant(const std::string& game_dir, const std::string& spec, SourcedJson* overlay) {
  fs::path path;
  if (spec.find('/') != std::string::npos || (spec.size() > 5 && spec.substr(spec.size() - 5) == ".yaml"))
    path = spec;
  else
    path = fs::path(game_dir) / "variants" / (spec + ".yaml");
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    // e.g. a name longer than the system allows: the user's mistake, named.
    const std::string shown = spec.size() > 60 ? spec.substr(0, 57) + "..." : spec;
    throw SetupError(fmt::format("--variant: error: variant '{}' ({} characters) cannot be used: {}", shown,
                                 spec.size(), ec.message()));
  }
  if (!exists) {
    std::vector<std::string> known;
    for (const auto& v : list_variants(game_dir)) known.push_back(v.name);
    throw SetupError(fmt::format("{}: error: no variant '{}' (this game has: {})", display(path), spec,
                                 known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
  }
  // A variant of the game's folder stays in it; one given by its path (on
  // the command line) keeps to its own folder. A symbolic link out is outside.
  const fs::path absolute_path = fs::absolute(path, ec).lexically_normal();
  const fs::path relative_to_game = absolute_path.lexically_relative(fs::absolute(game_dir, ec).lexically_normal());
  const bool of_the_game = !relative_to_game.empty() && *relative_to_game.begin() != "..";
  const std::string boundary = of_the_game ? game_dir : absolute_path.parent_path().string();
  if (!inside_folder(boundary, path.string()))
    throw SetupError(fmt::format("{}: error: a symbolic link out of the game folder {}: a game's files stay in its folder",
                                 display(path), display(boundary)));
  SourcedJson doc = load_yaml_file(display(path));
  check_against(doc, "variant.schema.json");
  VariantInfo info;
  const auto& v = doc.value;
  info.name = v.at("name").get<std::string>();
  info.title = v.at("title").get<std::string>();
  info.source = v.at("source").get<std::string>();
  info.description = v.value("description", "");
  if (v.contains("check") && v.at("check").contains("skip")) info.check_skip = v.at("check").at("skip").get<std::string>();
  if (v.contains("script")) {
    fs::path script = path.parent_path() / v.at("script").get<std::string>();
    if (!inside_folder(boundary, script.string()))
      throw SetupError(format_error(doc.locate("/script"),
                                    fmt::format("variant script '{}' is outside the game folder {} (a game's files "
                                                "stay in its folder; a symbolic link out of it is outside too)",
                                                v.at("script").get<std::string>(), display(boundary))));
    if (!fs::exists(script, ec))
      throw SetupError(format_error(doc.locate("/script"),
                                    fmt::format("variant script '{}' not found", script.string())));
    info.script = fs::absolute(script).lexically_normal().string();
  }
  if (overlay) {
    overlay->value = v.contains("overlay") ? v.at("overlay") : nlohmann::json::object();
    // Re-root the source map under the overlay.
    for (const auto& [pointer, loc] : doc.where)
      if (pointer.rfind("/overlay", 0) == 0) overlay->where[pointer.substr(8)] = loc;
  }
  return info;
}

}  // namespace

namespace {
std::string& default_data_root() {
  static std::string root = RULEBOOK_SOURCE_DIR;
  return root;
}
}  // namespace

void set_data_root(const std::string& root) { default_data_root() = root; }
std::string rules_root() { return env_or("RULEBOOK_RULES", default_data_root() + "/rules"); }
std::string schemas_root() { return env_or("RULEBOOK_SCHEMAS", default_data_root() + "/schemas"); }

std::string resolve_game_dir(const std::string& game) {
  std::error_code ec;
  if (fs::is_regular_file(fs::path(game) / "game.yaml", ec))
    return fs::absolute(game).lexically_normal().string();
  const fs::path bundled = fs::path(rules_root()) / game;
  if (game.find('/') == std::string::npos && fs::is_regular_file(bundled / "game.yaml", ec))
    return fs::absolute(bundled).lexically_normal().string();
  const auto games = list_games();
  throw SetupError(fmt::format("{}: error: no such game (a bundled game name or a folder with a "
                               "game.yaml; bundled: {})",
                               game, fmt::join(games, ", ")));
}

std::vector<std::string> list_games() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(rules_root(), ec))
    if (fs::is_regular_file(entry.path() / "game.yaml", ec)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<VariantInfo> list_variants(const std::string& game_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(game_dir) / "variants", ec))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  std::vector<VariantInfo> out;
  for (const auto& f : files) out.push_back(read_variant(game_dir, f, nullptr));
  return out;
}

void check_against(const SourcedJson& doc, const std::string& schema_file) {
  auto errors = schema_named(schema_file).validate_sourced(doc);
  if (!errors.empty()) throw SetupError(join_errors(errors));
}

std::shared_ptr<const GameDefinition> load_game(const std::string& game, const LoadOptions& options) {
  const std::string dir = resolve_game_dir(game);
  const std::string game_file = display(fs::path(dir) / "game.yaml");
  if (!inside_folder(dir, (fs::path(dir) / "game.yaml").string()))
    throw SetupError(fmt::format("{}: error: a symbolic link out of the game folder: a game's files stay in its folder", game_file));
  SourcedJson base = load_yaml_file(game_file);
  check_against(base, "game.schema.json");

  OverlayStack stack(base);
  std::vector<VariantInfo> variants;
  for (const auto& spec : options.variants) {
    SourcedJson overlay;
    VariantInfo info = read_variant(dir, spec, &overlay);
    for (const auto& v : variants)
      if (v.name == info.name) throw SetupError(fmt::format("--variant: error: variant '{}' is given twice", info.name));
    stack.apply(overlay, info.name);
    variants.push_back(std::move(info));
  }
  // --set is the user's explicit last word: it may change what a variant
  // set (variants conflicting with each other are errors, and so are two
  // --set giving one path different values).
  OverlayStack sets(stack.result());
  for (const auto& s : options.sets) sets.set(s);
  const SourcedJson& merged = sets.result();
  if (!options.variants.empty() || !options.sets.empty()) check_against(merged, "game.schema.json");

  // The game may declare a schema for its own options.
  if (auto it = merged.value.find("option_schema"); it != merged.value.end()) {
    schema::Schema option_schema = [&] {
      try {
        return schema::Schema::from_json(*it, schemas_root());
      } catch (const std::exception& e) {
        throw SetupError(format_error(merged.locate("/option_schema"), e.what()));
      }
    }();
    SourcedJson opts;
    opts.value = merged.value.value("options", nlohmann::json::object());
    for (const auto& [pointer, loc] : merged.where)
      if (pointer.rfind("/options", 0) == 0) opts.where[pointer.substr(8)] = loc;
    if (opts.where.find("") == opts.where.end()) opts.where[""] = merged.locate("");
    auto errors = option_schema.validate_sourced(opts);
    if (!errors.empty()) throw SetupError(join_errors(errors));
  }

  const std::string script = merged.value.value("script", "rules.lua");
  if (!inside_folder(dir, (fs::path(dir) / script).string()))
    throw SetupError(format_error(merged.locate("/script"),
                                  fmt::format("script '{}' is outside the game folder {} (a game's files stay in its "
                                              "folder; a symbolic link out of it is outside too)",
                                              script, display(dir))));
  if (!fs::is_regular_file(fs::path(dir) / script))
    throw SetupError(format_error(merged.locate("/script"), fmt::format("script '{}' not found in {}", script, display(dir))));
  return std::make_shared<const GameDefinition>(build_game_definition(
      merged.value, dir, std::move(variants), [&merged](const std::string& pointer) { return merged.locate(pointer).str(); }));
}

namespace {

// A file's kind from what it holds: the keys only that kind has.
std::string kind_by_content(const nlohmann::json& v) {
  if (!v.is_object()) return {};
  if (v.contains("expect")) return "scenario";
  if (v.contains("format") && v.contains("events")) return "log";
  if (v.contains("overlay")) return "variant";
  if (v.contains("script") || v.contains("players") || v.contains("zones") || v.contains("components") ||
      v.contains("boards"))
    return v.contains("source") && !v.contains("players") && !v.contains("zones") && !v.contains("components")
               ? "variant" : "game";
  if (v.contains("source") && v.contains("title")) return "variant";
  return {};
}

}  // namespace

const std::vector<std::string>& file_kinds() {
  static const std::vector<std::string> kinds{"game", "variant", "scenario", "log"};
  return kinds;
}

std::vector<std::string> validate_file(const std::string& path, const std::string& given_kind) {
  const fs::path p(path);
  std::string kind = given_kind;
  if (kind.empty()) {
    if (p.filename() == "game.yaml") kind = "game";
    else if (p.parent_path().filename() == "variants") kind = "variant";
    else if (p.parent_path().filename() == "scenarios") kind = "scenario";
    else if (p.extension() == ".json") kind = "log";
  }
  try {
    // Logs are JSON, which is YAML too: reading them as YAML keeps line numbers.
    const SourcedJson doc = load_yaml_file(path);
    if (kind.empty()) kind = kind_by_content(doc.value);  // wherever the file lies
    if (kind.empty())
      return {fmt::format("{}: error: cannot tell what kind of file this is (a game.yaml, a variant, a scenario "
                          "with `expect`, or a log); say it with --kind game|variant|scenario|log", path)};
    const std::string schema_file = kind + ".schema.json";
    check_against(doc, schema_file);
    if (kind == "game") load_game(p.parent_path().string());
  } catch (const SetupError& e) {
    return {e.what()};
  }
  return {};
}

}  // namespace rulebook
