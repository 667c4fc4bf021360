#pragma once
// A seat's transport to a child process (`--agent SEAT=exec:COMMAND`): the
// protocol's lines go to its standard input and its answers come from its
// standard output; its standard error is the terminal's.
//
// COMMAND is split into words here, never given to a shell: words are
// separated by blanks, '...' and "..." quote, a backslash escapes the next
// character; no variables, globs, pipes or redirections. The program is
// looked up in PATH like a shell would. It runs in a process group of its
// own, so that closing the seat kills whatever it started too: when the
// seat is closed its stdin is closed, it has a moment to exit, then the
// whole group is killed and the process is reaped (no zombie is left).
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include "agents/external_seat.hpp"

namespace rulebook {

// The words of a command line (see above). Throws AgentSpecError on an
// empty command or an unclosed quote.
std::vector<std::string> split_command_line(std::string_view command);

class ExecTransport : public SeatTransport {
 public:
  // Checks the command (words, program found and executable) without
  // starting it; throws AgentSpecError.
  explicit ExecTransport(std::string command);
  ~ExecTransport() override;
  ExecTransport(const ExecTransport&) = delete;
  ExecTransport& operator=(const ExecTransport&) = delete;

  void open() override;  // starts the process if it is not running
  void send(const std::string& line, Clock::time_point deadline) override;
  std::string receive(Clock::time_point deadline) override;
  bool has_unread() override;
  // Closes its stdin, waits up to `grace` for it to exit, kills its process
  // group and reaps it. Safe to call twice.
  void close(std::chrono::milliseconds grace = std::chrono::milliseconds(500));
  pid_t pid() const { return pid_; }

 private:
  // Why the other side stopped talking: its exit status if it exited.
  std::string gone(const char* what);

  std::string command_;
  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  int fd_ = -1;  // our end of the socket that is its stdin and stdout
  std::string buffer_;  // bytes read past the last line handed out
  bool exited_ = false;
  int status_ = 0;
};

}  // namespace rulebook
