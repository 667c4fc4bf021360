#pragma once
// A decision: one seat chooses one of an enumerated list of options.
//
// DecisionRequest is the whole question as a value (seat, prompt, option
// labels, the seat's view), serialisable to JSON: what the step API hands
// out at a pause and what an external bot or a network seat will receive.
// Decision is the same question as a synchronous agent sees it while the
// game waits: its labels and view are produced only when asked for (a
// random bot never asks), so bulk simulation builds no strings; request()
// turns it into a DecisionRequest.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ids.hpp"

namespace rulebook {

struct DecisionRequest {
  Seat seat;
  std::string prompt;
  std::vector<std::string> labels;  // one per option, in order
  nlohmann::json view;              // the seat's view when asked (null: not built)
  // Per option, what it is on the table, so that a page can offer it by a
  // click: {"component": ID} (a component the seat may know), {"board":
  // NAME, "cell": "X,Y"} (a board's cell), {"zone": ID}; null for an option
  // that is none of these. Empty when no option is.
  std::vector<nlohmann::json> targets;
  // A simultaneous decision (game:choose_together): every seat the rules
  // listed, this one's included, in ascending order. Each of them decides
  // without seeing the others' answers. Empty: a decision of one seat.
  std::vector<Seat> together;

  int count() const { return static_cast<int>(labels.size()); }
  nlohmann::json to_json() const;
  // Throws nlohmann::json::exception on a malformed request.
  static DecisionRequest from_json(const nlohmann::json& j);
};

// What reads all of a decision's labels at once, where they are (the
// options of game:choose, a waiting decision's): a search reads them at each
// step in its tree. The same text as Decision::label(i).
class LabelReader {
 public:
  virtual ~LabelReader() = default;
  // Every label, in order, into `out` (sized to the options' count), its
  // strings' storage reused.
  virtual void read(std::vector<std::string>& out) const = 0;
  // Whether the labels are exactly `labels` (sized to the options' count),
  // compared where they are: nothing copied.
  virtual bool same(const std::vector<std::string>& labels) const = 0;
  // Nonzero: a number that stands for these exact labels, given by every
  // reader of the same labels (a checkpoint's decision, brought back
  // untouched), so that a search that has read them once compares numbers.
  // 0: no such number.
  virtual uint64_t token() const { return 0; }
};

class Decision {
 public:
  using LabelFn = std::function<std::string(int)>;
  using ViewFn = std::function<nlohmann::json()>;
  using TargetFn = std::function<nlohmann::json(int)>;

  Decision(Seat seat, const char* prompt, int count, const LabelFn* label, const ViewFn* view,
           const TargetFn* target = nullptr)
      : seat_(seat), prompt_(prompt), count_(count), label_(label), view_(view), target_(target) {}
  // A decision over a request's labels and view.
  explicit Decision(const DecisionRequest& request);
  // Part of a simultaneous decision of these seats (DecisionRequest::together);
  // the list must outlive the decision.
  void set_together(const std::vector<Seat>* seats) { together_ = seats; }
  // A reader of all labels at once; it must outlive the decision.
  void set_label_reader(const LabelReader* reader) { reader_ = reader; }

  Seat seat() const { return seat_; }
  const char* prompt() const { return prompt_; }
  int count() const { return count_; }
  std::string label(int i) const { return request_ ? request_->labels.at(static_cast<size_t>(i)) : (*label_)(i); }
  // Every option's label, in order, into `out` (resized to count()): the
  // text label(i) gives, its strings' storage reused (no allocation for a
  // search that reads them at every step).
  void labels(std::vector<std::string>& out) const;
  // Whether the options' labels are exactly `labels`, in order (what
  // labels() would give), without copying them.
  bool same_labels(const std::vector<std::string>& labels) const;
  // LabelReader::token of the labels (0: none).
  uint64_t labels_token() const { return reader_ ? reader_->token() : 0; }
  nlohmann::json view() const { return request_ ? request_->view : (*view_)(); }
  // The seats deciding at once (DecisionRequest::together); empty for a
  // decision of one seat.
  const std::vector<Seat>& together() const;
  // What option i is on the table (see DecisionRequest::targets), or null.
  nlohmann::json target(int i) const;
  // Everything, as a value that outlives the decision.
  DecisionRequest request() const;

 private:
  Seat seat_;
  const char* prompt_;
  int count_;
  const LabelFn* label_ = nullptr;
  const ViewFn* view_ = nullptr;
  const TargetFn* target_ = nullptr;
  const LabelReader* reader_ = nullptr;
  const DecisionRequest* request_ = nullptr;
  const std::vector<Seat>* together_ = nullptr;
};

}  // namespace rulebook
