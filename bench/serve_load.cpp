// rulebook serve under a crowd (issue 32): while STREAMS spectators hold
// the event stream open and SLOW slowloris connections trickle a header
// byte a second (reopened whenever the server drops them), four players play
// Hai Noon over HTTP, each request on a fresh connection; the bench reports
// the players' latency (p50, p99, max) and the server's memory (VmRSS,
// VmHWM from /proc). Not a test: numbers for bench/README.md.
//
//   bench_serve_load RULEBOOK [STREAMS=1000] [SLOW=300] [REQUESTS=1000]
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

int g_port = 0;

int connect_loopback(bool nonblocking) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | (nonblocking ? SOCK_NONBLOCK : 0), 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(g_port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One request on a fresh connection (Connection: close): status and body.
struct Reply {
  int status = 0;
  std::string body;
};
Reply request(const std::string& method, const std::string& target, const std::string& body = "") {
  Reply reply;
  const int fd = connect_loopback(false);
  if (fd < 0) return reply;
  timeval tv{30, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::string text = method + " " + target + " HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n";
  if (method == "POST") text += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  text += "\r\n" + body;
  if (::send(fd, text.data(), text.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(text.size())) {
    ::close(fd);
    return reply;
  }
  std::string in;
  char buffer[65536];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) in.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  if (in.rfind("HTTP/1.1 ", 0) != 0) return reply;
  reply.status = std::stoi(in.substr(9, 3));
  const size_t head_end = in.find("\r\n\r\n");
  if (head_end != std::string::npos) reply.body = in.substr(head_end + 4);
  return reply;
}

long proc_kb(pid_t pid, const char* field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field) + 1));
  return -1;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

// The crowd: streams that read (and drop) what comes, slowloris that trickle.
struct Crowd {
  std::vector<int> streams, slow;
  std::atomic<bool> running{true};
  std::atomic<long> stream_bytes{0}, slow_reopened{0}, streams_lost{0};

