#include "bots/search_agent.hpp"

#include <chrono>
#include <cmath>
#include <unordered_map>
#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "determinize/determinizer.hpp"
#include "bots/seat_agent.hpp"

namespace rulebook {

// oracle=1: the one door of the bots to the true game, for a bot that
// cheats on purpose and says so (its kind reads "oracle=1 (cheating...)").
struct OracleDoor {
  static std::vector<int> true_identities(const GameAccess& game) { return game.record_->true_identities(); }
};
namespace {

// One tree. Nodes are reached by the labels of the options chosen from the
// root (an option's key is its label and the number of equal labels before
// it), so a node stands for every determinization that took those steps:
// the seat's information set for its own decisions, the determinized one
// for the others' (single-observer ISMCTS).
struct Edge {
  std::string key;
  int child = -1;
  double reward = 0;  // summed rewards of the seat that chose this edge
  int visits = 0;
  int available = 0;  // iterations in which this option was offered
};

size_t key_hash(const std::string& key) { return std::hash<std::string>{}(key); }

// log(n), read from a table for the counts a search meets most (UCB takes
// one for every option at every step): the same doubles std::log gives.
double log_count(int n) {
  constexpr int kTabled = 2048;
  static const std::array<double, kTabled> table = [] {
    std::array<double, kTabled> t{};
    for (int i = 1; i < kTabled; ++i) t[static_cast<size_t>(i)] = std::log(static_cast<double>(i));
    return t;
  }();
  return n > 0 && n < kTabled ? table[static_cast<size_t>(n)] : std::log(static_cast<double>(n));
}

struct Node {
  std::vector<Edge> edges;
  // The edges by their keys' hashes (a node may offer dozens of options),
  // the first edge of each hash: the keys' own comparison settles it, and
  // a key whose hash another key has is looked for among all the edges.
  std::unordered_map<size_t, int> edge_of_hash;
  // The labels of the options last offered here and each one's edge (-1:
  // none yet), kept up to date as edges are added: a node is mostly
  // offered the same options again (the root at every iteration), which
  // then need no keys, hashes nor look-ups.
  std::vector<std::string> last_labels;
  std::vector<int> last_edges;
  uint64_t last_token = 0;  // Decision::labels_token of last_labels (0: none)

  // The edge of `key` (its hash `hash`), or -1.
  int find(const std::string& key, size_t hash) const {
    const auto found = edge_of_hash.find(hash);
    if (found == edge_of_hash.end()) return -1;
    if (edges[static_cast<size_t>(found->second)].key == key) return found->second;
    for (size_t e = 0; e < edges.size(); ++e)
      if (edges[e].key == key) return static_cast<int>(e);
    return -1;
  }
  int add(const std::string& key, size_t hash, int child) {
    edges.push_back(Edge{key, child, 0, 0, 1});
    const int e = static_cast<int>(edges.size()) - 1;
    edge_of_hash.emplace(hash, e);  // an earlier edge of the same hash keeps its place
    return e;
  }
};

class Tree {
 public:
  Tree() { nodes_.emplace_back(); }
  std::vector<Node>& nodes() { return nodes_; }
  int add() {
    nodes_.emplace_back();
    return static_cast<int>(nodes_.size()) - 1;
  }
  // The range of the rewards seen, at least [0, 1]: a game's returns may
  // be on any scale (chips, points), so UCB's mean is read in this range,
  // where its exploration term is meant to work. Without returns every
  // reward is a share of the win, in [0, 1]: the range stays [0, 1] and
  // the mean is used exactly as it is.
  void widen(const std::vector<double>& rewards) {
    for (double r : rewards) {
      low_ = std::min(low_, r);
      high_ = std::max(high_, r);
    }
  }
  double scaled(double mean) const { return (mean - low_) / (high_ - low_); }

