#include "lua/budget.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lua/error_report.hpp"
#include "lua/line_coverage.hpp"

namespace rulebook {

namespace {
constexpr int kHookInterval = 1000;  // instructions between two count hooks
}  // namespace

struct BudgetRun {
  std::atomic<uint64_t> generation{0};  // odd while a run of Lua is under way
  std::atomic<uint64_t> expired{0};     // the generation the watchdog stopped
  std::mutex lock;                      // the watchdog's check vs. the end of a run
  pthread_t thread{};
  clockid_t cpu_clock{};
  bool has_thread = false;
  double max_seconds = 0;
  lua_State* running = nullptr;  // the state running Lua for this run
  BudgetRun* outer = nullptr;    // a run this one interrupted (an engine inside an agent, or a nested level)
  lua_State* interrupted = nullptr;  // the context's running state when this run began
  // An agent answering a decision inside the run: its time is not the
  // rules' (a search bot may think for seconds). Under `lock`. Reading a
  // thread's CPU clock is a system call (about 1.5 us here, more than a
  // whole turn of Pass the Pandas), so a pause notes only the monotonic
  // clock (vDSO, tens of ns): an agent that answers within a watchdog tick
  // is charged to the rules (microseconds); for one that thinks longer the
  // watchdog samples the thread's CPU clock during the pause, and the
  // resume excludes the CPU time from then on, plus the wall time from the
  // pause to that sample (an upper bound on the CPU time in it: at most
  // one tick too generous, never stricter).
  bool paused = false;
  bool pause_sampled = false;
  double paused_wall = 0;  // monotonic seconds when the pause began
  double pause_cpu = 0;    // estimated thread CPU seconds when it began (once sampled)
  double excluded = 0;     // CPU time spent paused, over the engine's life
  // The watchdog's own notes.
  uint64_t seen = 0;
  double start_cpu = 0;
  double start_excluded = 0;
};

namespace {

double seconds_of(const timespec& ts) { return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9; }

double monotonic_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return seconds_of(ts);
}

// The innermost run on this thread, for the signal handler.
__attribute__((tls_model("initial-exec"))) thread_local BudgetRun* t_current_run = nullptr;

void budget_hook(lua_State* L, lua_Debug* ar);

bool run_expired(const BudgetRun* run) {
  const uint64_t g = run->generation.load(std::memory_order_acquire);
  return (g & 1) && run->expired.load(std::memory_order_acquire) == g;
}

void arm_stop_hook(lua_State* L) {
  lua_sethook(L, budget_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

void on_budget_signal(int) {
  for (BudgetRun* run = t_current_run; run; run = run->outer)
    if (run->running && run_expired(run)) arm_stop_hook(run->running);
}

int budget_signal() { return SIGRTMIN; }

class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* w = new Watchdog;  // never destroyed: its thread runs to the process's end
    return *w;
  }
  void add(BudgetRun* run) {
    std::lock_guard<std::mutex> hold(mutex_);
    runs_.push_back(run);
    if (!started_) {
      struct sigaction sa {};
      sa.sa_handler = on_budget_signal;
      sa.sa_flags = SA_RESTART;
      sigemptyset(&sa.sa_mask);
      sigaction(budget_signal(), &sa, nullptr);
      std::thread([this] { loop(); }).detach();
      started_ = true;
    }
    wake_.notify_one();
  }
  void remove(BudgetRun* run) {
    std::lock_guard<std::mutex> hold(mutex_);
    runs_.erase(std::remove(runs_.begin(), runs_.end(), run), runs_.end());
  }

 private:
  static constexpr auto kTick = std::chrono::milliseconds(5);

  void loop() {
    // The watchdog thread must never take the budget signal itself.
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, budget_signal());
    pthread_sigmask(SIG_BLOCK, &mask, nullptr);
    std::unique_lock<std::mutex> hold(mutex_);
    for (;;) {
      if (runs_.empty()) wake_.wait(hold, [this] { return !runs_.empty(); });
      else wake_.wait_for(hold, kTick);
      for (BudgetRun* run : runs_) check(run);
    }
  }