  void open(int n_streams, int n_slow) {
    for (int i = 0; i < n_streams; ++i) {
      const int fd = connect_loopback(false);
      const std::string get = "GET /api/events HTTP/1.1\r\nHost: bench\r\n\r\n";
      if (fd < 0 || ::send(fd, get.data(), get.size(), MSG_NOSIGNAL) < 0) {
        std::cerr << "could not open stream " << i << "\n";
        std::exit(1);
      }
      fcntl(fd, F_SETFL, O_NONBLOCK);
      streams.push_back(fd);
    }
    for (int i = 0; i < n_slow; ++i) slow.push_back(open_slow());
  }
  static int open_slow() {
    const int fd = connect_loopback(false);
    const std::string line = "GET /watch HTTP/1.1\r\n";
    if (fd >= 0) ::send(fd, line.data(), line.size(), MSG_NOSIGNAL);
    if (fd >= 0) fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
  }
  void run() {
    std::vector<pollfd> polls;
    auto next_trickle = Clock::now();
    char buffer[65536];
    while (running) {
      polls.clear();
      for (int fd : streams) polls.push_back({fd, POLLIN, 0});
      ::poll(polls.data(), polls.size(), 50);
      for (size_t i = 0; i < polls.size(); ++i) {
        if (!(polls[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = ::recv(polls[i].fd, buffer, sizeof buffer, 0);
        if (n > 0) stream_bytes += n;
        else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
          ++streams_lost;
          ::close(streams[i]);
          streams[i] = connect_loopback(false);  // an EventSource reconnects
          const std::string get = "GET /api/events HTTP/1.1\r\nHost: bench\r\n\r\n";
          ::send(streams[i], get.data(), get.size(), MSG_NOSIGNAL);
          fcntl(streams[i], F_SETFL, O_NONBLOCK);
        }
      }
      if (Clock::now() >= next_trickle) {
        next_trickle += std::chrono::seconds(1);
        for (int& fd : slow) {
          // A slowloris the server dropped is opened again: 300 stay open.
          char probe;
          const ssize_t n = ::recv(fd, &probe, 1, MSG_DONTWAIT);
          if (n == 0 || ::send(fd, "X", 1, MSG_NOSIGNAL) != 1) {
            ::close(fd);
            fd = open_slow();
            ++slow_reopened;
          }
          (void)n;
        }
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_serve_load RULEBOOK [STREAMS=1000] [SLOW=300] [REQUESTS=1000]\n";
    return 2;
  }
  const std::string rulebook = argv[1];
  const int n_streams = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int n_slow = argc > 3 ? std::atoi(argv[3]) : 300;
  const int n_requests = argc > 4 ? std::atoi(argv[4]) : 1000;
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  setrlimit(RLIMIT_NOFILE, &files);
  signal(SIGPIPE, SIG_IGN);

  // The server, on any free port, every address uncapped (the crowd is all loopback).
  int out[2];
  if (pipe(out) != 0) return 1;
  const pid_t server = fork();
  if (server == 0) {
    dup2(out[1], 1);
    ::close(out[0]);
    execl(rulebook.c_str(), rulebook.c_str(), "serve", "hai-noon", "--players", "4", "--seed", "32", "--port", "0",
          "--max-per-address", "0", static_cast<char*>(nullptr));
    _exit(127);
  }
  ::close(out[1]);
  FILE* from_server = fdopen(out[0], "r");
  std::map<int, std::string> tokens;
  char line[4096];
  const std::regex at(R"(at http://[^:]+:(\d+)/)"), seat(R"(seat (\d+): http://\S+token=([0-9a-f]+))");
  while (fgets(line, sizeof line, from_server)) {
    std::cmatch m;
    if (std::regex_search(line, m, at)) g_port = std::stoi(m[1]);
    if (std::regex_search(line, m, seat)) tokens[std::stoi(m[1])] = m[2];
    if (std::string(line).rfind("Each seat's link", 0) == 0) break;
  }
  if (g_port == 0 || tokens.size() != 4) {
    std::cerr << "the server did not start\n";
    kill(server, SIGTERM);
    return 1;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const long rss_idle = proc_kb(server, "VmRSS:");

  Crowd crowd;
  crowd.open(n_streams, n_slow);
  std::thread crowd_thread([&] { crowd.run(); });
  std::this_thread::sleep_for(std::chrono::seconds(3));  // every stream has its backlog
  const long rss_crowd = proc_kb(server, "VmRSS:");

  // The players: read the messages, answer the open decision, now and then the page.
  std::vector<double> ms;
  int answers = 0, errors = 0;
  auto timed = [&](const std::string& method, const std::string& target, const std::string& body = "") {
    const auto start = Clock::now();
    Reply r = request(method, target, body);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (r.status != 200) ++errors;
    return r;
  };
  // Paced like people: a request every 20 ms (a seat's messages, now and
  // then its page), and a decision answered 300 ms after it was seen, so
  // that the game lasts and reads fall right after moves, when the server
  // sends the news to every stream; until the game is over or REQUESTS
  // were measured. Slowloris meet their deadline and come back meanwhile.
  std::map<int, size_t> seen;  // per seat: messages read so far
  std::map<int, int> open;     // per seat: its open decision (0: none)
  std::map<int, int> options;  // per seat: its open decision's option count
  std::map<int, Clock::time_point> since;  // per seat: when its open decision was seen
  unsigned pick = 12345;       // the players' choices: a fixed LCG
  bool over = false;
  auto next = Clock::now();
  for (int round = 0; !over && static_cast<int>(ms.size()) < n_requests; ++round) {
    const int s = round % 4;
    std::this_thread::sleep_until(next += std::chrono::milliseconds(20));
    if (round % 25 == 24) {
      timed("GET", "/play?token=" + tokens[s]);
      continue;
    }
    if (open[s] != 0 && Clock::now() - since[s] >= std::chrono::milliseconds(300)) {
      pick = pick * 1103515245u + 12345u;
      const int choose = static_cast<int>((pick >> 16) % static_cast<unsigned>(std::max(1, options[s])));
      timed("POST", "/api/answer?token=" + tokens[s], json{{"choose", choose}, {"decision", open[s]}}.dump());
      open[s] = 0;
      ++answers;
      continue;
    }
    const Reply r = timed("GET", "/api/messages?token=" + tokens[s] + "&from=" + std::to_string(seen[s]));
    if (r.status != 200) continue;
    for (const auto& m : json::parse(r.body)) {
      ++seen[s];
      if (m["type"] == "decide") {
        open[s] = m["decision"].get<int>();
        options[s] = static_cast<int>(m["options"].size());
        since[s] = Clock::now();
      }
      if (m["type"] == "answered") open[s] = 0;
      if (m["type"] == "end") over = true;
    }
  }
  const long rss_end = proc_kb(server, "VmRSS:"), hwm = proc_kb(server, "VmHWM:");
  const long threads = proc_kb(server, "Threads:");
  crowd.running = false;
  crowd_thread.join();
  kill(server, SIGTERM);
  int status = 0;
  waitpid(server, &status, 0);

  std::printf("streams %d, slowloris %d (reopened %ld times after the server closed them), stream bytes read %ld, streams lost %ld\n",
              n_streams, n_slow, crowd.slow_reopened.load(), crowd.stream_bytes.load(), crowd.streams_lost.load());
  std::printf("players: %zu requests (%d answers%s), %d not 200; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", ms.size(),
              answers, over ? ", the game over" : "", errors, percentile(ms, 0.5), percentile(ms, 0.99), percentile(ms, 1.0));
  std::printf("server: VmRSS %ld KiB idle, %ld KiB with the crowd, %ld KiB at the end; VmHWM %ld KiB; %ld threads\n",
              rss_idle, rss_crowd, rss_end, hwm, threads);
  return errors == 0 ? 0 : 1;
}
