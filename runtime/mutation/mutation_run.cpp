#include "mutation/mutation_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "batch/batch.hpp"
#include "mutation/lua_lexer.hpp"
#include "play/scenario.hpp"
#include "setup/game_loader.hpp"
#include "setup/setup_error.hpp"

namespace fs = std::filesystem;

namespace rulebook::mutation {
namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SetupError(fmt::format("{}: error: cannot read the file", path.string()));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw SetupError(fmt::format("{}: error: cannot write the file", path.string()));
}

// Copies of the game folder, one per worker, removed when done: each worker
// writes its mutant into its own copy and runs the copied scenarios.
class Workspace {
 public:
  Workspace(const fs::path& game_dir, int copies) {
    std::string pattern = (fs::temp_directory_path() / "rulebook-mutate-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw SetupError("error: cannot create a temporary folder for the mutants");
    root_ = pattern;
    for (int i = 0; i < copies; ++i) {
      const fs::path dir = root_ / fmt::format("worker{}", i) / game_dir.filename();
      fs::create_directories(dir.parent_path());
      fs::copy(game_dir, dir, fs::copy_options::recursive);
      dirs_.push_back(dir);
    }
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  const fs::path& dir(int worker) const { return dirs_[worker]; }

 private:
  fs::path root_;
  std::vector<fs::path> dirs_;
};

std::string escape_regex(const std::string& text) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(text, special, R"(\$&)");
}

bool is_timeout(const std::string& failure) {
  return failure.find("instruction budget") != std::string::npos || failure.find("time budget") != std::string::npos ||
         failure.find("memory cap") != std::string::npos;
}

// The game folder's scripts (relative to `dir`) that its game and variants
// load: those the baseline's scenarios opened, and those an engine opens as
// it loads the game alone and with each of its variants (a variant no
// scenario plays is still mutated; its mutants are not covered).
std::vector<std::string> loaded_scripts(const fs::path& dir, const std::vector<LineCoverage>& baseline,
                                        const EngineLimits& limits) {
  std::set<std::string> opened;
  for (const auto& run : baseline) opened.insert(run.files.begin(), run.files.end());
  std::vector<LoadOptions> loads(1);
  for (const auto& v : list_variants(dir.string())) loads.push_back(LoadOptions{{v.name}, {}});
  for (const auto& load : loads) {
    LineCoverage coverage;
    try {
      RuleEngine engine(load_game(dir.string(), load), limits, &coverage);
    } catch (const std::exception&) {
      // A variant that does not load alone (it needs another): what it
      // opened before failing still counts, and the scenarios' runs add
      // the rest.
    }
    opened.insert(coverage.files.begin(), coverage.files.end());
  }
  std::vector<std::string> scripts;
  for (const auto& file : opened) {
    const fs::path rel = fs::absolute(file).lexically_normal().lexically_relative(dir);
    if (!rel.empty() && *rel.begin() != ".." && fs::is_regular_file(dir / rel)) scripts.push_back(rel.generic_string());
  }
  std::sort(scripts.begin(), scripts.end());
  scripts.erase(std::unique(scripts.begin(), scripts.end()), scripts.end());
  return scripts;
}

}  // namespace

const char* status_name(MutantStatus s) {
  switch (s) {
    case MutantStatus::Killed: return "killed";
    case MutantStatus::TimedOut: return "timed out";
    case MutantStatus::Survived: return "survived";
    case MutantStatus::NotCovered: return "not covered";
  }
  return "?";
}

double MutationReport::score() const {
  return mutants.empty() ? 1.0 : static_cast<double>(killed + timed_out) / static_cast<double>(mutants.size());
}

double MutationReport::covered_score() const {
  const int covered = killed + timed_out + survived;
  return covered == 0 ? 1.0 : static_cast<double>(killed + timed_out) / covered;
}

