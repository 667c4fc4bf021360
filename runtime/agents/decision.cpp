#include "agents/decision.hpp"

namespace rulebook {

nlohmann::json DecisionRequest::to_json() const {
  nlohmann::json j{{"seat", seat}, {"prompt", prompt}, {"options", labels}, {"view", view}};
  if (!targets.empty()) j["targets"] = targets;
  if (!together.empty()) j["together"] = together;
  return j;
}

DecisionRequest DecisionRequest::from_json(const nlohmann::json& j) {
  DecisionRequest r;
  r.seat = j.at("seat").get<Seat>();
  r.prompt = j.at("prompt").get<std::string>();
  r.labels = j.at("options").get<std::vector<std::string>>();
  r.view = j.value("view", nlohmann::json());
  if (j.contains("targets")) r.targets = j.at("targets").get<std::vector<nlohmann::json>>();
  if (j.contains("together")) r.together = j.at("together").get<std::vector<Seat>>();
  return r;
}

Decision::Decision(const DecisionRequest& request)
    : seat_(request.seat), prompt_(request.prompt.c_str()), count_(request.count()), request_(&request) {}

DecisionRequest Decision::request() const {
  DecisionRequest r;
  r.seat = seat_;
  r.prompt = prompt_;
  r.labels.reserve(static_cast<size_t>(count_));
  for (int i = 0; i < count_; ++i) r.labels.push_back(label(i));
  r.view = view();
  r.together = together();
  for (int i = 0; i < count_; ++i) {
    nlohmann::json t = target(i);
    if (t.is_null()) continue;
    r.targets.resize(static_cast<size_t>(count_));
    r.targets[static_cast<size_t>(i)] = std::move(t);
  }
  return r;
}

void Decision::labels(std::vector<std::string>& out) const {
  out.resize(static_cast<size_t>(count_));
  if (request_) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = request_->labels.at(i);
  } else if (reader_) {
    reader_->read(out);
  } else {
    for (int i = 0; i < count_; ++i) out[static_cast<size_t>(i)] = (*label_)(i);
  }
}

bool Decision::same_labels(const std::vector<std::string>& labels) const {
  if (labels.size() != static_cast<size_t>(count_)) return false;
  if (request_) return request_->labels == labels;
  if (reader_) return reader_->same(labels);
  for (int i = 0; i < count_; ++i)
    if ((*label_)(i) != labels[static_cast<size_t>(i)]) return false;
  return true;
}

const std::vector<Seat>& Decision::together() const {
  static const std::vector<Seat> alone;
  if (request_) return request_->together;
  return together_ ? *together_ : alone;
}

nlohmann::json Decision::target(int i) const {
  if (request_) return static_cast<size_t>(i) < request_->targets.size() ? request_->targets[static_cast<size_t>(i)] : nullptr;
  return target_ ? (*target_)(i) : nullptr;
}

}  // namespace rulebook
