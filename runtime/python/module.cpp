// The Python door: `import rulebook`, every rulebook game as an
// OpenSpiel-shaped game (runtime/spiel/). Only the binding lives here:
// argument conversion, errors in Python's words, and the GIL released
// while the rules run. Nothing a game does can crash the interpreter: every
// C++ exception becomes a Python one (pybind11 translates them; ours below).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <string>

#include <dlfcn.h>

#include <nlohmann/json.hpp>

#include "lua/script_error.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"
#include "spiel/spiel_game.hpp"
#include "spiel/spiel_state.hpp"

namespace py = pybind11;
using namespace rulebook;
using namespace rulebook::spiel;

namespace {

// An option's value as --set takes it: text as it is, anything else as JSON
// (true, 3, 2.5, [1, 2]), which the overlay reads as YAML.
std::string set_value(const py::handle& value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  py::object json = py::module_::import("json");
  return json.attr("dumps")(value).cast<std::string>();
}

ChanceMode chance_mode(const std::string& name) {
  if (name == "sampled") return ChanceMode::Sampled;
  if (name == "explicit") return ChanceMode::Explicit;
  throw SpielUsageError("chance must be \"sampled\" (drawn from the seed, the default) or \"explicit\" (chance nodes), not \"" +
                        name + "\"");
}

// Installed (the .deb: /usr/lib/python3/dist-packages/rulebook/), the
// bundled games are in /usr/share/rulebook: found from this module's own
// file, as the binary finds them beside itself. A module in its build tree
// uses the source tree (the setup layer's default). RULEBOOK_RULES and
// RULEBOOK_SCHEMAS override both.
void find_data_root() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&find_data_root), &info) || !info.dli_fname) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path here = fs::weakly_canonical(info.dli_fname, ec).parent_path();
  for (fs::path p = here; !p.empty() && p != p.root_path(); p = p.parent_path()) {
    const fs::path share = p / "share" / "rulebook";
    if (fs::is_directory(share / "rules", ec) && fs::is_directory(share / "schemas", ec)) {
      set_data_root(share.string());
      return;
    }
  }
}

}  // namespace