std::string game_of_scenario(const std::string& scenario_file) {
  const fs::path dir = fs::absolute(scenario_file).lexically_normal().parent_path().parent_path();
  if (!fs::exists(dir / "game.yaml"))
    throw SetupError(fmt::format("{}: error: mutation testing needs scenarios inside a game folder's scenarios/",
                                 scenario_file));
  return dir.string();
}

MutationReport run_mutation_test(const std::string& game_dir_arg, const std::vector<std::string>& scenario_files,
                                 const MutationOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const fs::path game_dir = fs::absolute(game_dir_arg).lexically_normal();
  MutationReport report;
  report.game_dir = game_dir_arg;
  report.scenarios = scenario_files;

  // Scenarios, as paths inside each worker's copy.
  std::vector<std::string> relative;
  for (const auto& file : scenario_files) {
    const fs::path rel = fs::absolute(file).lexically_normal().lexically_relative(game_dir);
    if (rel.empty() || *rel.begin() == "..")
      throw SetupError(fmt::format("{}: error: not a scenario of {}", file, game_dir_arg));
    relative.push_back(rel.generic_string());
  }

  const int jobs = std::max(1, options.jobs);
  Workspace work(game_dir, jobs);

  // Baseline: every scenario passes on the unmutated game; record the lines
  // each one runs and how much it does (the length of its narration: a
  // measure that, unlike time, gives the same order on every run, so the
  // report does not depend on the machine's load).
  const size_t n = relative.size();
  std::vector<LineCoverage> baseline(n);
  std::vector<double> cost(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    ScenarioOutcome outcome;
    try {
      outcome = run_scenario((work.dir(0) / relative[i]).string(),
                             ScenarioOptions{options.limits, &baseline[i], nullptr, options.make_agent});
    } catch (const SetupError&) {
      throw;
    } catch (const std::exception& e) {
      outcome.failures.push_back(e.what());
    }
    cost[i] = static_cast<double>(outcome.narration.size());
    if (!outcome.passed)
      throw SetupError(fmt::format("{}: error: the scenario fails on the unmutated game, so mutants cannot be "
                                   "judged: {}",
                                   scenario_files[i], outcome.failures.empty() ? "" : outcome.failures.front()));
  }

  // The scripts: the Lua files of the game folder that the game and its
  // variants load (the files the sandbox opened), not every one there.
  report.scripts = loaded_scripts(work.dir(0), baseline, options.limits);
  std::vector<std::string> sources;
  std::vector<Mutant> mutants;
  for (const auto& script : report.scripts) {
    sources.push_back(read_text(game_dir / script));
    try {
      auto more = make_mutants(sources.back(), script);
      mutants.insert(mutants.end(), more.begin(), more.end());
    } catch (const LuaSyntaxError& e) {
      throw SetupError(fmt::format("{}/{}", game_dir_arg, e.what()));
    }
  }
  std::vector<std::vector<std::set<int>>> reached(n, std::vector<std::set<int>>(report.scripts.size()));
  for (size_t i = 0; i < n; ++i)
    for (auto& [chunk, lines] : baseline[i].lines) {
      const fs::path rel = fs::absolute(chunk).lexically_normal().lexically_relative(work.dir(0));
      const auto it = std::find(report.scripts.begin(), report.scripts.end(), rel.generic_string());
      if (it != report.scripts.end()) reached[i][it - report.scripts.begin()] = std::move(lines);
    }
  std::vector<size_t> cheapest_first(n);
  for (size_t i = 0; i < n; ++i) cheapest_first[i] = i;
  std::stable_sort(cheapest_first.begin(), cheapest_first.end(), [&](size_t a, size_t b) { return cost[a] < cost[b]; });

  // Which scenarios reach each mutant.
  report.mutants.resize(mutants.size());
  report.planned_mutants = mutants.size();
  std::vector<std::vector<size_t>> runs(mutants.size());
  std::vector<size_t> script_of(mutants.size());
  for (size_t m = 0; m < mutants.size(); ++m) {
    report.mutants[m].mutant = mutants[m];
    script_of[m] = std::find(report.scripts.begin(), report.scripts.end(), mutants[m].file) - report.scripts.begin();
    for (size_t i : cheapest_first) {
      const auto& lines = reached[i][script_of[m]];
      auto it = lines.lower_bound(mutants[m].reached_from);
      if (it != lines.end() && *it <= mutants[m].reached_to) runs[m].push_back(i);
    }
  }

  // One item per mutant. Each worker writes its mutants into its own copy of
  // the game folder, restoring the script it mutated before.
  struct MutantWorker {
    fs::path dir;
    size_t dirty;                 // the script this worker's copy holds mutated (scripts.size(): none)
    ScenarioEngineCache engines;  // one Lua state per variant set, per mutant
    std::regex copy_name;         // the copy's folder as messages name it
  };
  std::mutex progress_mutex;
  size_t done = 0;
  batch::BatchPlan plan;
  plan.items = static_cast<int64_t>(mutants.size());
  plan.jobs = jobs;
  plan.cancel = options.cancel;
  std::vector<std::unique_ptr<MutantWorker>> workers(static_cast<size_t>(batch::batch_jobs(plan)));
  const batch::BatchRun run = batch::run_batch(plan, [&](int w) -> batch::PlayItem {
    const fs::path& dir = work.dir(w);
    workers[static_cast<size_t>(w)] = std::make_unique<MutantWorker>(MutantWorker{
        dir, report.scripts.size(), {},
        std::regex("(\\.\\.\\.[^ :]*?/?|" + escape_regex(dir.parent_path().parent_path().string()) + "/)worker" +
                   std::to_string(w) + "/" + escape_regex(dir.filename().string()) + "/")});
    return [&, worker = workers[static_cast<size_t>(w)].get()](const batch::BatchItem& item) {
      const auto m = static_cast<size_t>(item.index);
      MutantResult& r = report.mutants[m];
      if (runs[m].empty()) {
        r.status = MutantStatus::NotCovered;
      } else {
        const size_t s = script_of[m];
        if (worker->dirty != report.scripts.size() && worker->dirty != s)
          write_text(worker->dir / report.scripts[worker->dirty], sources[worker->dirty]);
        write_text(worker->dir / report.scripts[s], apply_mutant(sources[s], mutants[m]));
        worker->dirty = s;
        worker->engines.clear();
        r.status = MutantStatus::Survived;
        for (size_t i : runs[m]) {
          ++r.scenarios_run;
          std::string failure;
          try {
            const ScenarioOutcome o = run_scenario((worker->dir / relative[i]).string(),
                                                   ScenarioOptions{options.limits, nullptr, &worker->engines, options.make_agent});
            if (!o.passed) failure = o.failures.empty() ? "failed" : o.failures.front();
          } catch (const std::exception& e) {
            failure = e.what();
            if (failure.empty()) failure = "failed";
          }
          if (failure.empty()) continue;
          r.status = is_timeout(failure) ? MutantStatus::TimedOut : MutantStatus::Killed;
          r.scenario = scenario_files[i];
          // Messages name the worker's copy, whole or shortened by Lua
          // ("...XXXX/worker1/game/rules.lua"); show the game folder instead.
          failure = std::regex_replace(failure, worker->copy_name, game_dir_arg + "/");
          r.failure = failure.substr(0, failure.find('\n'));
          break;
        }
      }
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(r, ++done, mutants.size());
      }
    };
  });
  if (run.error) throw SetupError("error: " + run.error->message);
  if (run.cancelled) {
    // Every mutant handed out finished: those tested are the first ones.
    report.cancelled = true;
    report.mutants.resize(static_cast<size_t>(run.completed));
  }

  for (const auto& r : report.mutants) {
    switch (r.status) {
      case MutantStatus::Killed: ++report.killed; break;
      case MutantStatus::TimedOut: ++report.timed_out; break;
      case MutantStatus::Survived: ++report.survived; break;
      case MutantStatus::NotCovered: ++report.not_covered; break;
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace rulebook::mutation
