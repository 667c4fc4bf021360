// rulebook merge: the shards of one simulation (simulate --shard K/N --out
// PART.json), added up and reported exactly as one unsharded run.
#include "cli/commands.hpp"
#include "cli/plot.hpp"
#include "cli/simulation_part.hpp"

namespace rulebook::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> parts;
  bool json = false;
  std::string plot;
};

int run(const MergeOptions& o) {
  if (!o.plot.empty()) check_plot_file(o.plot);
  std::vector<SimulationPart> parts;
  for (const auto& file : o.parts) parts.push_back(read_part(file));
  return print_run(merge_parts(parts), o.json, o.plot);
}

}  // namespace

Runner add_merge(CLI::App& app) {
  auto o = std::make_shared<MergeOptions>();
  auto* cmd = app.add_subcommand("merge", "add up the shards of one simulation and report it as one run");
  cmd->add_option("PART", o->parts, "the PART.json files of every shard (simulate --shard K/N --out PART.json)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_flag("--json", o->json, "print one JSON object (schemas/simulate.schema.json)");
  cmd->add_option("--plot", o->plot, "draw win rates and game lengths into FILE.svg or FILE.png (needs gnuplot)");
  return [o] { return run(*o); };
}

}  // namespace rulebook::cli