PYBIND11_MODULE(_rulebook, m) {
  m.doc() = "rulebook games, OpenSpiel-shaped: load_game(...).new_initial_state()";
  find_data_root();

  m.attr("CHANCE") = kChancePlayer;
  m.attr("SIMULTANEOUS") = kSimultaneousPlayer;
  m.attr("INVALID") = kInvalidPlayer;
  m.attr("TERMINAL") = kTerminalPlayer;
  m.attr("INVALID_ACTION") = -1;

  static py::exception<ScriptError> script_error(m, "ScriptError", PyExc_RuntimeError);
  static py::exception<SetupError> setup_error(m, "SetupError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SpielUsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ScriptError& e) {
      script_error(e.what());
    } catch (const SetupError& e) {
      setup_error(e.what());
    } catch (const nlohmann::json::exception& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const AgentFailure& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def(
      "list_games", [] { return list_games(); }, "The bundled games' names.");
  m.def(
      "load_game",
      [](const std::string& name, int players, const std::vector<std::string>& variants, const py::dict& options,
         const std::vector<std::string>& names, double max_seconds, int max_memory_mb) {
        SpielGameOptions o;
        o.game = name;
        o.players = players;
        o.variants = variants;
        for (const auto& [key, value] : options) o.sets.push_back(py::str(key).cast<std::string>() + "=" + set_value(value));
        o.names = names;
        if (max_seconds >= 0) o.limits.max_seconds = max_seconds;
        if (max_memory_mb >= 0) o.limits.max_memory = static_cast<size_t>(max_memory_mb) * 1024 * 1024;
        py::gil_scoped_release release;
        return SpielGame::load(o);
      },
      py::arg("name_or_folder"), py::arg("players") = 0, py::arg("variants") = std::vector<std::string>{},
      py::arg("options") = py::dict(), py::arg("names") = std::vector<std::string>{}, py::arg("max_seconds") = -1.0,
      py::arg("max_memory_mb") = -1,
      "A bundled game by name, or a game folder; players=0 takes the game's default. options are its "
      "settings, as --set takes them ({'target': 50}).");

  py::class_<SpielGame, std::shared_ptr<SpielGame>>(m, "Game")
      .def("num_players", &SpielGame::num_players)
      .def("min_players", [](const SpielGame& g) { return g.definition().min_players; })
      .def("max_players", [](const SpielGame& g) { return g.definition().max_players; })
      .def("name", [](const SpielGame& g) { return g.definition().name; })
      .def("title", [](const SpielGame& g) { return g.definition().title; })
      .def(
          "new_initial_state",
          [](SpielGame& g, uint64_t seed, const std::string& chance) {
            const ChanceMode mode = chance_mode(chance);
            py::gil_scoped_release release;
            return g.new_initial_state(seed, mode);
          },
          py::arg("seed") = 1, py::arg("chance") = "sampled",
          "A new game. chance='explicit' stops at every roll and shuffle draw as a chance node.")
      .def("deserialize_state", &SpielGame::deserialize_state, py::arg("text"),
           py::call_guard<py::gil_scoped_release>())
      .def("__repr__", [](const SpielGame& g) {
        return "<rulebook.Game " + g.definition().name + ", " + std::to_string(g.num_players()) + " players>";
      });

  py::class_<SpielState>(m, "State")
      .def("current_player", &SpielState::current_player)
      .def("is_terminal", &SpielState::is_terminal)
      .def("is_chance_node", &SpielState::is_chance_node)
      .def("is_simultaneous_node", &SpielState::is_simultaneous_node)
      .def("is_player_node", [](const SpielState& s) { return s.current_player() >= 0; })
      .def("deciding_players", &SpielState::deciding_players,
           "The seats the game waits for (several at a simultaneous decision).")
      .def("num_players", &SpielState::num_players)
      .def(
          "legal_actions", [](const SpielState& s) { return s.legal_actions(); },
          py::call_guard<py::gil_scoped_release>())
      .def(
          "legal_actions", [](const SpielState& s, int player) { return s.legal_actions(player); }, py::arg("player"),
          py::call_guard<py::gil_scoped_release>())
      .def(
          "legal_actions_mask",
          [](const SpielState& s, int player) {
            auto actions = s.legal_actions(player);
            return std::vector<int>(actions.size(), 1);
          },
          py::arg("player"), py::call_guard<py::gil_scoped_release>(),
          "One 1 per option of the player's decision (every option of a decision is legal).")
      .def("action_to_string", &SpielState::action_to_string, py::arg("player"), py::arg("action"),
           py::call_guard<py::gil_scoped_release>())
      .def(
          "action_to_string", [](const SpielState& s, int action) { return s.action_to_string(s.current_player(), action); },
          py::arg("action"), py::call_guard<py::gil_scoped_release>())
      .def("prompt", &SpielState::prompt, py::arg("player"), py::call_guard<py::gil_scoped_release>(),
           "What the player's decision asks (the rules' prompt).")
      .def("chance_outcomes", &SpielState::chance_outcomes)
      .def("apply_action", &SpielState::apply_action, py::arg("action"), py::call_guard<py::gil_scoped_release>())
      .def("apply_actions", &SpielState::apply_actions, py::arg("actions"), py::call_guard<py::gil_scoped_release>())
      .def("returns", &SpielState::returns)
      .def(
          "player_return", [](const SpielState& s, int player) { return s.returns().at(player); }, py::arg("player"))
      .def("history", &SpielState::history)
      .def("history_str",
           [](const SpielState& s) {
             std::string out;
             for (int a : s.history()) out += (out.empty() ? "" : ", ") + std::to_string(a);
             return out;
           })
      .def("move_number", [](const SpielState& s) { return s.history().size(); })
      .def("information_state_string", &SpielState::information_state_string, py::arg("player"))
      .def(
          "information_state_string", [](const SpielState& s) { return s.information_state_string(s.current_player()); })
      .def("observation_string", &SpielState::observation_string, py::arg("player"),
           py::call_guard<py::gil_scoped_release>())
      .def(
          "observation_string", [](const SpielState& s) { return s.observation_string(s.current_player()); },
          py::call_guard<py::gil_scoped_release>())
      .def("clone", &SpielState::clone, py::call_guard<py::gil_scoped_release>())
      .def("__copy__", &SpielState::clone, py::call_guard<py::gil_scoped_release>())
      .def(
          "__deepcopy__", [](const SpielState& s, py::dict) { return s.clone(); }, py::arg("memo"))
      .def("serialize", &SpielState::serialize, py::call_guard<py::gil_scoped_release>())
      .def("resample_from_infostate", &SpielState::resample_from_infostate, py::arg("player"), py::arg("seed"),
           py::call_guard<py::gil_scoped_release>(),
           "A state the player cannot tell apart from this one, drawn by the bots' sampler from `seed` "
           "(at a decision of that player, chance sampled).")
      .def("is_resampled", &SpielState::is_resampled)
      .def("get_game", &SpielState::game)
      .def("chance_mode",
           [](const SpielState& s) { return s.chance_mode() == ChanceMode::Explicit ? "explicit" : "sampled"; })
      .def("seed", &SpielState::seed)
      .def("__str__", &SpielState::to_string, py::call_guard<py::gil_scoped_release>())
      .def("__repr__", [](const SpielState& s) {
        return "<rulebook.State move " + std::to_string(s.history().size()) + ", player " +
               std::to_string(s.current_player()) + ">";
      });
}