 private:
  std::vector<Node> nodes_;
  double low_ = 0, high_ = 1;
};

// Whether two of the keys may be equal: equal keys hash alike, so keys
// whose hashes all differ are all different (`sorted` is scratch).
bool may_repeat(const std::vector<size_t>& hashes, std::vector<size_t>& sorted) {
  sorted.assign(hashes.begin(), hashes.end());
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

// Each option's key and its hash, from the options' labels (`keys` holds
// them on entry): its label, and for the n-th repeat of a label (n >= 1)
// the label, "\x1f" and n. Repeats are rare: looked for by the labels'
// hashes, found by sorting, not by a map.
void labels_to_keys(std::vector<std::string>& keys, std::vector<size_t>& hashes, std::vector<size_t>& sorted) {
  hashes.clear();
  for (const std::string& key : keys) hashes.push_back(key_hash(key));
  if (keys.size() < 2 || !may_repeat(hashes, sorted)) return;
  std::vector<int> order(keys.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)]; });
  for (size_t run = 0; run < order.size();) {
    size_t end = run + 1;
    while (end < order.size() && keys[static_cast<size_t>(order[end])] == keys[static_cast<size_t>(order[run])]) ++end;
    for (size_t k = run + 1; k < end; ++k) {
      const size_t at = static_cast<size_t>(order[k]);
      keys[at] += "\x1f" + std::to_string(k - run);
      hashes[at] = key_hash(keys[at]);
    }
    run = end;
  }
}

std::vector<std::string> option_keys(const Decision& d) {
  std::vector<std::string> keys;
  std::vector<size_t> hashes, sorted;
  d.labels(keys);
  labels_to_keys(keys, hashes, sorted);
  return keys;
}

// What an iteration's steps work in, kept by the search for all its
// iterations (an iteration would otherwise allocate it anew).
struct IterationScratch {
  struct Step {
    int node, edge;
    Seat seat;
  };
  std::vector<Step> path;
  std::vector<std::string> labels, keys;
  std::vector<size_t> hashes, sorted;
  std::vector<int> edge_of;
  std::vector<int> unexpanded;
};

// One iteration's walk: selection and expansion in the tree, then the
// rollout (random, or greedy: each option looked at one decision deep and
// the best for the seat deciding taken), cut after `depth` decisions.
class Iteration : public SimulationPolicy {
 public:
  Iteration(Tree& tree, const SearchParams& p, Rng& rng, Determinizer& det, IterationScratch& scratch, Seat searcher)
      : tree_(tree), p_(p), rng_(rng), det_(det), greedy_(p.rollout == "greedy"), searcher_(searcher), path_(scratch.path),
        labels_(scratch.labels), keys_(scratch.keys), hashes_(scratch.hashes), sorted_(scratch.sorted), edge_of_(scratch.edge_of),
        unexpanded_(scratch.unexpanded) {
    path_.clear();
  }