  static void check(BudgetRun* run) {
    std::lock_guard<std::mutex> hold(run->lock);
    const uint64_t g = run->generation.load(std::memory_order_acquire);
    if (!(g & 1) || !run->has_thread) {
      run->seen = g;
      return;
    }
    if (run->paused) {  // an agent is thinking: not the rules' time
      if (run->pause_sampled) return;
      timespec ts{};
      if (clock_gettime(run->cpu_clock, &ts) != 0) return;
      const double cpu = seconds_of(ts);
      run->pause_cpu = cpu - std::max(0.0, monotonic_seconds() - run->paused_wall);
      run->pause_sampled = true;
      return;
    }
    timespec ts{};
    if (clock_gettime(run->cpu_clock, &ts) != 0) return;
    const double cpu = seconds_of(ts);
    if (g != run->seen) {  // a new run: its CPU time counts from here
      run->seen = g;
      run->start_cpu = cpu;
      run->start_excluded = run->excluded;
      return;
    }
    if (cpu - run->start_cpu - (run->excluded - run->start_excluded) < run->max_seconds) return;
    // Signal again at every tick until the run ends: the thread may be in
    // an inner run (an engine used by an agent) when the first arrives.
    run->expired.store(g, std::memory_order_release);
    pthread_kill(run->thread, budget_signal());
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<BudgetRun*> runs_;
  bool started_ = false;
};

std::string seconds_text(double s) {
  char text[64];
  snprintf(text, sizeof text, "%g second%s", s, s == 1 ? "" : "s");
  return text;
}

// Coverage: the line that runs now, recorded by chunk name.
void record_line(LuaContext* ctx, lua_State* L, lua_Debug* ar) {
  LineCoverage& c = *ctx->coverage;
  lua_getinfo(L, "S", ar);
  if (ar->source != c.last_source) {
    c.last_source = ar->source;
    const char* name = ar->source[0] == '@' ? ar->source + 1 : ar->source;
    c.last_lines = &c.lines[name];
  }
  c.last_lines->insert(ar->currentline);
}

void budget_hook(lua_State* L, lua_Debug* ar) {
  LuaContext* ctx = context(L);
  const bool covered_line = ar->event == LUA_HOOKLINE && ctx->coverage;
  if (covered_line) record_line(ctx, L, ar);
  BudgetRun* run = ctx->budget_run;
  if (ctx->abort == Abort::None) {
    if (run && run_expired(run)) {
      ctx->abort = Abort::Budget;
      ctx->abort_message = script_position(L) + "script exceeded its time budget (" +
                           seconds_text(ctx->max_seconds) + " of CPU time, --max-seconds)";
    } else if (ctx->max_instructions > 0 && ar->event == LUA_HOOKCOUNT && lua_gethookcount(L) == kHookInterval) {
      ctx->instructions += kHookInterval;
      if (ctx->instructions <= ctx->max_instructions) return;
      ctx->abort = Abort::Budget;
      ctx->abort_message = script_position(L) + "script exceeded its instruction budget of " +
                           std::to_string(ctx->max_instructions) + " instructions";
    } else if (covered_line) {
      return;  // a line for coverage: nothing to stop
    } else {
      sandbox_arm_hook(L);  // a stop signal that came late, after its run
      return;
    }
  }
  if (ctx->abort != Abort::Budget && ctx->abort != Abort::Memory) return;
  lua_pushstring(L, ctx->abort_message.c_str());
  lua_error(L);
}

}  // namespace

void sandbox_arm_hook(lua_State* L) {
  // The exact instruction count needs a hook, which makes the VM stop at
  // every instruction; the time budget needs none until it runs out. A
  // line hook only when coverage is asked for (mutation testing).
  const LuaContext* ctx = context(L);
  const int mask = (ctx->max_instructions > 0 ? LUA_MASKCOUNT : 0) | (ctx->coverage ? LUA_MASKLINE : 0);
  if (mask) lua_sethook(L, budget_hook, mask, kHookInterval);
  else lua_sethook(L, nullptr, 0, 0);
}

