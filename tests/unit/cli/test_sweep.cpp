// rulebook sweep: every setting on the same seeds, the fairest named, the
// others against it with Holm's correction; option schemas respected.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/sweep_settings.hpp"
#include "cli_runner.hpp"
#include "schema/json_schema.hpp"
#include "setup/setup_error.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;

TEST_CASE("sweep: settings from ranges, lists and variant sets", "[sweep]") {
  using rulebook::cli::expand_set;
  CHECK(expand_set("options.x=2..8:2") == std::vector<std::string>{"options.x=2", "options.x=4", "options.x=6", "options.x=8"});
  CHECK(expand_set("k=1..3") == std::vector<std::string>{"k=1", "k=2", "k=3"});
  CHECK(expand_set("k=0.5..1.5:0.5") == std::vector<std::string>{"k=0.5", "k=1", "k=1.5"});
  CHECK(expand_set("k=red,blue") == std::vector<std::string>{"k=red", "k=blue"});
  CHECK(expand_set("k=5") == std::vector<std::string>{"k=5"});
  CHECK_THROWS_AS(expand_set("k=8..2"), rulebook::SetupError);
  CHECK_THROWS_AS(expand_set("k=1..x"), rulebook::SetupError);
  CHECK_THROWS_AS(expand_set("k=1..5:0"), rulebook::SetupError);
  CHECK_THROWS_AS(expand_set("novalue"), rulebook::SetupError);
  const auto sets = rulebook::cli::parse_variant_sets("-;a;a+b");
  CHECK(sets == std::vector<std::vector<std::string>>{{}, {"a"}, {"a", "b"}});
  const auto all = rulebook::cli::sweep_settings({}, sets, {"k=1,2"});
  REQUIRE(all.size() == 6);
  CHECK(all[5].variants == std::vector<std::string>{"a", "b"});
  CHECK(all[5].sets == std::vector<std::string>{"k=2"});
  CHECK(all[0].description == "k=1");
  CHECK_THROWS_AS(rulebook::cli::sweep_settings({}, {}, {"a=1..20", "b=1..20"}, 200), rulebook::SetupError);
}

TEST_CASE("sweep: a --set's value count is limited, counted without overflow", "[sweep]") {
  using rulebook::cli::expand_set;
  auto error_of = [](const std::string& spec) {
    try {
      expand_set(spec);
    } catch (const rulebook::SetupError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // 9e300 steps: no integer holds the count.
  CHECK_THAT(error_of("K=1..10:1e-300"), Catch::Contains("has more than the 1000 values a --set may sweep"));
  CHECK_THAT(error_of("K=-1e308..1e308"), Catch::Contains("more than the 1000"));
  CHECK_THAT(error_of("K=1..1001"), Catch::Contains("has 1001 values, more than the 1000"));
  CHECK(expand_set("K=1..1000").size() == 1000);
  std::string list = "K=0";
  for (int i = 1; i <= 1000; ++i) list += "," + std::to_string(i);
  CHECK_THAT(error_of(list), Catch::Contains("more than the 1000 values"));
  // Through the command, before any game: exit 2, the limit named.
  const auto r = run_rulebook("sweep pass-the-pandas --set options.points_target=1..10:1e-300 --games 2");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("1000"));
  CHECK_THAT(r.err, !Catch::Contains("one setting only"));
  // Settings: the product is counted before any is built, and the limit named.
  try {
    rulebook::cli::sweep_settings({}, {}, {"a=1..1000", "b=1..1000", "c=1..1000", "d=1..1000"}, 200);
    FAIL("no error");
  } catch (const rulebook::SetupError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("more than 200 settings"));
  }
}

TEST_CASE("sweep: every setting on the same seeds, the fairest named, Holm over the comparisons", "[sweep]") {
  const std::string dir = temp_folder("sweep");
  auto r = run_rulebook("sweep pass-the-pandas --variant panda-monium --set options.points_target=2..6:2 --games 200 "
                        "--jobs 2 --json --plot " + dir + "/sweep.svg");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto schema = rulebook::schema::Schema::load(std::string(RULEBOOK_SOURCE_DIR) + "/schemas/sweep.schema.json");
  const auto issues = schema.validate(j);
  for (const auto& issue : issues) INFO(issue.pointer << ": " << issue.message);
  CHECK(issues.empty());
  REQUIRE(j["settings"].size() == 3);
  CHECK(j["settings"][2]["sets"] == nlohmann::json{"options.points_target=6"});
  const int fairest = j["fairest"]["index"];
  CHECK(j["fairest"]["sets"] == j["settings"][fairest]["sets"]);
  CHECK(j["settings"][fairest]["in_contention"] == true);
  for (size_t k = 0; k < 3; ++k) {
    const auto& s = j["settings"][k];
    if (static_cast<int>(k) == fairest) {
      CHECK_FALSE(s.contains("versus_fairest"));
      continue;
    }
    for (const char* figure : {"unfairness", "mean_turns"})
      CHECK(s["versus_fairest"][figure]["holm_p_value"].get<double>() >= s["versus_fairest"][figure]["p_value"].get<double>());
  }
  // A longer race is longer: the same seeds make it plain.
  CHECK(j["settings"][2]["turns"]["mean"]["estimate"].get<double>() > j["settings"][0]["turns"]["mean"]["estimate"].get<double>());
  // Each setting is plain simulate on the same seeds.
  auto single = nlohmann::json::parse(
      run_rulebook("simulate pass-the-pandas --variant panda-monium --set options.points_target=4 --games 200 --json").out);
  CHECK(single["win_rate_by_seat"] == j["settings"][1]["win_rate_by_seat"]);
  CHECK(single["rules_hash"] == j["settings"][1]["rules_hash"]);
  CHECK(read_text(dir + "/sweep.svg").find("Unfairness by setting") != std::string::npos);
  // Agents that differ: each setting's skill, the strong seats' win rate minus the random seats'.
  auto skill = nlohmann::json::parse(
      run_rulebook("sweep pass-the-pandas --set options.points_target=0,2 --variant-sets '-;panda-monium' --agent 0=first "
                   "--games 60 --json").out);
  REQUIRE(skill["settings"].size() == 4);
  CHECK(skill["skill_seats"]["strong"] == nlohmann::json{0});
  for (const auto& s : skill["settings"]) CHECK(s.contains("skill"));
  CHECK_FALSE(j["settings"][0].contains("skill"));
  auto text = run_rulebook("sweep pass-the-pandas --variant-sets '-;panda-monium' --games 50");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("fairest: ") != std::string::npos);
  CHECK(text.out.find("adaptive sampling: none") != std::string::npos);
}

TEST_CASE("sweep: refuses values outside the option schema, before playing", "[sweep]") {
  auto above = run_rulebook("sweep pass-the-pandas --set options.points_target=999..1001 --games 5");
  CHECK(above.exit_code == 2);
  CHECK(above.err.find("setting 'options.points_target=1001'") != std::string::npos);
  CHECK(above.err.find("above the maximum 1000") != std::string::npos);
  CHECK(above.out.empty());
  CHECK(run_rulebook("sweep pass-the-pandas --set options.points_target=9..2 --games 5").exit_code == 2);
  CHECK(run_rulebook("sweep pass-the-pandas --set options.points_target=4 --games 5").exit_code == 2);  // one setting
  CHECK(run_rulebook("sweep pass-the-pandas --variant-sets '-;nope' --games 5").exit_code == 2);
}
