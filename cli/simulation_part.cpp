#include "cli/simulation_part.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/run_provenance.hpp"
#include "core/input_file.hpp"
#include "core/our_words.hpp"
#include "setup/setup_error.hpp"

namespace rulebook::cli {

namespace {
constexpr const char* kFormat = "rulebook-simulation-part";
constexpr int kVersion = 2;  // 2: rules_hash, games_by_winner_count, consistency checked
}  // namespace

void parse_shard(const std::string& text, int& shard, int& shards) {
  const auto slash = text.find('/');
  bool ok = slash != std::string::npos;
  if (ok) {
    try {
      size_t a = 0, b = 0;
      shard = std::stoi(text.substr(0, slash), &a);
      shards = std::stoi(text.substr(slash + 1), &b);
      ok = a == slash && b == text.size() - slash - 1 && shards >= 1 && shard >= 0 && shard < shards;
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok) throw SetupError(fmt::format("--shard: error: expected K/N with 0 <= K < N, got '{}'", text));
}

void write_part(const std::string& path, const SimulationPart& part) {
  const nlohmann::json j = {{"format", kFormat},
                            {"version", kVersion},
                            {"rulebook_version", rulebook_version()},
                            {"run", part.run.to_json()},
                            {"shard", part.shard},
                            {"shards", part.shards},
                            {"seconds", part.timing.seconds},
                            {"jobs", part.timing.jobs},
                            {"statistics", part.statistics.to_json()}};
  std::ofstream out(path, std::ios::binary);
  out << j.dump(1) << "\n";
  if (!out.flush()) throw SetupError(fmt::format("--out: error: cannot write '{}'", path));
}

SimulationPart read_part(const std::string& path) {
  const std::string text = read_file(path);
  nlohmann::json j;
  std::string error;
  if (!parse_json_input(text, path, j, error)) throw SetupError(error);
  if (!j.is_object() || j.value("format", "") != kFormat)
    throw SetupError(fmt::format("{}: error: not a part written by 'rulebook simulate --out'", path));
  if (j.value("version", 0) != kVersion)
    throw SetupError(fmt::format("{}: error: part format version {} is not supported (expected {})", path,
                                 j.value("version", 0), kVersion));
  SimulationPart part;
  part.file = path;
  try {
    part.run = RunDescription::from_json(j.at("run"));
    part.shard = j.at("shard").get<int>();
    part.shards = j.at("shards").get<int>();
    part.timing.seconds = j.at("seconds").get<double>();
    part.timing.jobs = j.at("jobs").get<int>();
    part.statistics = analysis::RunStatistics::from_json(j.at("statistics"));
  } catch (const std::exception& e) {
    throw SetupError(fmt::format("{}: error: damaged part: {}", path, in_our_words(e, "a field is missing or has the wrong type")));
  }
  if (part.shards < 1 || part.shard < 0 || part.shard >= part.shards)
    throw SetupError(fmt::format("{}: error: damaged part: shard {}/{}", path, part.shard, part.shards));
  if (part.statistics.players() != part.run.players ||
      part.statistics.games() != games_in_shard(part.run.games, part.shard, part.shards))
    throw SetupError(fmt::format("{}: error: damaged part: its statistics do not match shard {}/{} of {} games", path,
                                 part.shard, part.shards, part.run.games));
  return part;
}

namespace {

// The first field in which two runs differ, for the message.
std::string first_difference(const RunDescription& a, const RunDescription& b) {
  const auto ja = a.to_json(), jb = b.to_json();
  for (const auto& [key, value] : ja.items())
    if (jb.at(key) != value) return fmt::format("{} {} against {}", key, value.dump(), jb.at(key).dump());
  return "";
}

}  // namespace

SimulationPart merge_parts(const std::vector<SimulationPart>& parts) {
  if (parts.empty()) throw SetupError("merge: error: no parts given");
  const SimulationPart& first = parts.front();
  std::vector<const SimulationPart*> by_shard(static_cast<size_t>(first.shards), nullptr);
  SimulationPart merged;
  merged.run = first.run;
  merged.shards = 1;
  merged.statistics = analysis::RunStatistics(first.run.players);
  merged.timing = RunTiming{0, 0};
  for (const auto& part : parts) {
    if (part.run.rules_hash != first.run.rules_hash)
      throw SetupError(fmt::format("{}: error: played by other rules than {} (rules_hash {} against {}): "
                                   "the game's files, variants or settings differ",
                                   part.file, first.file, part.run.rules_hash, first.run.rules_hash));
    if (!(part.run == first.run))
      throw SetupError(fmt::format("{}: error: not the same run as {} ({})", part.file, first.file,
                                   first_difference(part.run, first.run)));
    if (part.shards != first.shards)
      throw SetupError(fmt::format("{}: error: not the same run as {} (split in {} shards, not {})", part.file,
                                   first.file, part.shards, first.shards));
    auto& slot = by_shard[static_cast<size_t>(part.shard)];
    if (slot)
      throw SetupError(fmt::format("{}: error: shard {}/{} given twice (also {})", part.file, part.shard,
                                   part.shards, slot->file));
    slot = &part;
    merged.statistics.merge(part.statistics);
    merged.timing.seconds = std::max(merged.timing.seconds, part.timing.seconds);
    merged.timing.jobs += part.timing.jobs;
  }
  std::vector<std::string> missing;
  for (size_t k = 0; k < by_shard.size(); ++k)
    if (!by_shard[k]) missing.push_back(fmt::format("{}/{}", k, first.shards));
  if (!missing.empty())
    throw SetupError(fmt::format("merge: error: missing shard{} {} of the run in {}", missing.size() == 1 ? "" : "s",
                                 fmt::join(missing, ", "), first.file));
  return merged;
}

}  // namespace rulebook::cli