// A run may begin while another run of the same state is under way: an
// agent asked for a decision reads the seat's view (rules.describe), or
// evaluates and plays forks on the same engine. Each such level is a
// BudgetRun of its own (made on first use, watched until the engine
// closes): its own budget, while the run it interrupted is paused or goes
// on counting as before. One BudgetRun shared by the levels would lose the
// outer run's place when the inner one ends (its budget off for good).
void sandbox_begin_run(lua_State* L) {
  LuaContext* ctx = context(L);
  lua_State* const interrupted = ctx->running;
  ctx->running = L;
  if (ctx->max_seconds <= 0 || ctx->budget_levels.empty()) return;
  if (ctx->budget_depth == static_cast<int>(ctx->budget_levels.size())) {
    auto* level = new BudgetRun;
    level->max_seconds = ctx->max_seconds;
    ctx->budget_levels.push_back(level);
    Watchdog::instance().add(level);
  }
  BudgetRun* run = ctx->budget_levels[static_cast<size_t>(ctx->budget_depth++)];
  ctx->budget_run = run;
  run->interrupted = interrupted;
  const pthread_t self = pthread_self();
  if (!run->has_thread || !pthread_equal(run->thread, self)) {
    std::lock_guard<std::mutex> hold(run->lock);
    run->thread = self;
    run->has_thread = pthread_getcpuclockid(self, &run->cpu_clock) == 0;
  }
  run->running = L;
  run->outer = t_current_run;
  t_current_run = run;
  run->generation.fetch_add(1, std::memory_order_acq_rel);  // odd: running
}

void sandbox_end_run(lua_State* L) {
  LuaContext* ctx = context(L);
  if (ctx->max_seconds <= 0 || ctx->budget_depth == 0) {
    if (ctx->running == L) ctx->running = nullptr;
    return;
  }
  BudgetRun* run = ctx->budget_levels[static_cast<size_t>(--ctx->budget_depth)];
  ctx->budget_run = ctx->budget_levels[static_cast<size_t>(std::max(0, ctx->budget_depth - 1))];
  ctx->running = run->interrupted;
  bool fired;
  {
    std::lock_guard<std::mutex> hold(run->lock);
    const uint64_t g = run->generation.fetch_add(1, std::memory_order_acq_rel);  // even: idle
    fired = run->expired.load(std::memory_order_acquire) == g;
  }
  t_current_run = run->outer;
  run->running = nullptr;
  run->outer = nullptr;
  run->interrupted = nullptr;
  if (fired) sandbox_arm_hook(L);  // take the stop hook off the state
  // The interrupted run's own stop, if its budget ran out meanwhile (the
  // signal stopped only the innermost state).
  if (t_current_run && t_current_run->running && run_expired(t_current_run)) arm_stop_hook(t_current_run->running);
}

namespace {
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return seconds_of(ts);
}
}  // namespace

void sandbox_pause_run(lua_State* L) {
  BudgetRun* run = context(L)->budget_run;
  if (!run || context(L)->max_seconds <= 0) return;
  const double now = monotonic_seconds();
  std::lock_guard<std::mutex> hold(run->lock);
  run->paused = true;
  run->pause_sampled = false;
  run->paused_wall = now;
}

void sandbox_resume_run(lua_State* L) {
  BudgetRun* run = context(L)->budget_run;
  if (!run || context(L)->max_seconds <= 0) return;
  std::lock_guard<std::mutex> hold(run->lock);
  if (!run->paused) return;
  // Only a pause the watchdog sampled reads the CPU clock (see BudgetRun).
  if (run->pause_sampled) run->excluded += std::max(0.0, thread_cpu_seconds() - run->pause_cpu);
  run->paused = false;
}

void budget_watch(LuaContext* ctx) {
  if (ctx->max_seconds <= 0) return;
  ctx->budget_run = new BudgetRun;
  ctx->budget_run->max_seconds = ctx->max_seconds;
  ctx->budget_levels.assign(1, ctx->budget_run);
  ctx->budget_depth = 0;
  Watchdog::instance().add(ctx->budget_run);
}

void budget_unwatch(LuaContext* ctx) {
  for (BudgetRun* level : ctx->budget_levels) {
    Watchdog::instance().remove(level);
    delete level;
  }
  ctx->budget_levels.clear();
  ctx->budget_depth = 0;
  ctx->budget_run = nullptr;
}

}  // namespace rulebook