  int choose(const Decision& d, GameState&) override {
    if (in_tree_) return select(d);
    if (p_.depth > 0 && rollout_steps_ >= p_.depth) throw SearchCutoff();
    ++rollout_steps_;
    if (greedy_) return greedy(d);
    return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count())));
  }

  void backpropagate(const std::vector<double>& rewards) {
    tree_.widen(rewards);
    auto& nodes = tree_.nodes();
    for (const auto& [node, edge, seat] : path_) {
      Edge& e = nodes[static_cast<size_t>(node)].edges[static_cast<size_t>(edge)];
      ++e.visits;
      e.reward += rewards[seat.index()];
    }
  }

 private:
  int select(const Decision& d) {
    const size_t count = static_cast<size_t>(d.count());
    auto& nodes = tree_.nodes();
    std::vector<int>& edge_of = edge_of_;
    std::vector<int>& unexpanded = unexpanded_;
    bool keyed = false;  // keys_ and hashes_ hold this decision's keys
    {
      Node& here = nodes[static_cast<size_t>(node_)];
      const uint64_t token = d.labels_token();
      if (!here.last_labels.empty() &&
          ((token != 0 && token == here.last_token) || d.same_labels(here.last_labels))) {
        here.last_token = token;
        edge_of.assign(here.last_edges.begin(), here.last_edges.end());
      } else {
        d.labels(labels_);  // read whole before the node keeps them (a read may throw)
        keys_.assign(labels_.begin(), labels_.end());
        labels_to_keys(keys_, hashes_, sorted_);
        keyed = true;
        edge_of.resize(count);
        for (size_t i = 0; i < count; ++i) edge_of[i] = here.find(keys_[i], hashes_[i]);
        here.last_labels.swap(labels_);
        here.last_token = token;
        here.last_edges.assign(edge_of.begin(), edge_of.end());
      }
      unexpanded.clear();
      for (size_t i = 0; i < count; ++i) {
        if (edge_of[i] >= 0) ++here.edges[static_cast<size_t>(edge_of[i])].available;
        else unexpanded.push_back(static_cast<int>(i));
      }
    }
    // A new edge for `option` (the keys worked out from the node's last
    // labels, this decision's, if the step skipped them) and its child node.
    auto expand = [&](int option) {
      if (!keyed) {
        const auto& labels = nodes[static_cast<size_t>(node_)].last_labels;
        keys_.assign(labels.begin(), labels.end());
        labels_to_keys(keys_, hashes_, sorted_);
        keyed = true;
      }
      const size_t at = static_cast<size_t>(option);
      const int child = tree_.add();
      Node& here = nodes[static_cast<size_t>(node_)];
      edge_of[at] = here.add(keys_[at], hashes_[at], child);
      here.last_edges[at] = edge_of[at];
    };
    int option;
    if (p_.random_others && d.seat() != searcher_) {
      // Another seat, modelled as random: any option, expanded if new.
      option = static_cast<int>(rng_.below(static_cast<uint32_t>(count)));
      if (edge_of[static_cast<size_t>(option)] < 0) {
        expand(option);
        in_tree_ = false;
      }
    } else if (!unexpanded.empty()) {
      option = unexpanded[rng_.below(static_cast<uint32_t>(unexpanded.size()))];
      expand(option);
      in_tree_ = false;  // one new node per iteration, then the rollout
    } else {
      const auto& edges = nodes[static_cast<size_t>(node_)].edges;
      double best = -std::numeric_limits<double>::infinity();
      option = 0;
      for (size_t i = 0; i < count; ++i) {
        const Edge& e = edges[static_cast<size_t>(edge_of[i])];
        // UCB1 with the availability count in place of the parent's visits.
        const double score = tree_.scaled(e.reward / e.visits) + p_.c * std::sqrt(log_count(e.available) / e.visits);
        if (score > best) {
          best = score;
          option = static_cast<int>(i);
        }
      }
    }
    const int edge = edge_of[static_cast<size_t>(option)];
    path_.push_back({node_, edge, d.seat()});
    node_ = nodes[static_cast<size_t>(node_)].edges[static_cast<size_t>(edge)].child;
    return option;
  }

  // The greedy rollout's step: every option one decision deep (a replay of
  // the simulation each), the best value for the seat deciding; ties by
  // the bot's stream.
  int greedy(const Decision& d) {
    std::vector<int> best;
    double top = -std::numeric_limits<double>::infinity();  // returns may be below -1
    for (int i = 0; i < d.count(); ++i) {
      const double v = det_.look_ahead(i, d.seat());
      if (v > top + 1e-12) {
        top = v;
        best = {i};
      } else if (v >= top - 1e-12) {
        best.push_back(i);
      }
    }
    return best[rng_.below(static_cast<uint32_t>(best.size()))];
  }

  Tree& tree_;
  const SearchParams& p_;
  Rng& rng_;
  Determinizer& det_;
  const bool greedy_;
  const Seat searcher_;  // the seat the search decides for
  int node_ = 0;
  bool in_tree_ = true;
  int rollout_steps_ = 0;
  std::vector<IterationScratch::Step>& path_;
  std::vector<std::string>& labels_;  // select()'s scratch
  std::vector<std::string>& keys_;
  std::vector<size_t>& hashes_;
  std::vector<size_t>& sorted_;
  std::vector<int>& edge_of_;
  std::vector<int>& unexpanded_;
};

class SearchAgent : public SeatSearchAgent {
 public:
  explicit SearchAgent(SearchParams p) : p_(std::move(p)) {}
  std::string kind() const override {
    return p_.oracle ? p_.kind + ":oracle=1 (cheating: searches the true state)" : p_.kind;
  }
  const SearchStats& stats() const { return stats_; }
  const std::vector<double>& root_values() const { return root_values_; }

