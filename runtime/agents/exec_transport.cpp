#include "agents/exec_transport.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

extern char** environ;

namespace rulebook {
namespace {

constexpr size_t kMaxLine = 16u * 1024 * 1024;  // an answer is a few bytes; a runaway bot stops here

bool executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Where execvp would find `program`, or empty.
std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return executable_file(program) ? program : std::string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    const size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + program;
    if (executable_file(candidate)) return candidate;
    if (colon == std::string_view::npos) return {};
    dirs.remove_prefix(colon + 1);
  }
}

int remaining_ms(SeatTransport::Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SeatTransport::Clock::now());
  if (left.count() <= 0) return 0;
  return left.count() > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(left.count()) + 1;
}

std::string seconds(SeatTransport::Clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  return fmt::format("{:g} s", s);
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("was killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return "stopped";
}

}  // namespace

std::vector<std::string> split_command_line(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {  // everything up to the next ' as it is
      const size_t close = command.find('\'', i + 1);
      if (close == std::string_view::npos) throw AgentSpecError(fmt::format("exec:{}: unclosed single quote", command));
      word += command.substr(i + 1, close - i - 1);
      i = close;
      in_word = true;
    } else if (c == '"') {  // up to the next unescaped quote; a backslash escapes a quote or a backslash
      size_t k = i + 1;
      for (; k < command.size() && command[k] != '"'; ++k) {
        if (command[k] == '\\' && k + 1 < command.size() && (command[k + 1] == '"' || command[k + 1] == '\\')) ++k;
        word += command[k];
      }
      if (k >= command.size()) throw AgentSpecError(fmt::format("exec:{}: unclosed double quote", command));
      i = k;
      in_word = true;
    } else if (c == '\\') {
      if (i + 1 >= command.size()) throw AgentSpecError(fmt::format("exec:{}: a backslash ends the command", command));
      word += command[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) throw AgentSpecError("exec: needs a command (exec:COMMAND, e.g. exec:python3 bot.py)");
  return words;
}

ExecTransport::ExecTransport(std::string command) : command_(std::move(command)), argv_(split_command_line(command_)) {
  if (find_program(argv_[0]).empty())
    throw AgentSpecError(fmt::format("exec:{}: program '{}' not found{}", command_, argv_[0],
                                     argv_[0].find('/') == std::string::npos ? " in PATH" : " or not executable"));
}

ExecTransport::~ExecTransport() { close(); }

void ExecTransport::open() {
  if (pid_ > 0 && !exited_) return;
  if (pid_ > 0) close(std::chrono::milliseconds(0));  // a previous game's bot died: start a new one
  int fds[2];
  // One socket is the child's stdin and stdout: send() with MSG_NOSIGNAL
  // then reports a vanished bot as EPIPE instead of killing us by SIGPIPE.
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw TransportFault(fmt::format("cannot create a socket for it ({})", std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 0);  // dup2 clears close-on-exec
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);  // its own process group, killed as a whole
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  for (auto& word : argv_) argv.push_back(word.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int error = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (error != 0) {
    ::close(fds[0]);
    throw TransportFault(fmt::format("cannot start '{}' ({})", argv_[0], std::strerror(error)));
  }
  pid_ = pid;
  fd_ = fds[0];
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
  exited_ = false;
  status_ = 0;
  buffer_.clear();
}

std::string ExecTransport::gone(const char* what) {
  // It usually closed its end by exiting: give it a moment to be seen.
  for (int i = 0; i < 50 && !exited_ && pid_ > 0; ++i) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_) {
      exited_ = true;
      status_ = info.si_code == CLD_EXITED ? W_EXITCODE(info.si_status, 0) : info.si_status;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (exited_) return fmt::format("{} ({})", describe_status(status_), what);
  return what;
}

void ExecTransport::send(const std::string& line, Clock::time_point deadline) {
  if (fd_ < 0) throw TransportFault("is not running");
  const auto start = Clock::now();
  std::string data = line;
  data += '\n';
  size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd_, POLLOUT, 0};
      const int ready = ::poll(&p, 1, remaining_ms(deadline));
      if (ready == 0)
        throw TransportFault(fmt::format("did not read its input for {} (a message of {} bytes is waiting)",
                                         seconds(Clock::now() - start), data.size()));
      continue;
    }
    throw TransportFault(gone("stopped reading its input"));
  }
}

bool ExecTransport::has_unread() {
  if (!buffer_.empty()) return true;
  if (fd_ < 0) return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0 || !(p.revents & POLLIN)) return false;
  char c;
  return ::recv(fd_, &c, 1, MSG_PEEK) == 1;
}

std::string ExecTransport::receive(Clock::time_point deadline) {
  if (fd_ < 0) throw TransportFault("is not running");
  const auto start = Clock::now();
  for (;;) {
    const size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      return line;
    }
    if (buffer_.size() > kMaxLine) throw TransportFault(fmt::format("wrote a line of over {} MiB", kMaxLine >> 20));
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (Clock::now() < deadline) continue;
      throw TransportFault(fmt::format("gave no answer within {}{}", seconds(Clock::now() - start),
                                       buffer_.empty() ? "" : " (a line was begun but not ended)"));
    }
    char chunk[4096];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
    } else if (n == 0) {
      throw TransportFault(gone(buffer_.empty() ? "closed its output" : "closed its output in the middle of a line"));
    } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
      throw TransportFault(gone("its output failed"));
    }
  }
}

void ExecTransport::close(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);  // end of its input: a well-behaved bot exits now
  const auto until = Clock::now() + grace;
  while (!exited_) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid_) {
      exited_ = true;
      break;
    }
    if (Clock::now() >= until) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // The leader is still unreaped here, so its process group id cannot have
  // been reused: killing the group reaches only what the bot started.
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  pid_ = -1;
  buffer_.clear();
}

}  // namespace rulebook
