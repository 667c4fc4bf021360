#include "lua/engine_pool.hpp"

#include <mutex>
#include <vector>

namespace rulebook {

namespace {

// Enough for a few agents' engines at once (a determinizer holds up to
// six); the oldest goes first. Each engine keeps its definition alive, so
// a definition's address names it while one of its engines is here.
constexpr size_t kKeptEngines = 16;

struct Pool {
  std::mutex mutex;
  std::vector<std::unique_ptr<RuleEngine>> idle;  // oldest first
};

// Never destroyed: engines given back while the process exits (a static
// agent's) find it still there.
Pool& pool() {
  static Pool* const kept = new Pool;
  return *kept;
}

}  // namespace

PooledEngine pooled_engine(const std::shared_ptr<const GameDefinition>& definition, const EngineLimits& limits) {
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    for (size_t i = p.idle.size(); i-- > 0;) {
      RuleEngine& engine = *p.idle[i];
      if (&engine.definition() != definition.get() || engine.limits() != limits) continue;
      PooledEngine taken(p.idle[i].release());
      p.idle.erase(p.idle.begin() + static_cast<std::ptrdiff_t>(i));
      return taken;
    }
  }
  return PooledEngine(new RuleEngine(definition, limits));
}

void ReturnEngineToPool::operator()(RuleEngine* engine) const noexcept {
  std::unique_ptr<RuleEngine> owned(engine);
  if (!owned) return;
  try {
    owned->trim_memory();
  } catch (...) {
    return;  // not kept: destroyed
  }
  std::unique_ptr<RuleEngine> dropped;  // destroyed outside the lock
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (p.idle.size() >= kKeptEngines) {
    dropped = std::move(p.idle.front());
    p.idle.erase(p.idle.begin());
  }
  p.idle.push_back(std::move(owned));
}

size_t pooled_engine_count() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.idle.size();
}

}  // namespace rulebook