  int choose(const Decision& d) override {
    root_values_.clear();
    const auto started = std::chrono::steady_clock::now();
    ++stats_.decisions;
    if (!searching()) {
      ++stats_.fallbacks;
      return random_choice(d);
    }
    Determinizer& det = determinizer_for(d, p_.kind, "search", p_.hint, p_.checkpoint);
    const std::vector<std::string> root_keys = option_keys(d);

    // PIMC (mcts on hidden information): a few trees, each on one fixed
    // determinization; ismcts: one tree, a new determinization each time.
    const bool hidden = det.resamples() && !p_.oracle;
    const int trees = p_.kind == "mcts" && hidden ? std::max(1, std::min(p_.determinizations, p_.iterations)) : 1;
    std::vector<Tree> forest(static_cast<size_t>(trees));
    std::vector<Sample> fixed(static_cast<size_t>(trees));
    std::vector<bool> drawn(static_cast<size_t>(trees), false);
    const std::vector<int> oracle = p_.oracle ? OracleDoor::true_identities(truth()) : std::vector<int>{};

    long accepted = 0, tries = 0, rejected = 0;
    const long max_tries = 20L * p_.iterations + 200;
    // One sample and one reward list, their memory reused by every iteration.
    Sample& sample = sample_;
    std::vector<double>& rewards = rewards_;
    while (accepted < p_.iterations && tries < max_tries) {
      if (p_.seconds > 0 && accepted > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= p_.seconds)
        break;
      ++tries;
      const size_t t = static_cast<size_t>(accepted % trees);
      if (p_.oracle) {
        sample.identities = oracle;
      } else if (trees > 1) {
        // A tree keeps the first determinization its replay accepts.
        if (!drawn[t]) det.sample(rng_, fixed[t]);
        sample = fixed[t];
      } else {
        det.sample(rng_, sample);
      }
      Iteration it(forest[t], p_, rng_, det, scratch_, d.seat());
      const auto outcome = p_.oracle ? det.simulate(sample.identities, rng_.next(), it, true)
                                     : det.simulate(sample, rng_.next(), it);
      if (outcome == Determinizer::Outcome::Failed) ++stats_.failures;
      if (det.last_restored()) ++stats_.restored;
      // The simulation, a look-ahead or an evaluation ran over the rules' limits.
      if (give_up_if_over_limit(det, p_.kind)) break;
      if (outcome == Determinizer::Outcome::Rejected) {
        ++stats_.rejections;
        ++rejected;
        continue;
      }
      if (outcome == Determinizer::Outcome::Failed) continue;
      drawn[t] = true;
      det.rewards(rewards);
      if (give_up_if_over_limit(det, p_.kind)) break;  // the evaluation, this time
      it.backpropagate(rewards);
      root_values_.resize(rewards.size(), 0.0);
      for (size_t s = 0; s < rewards.size(); ++s) root_values_[s] += rewards[s];
      ++accepted;
    }
    for (double& v : root_values_) v /= static_cast<double>(accepted);
    stats_.iterations += accepted;
    stats_.hint = det.hint_stats();
    stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // The most visited option at the root, over every tree.
    std::vector<long> visits(root_keys.size(), 0);
    for (auto& tree : forest)
      for (const Edge& e : tree.nodes()[0].edges)
        for (size_t i = 0; i < root_keys.size(); ++i)
          if (root_keys[i] == e.key) visits[i] += e.visits;
    if (accepted == 0) {  // no determinization agreed with what the seat saw
      ++stats_.fallbacks;
      return rejected > 0 ? no_world_found(d, p_.kind) : random_choice(d);
    }
    size_t best = 0;
    for (size_t i = 1; i < visits.size(); ++i)
      if (visits[i] > visits[best]) best = i;
    return static_cast<int>(best);
  }

 private:
  SearchParams p_;
  SearchStats stats_;
  IterationScratch scratch_;
  Sample sample_;                // each iteration's, kept for its memory
  std::vector<double> rewards_;  // each iteration's, likewise
  std::vector<double> root_values_;  // the last search's mean reward per seat at the root
};

}  // namespace

std::unique_ptr<Agent> make_search_agent(const SearchParams& params) {
  if (params.kind != "mcts" && params.kind != "ismcts")
    throw std::invalid_argument("a search agent is mcts or ismcts, not " + params.kind);
  return std::make_unique<SearchAgent>(params);
}

const SearchStats* search_stats(const Agent& agent) {
  const auto* search = dynamic_cast<const SearchAgent*>(&agent);
  return search ? &search->stats() : nullptr;
}

const std::vector<double>* search_root_values(const Agent& agent) {
  const auto* search = dynamic_cast<const SearchAgent*>(&agent);
  return search ? &search->root_values() : nullptr;
}

}  // namespace rulebook
