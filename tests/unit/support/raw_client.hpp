#pragma once
// A raw loopback connection to a test's server: bytes sent exactly as
// written (what no HTTP client library would send), and what comes back
// read without waiting. The crowd of test_web_server.cpp is these sockets,
// not threads; test_http_framing.cpp sends hostile heads with them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

struct RawClient {
  int fd = -1;
  std::string received;
  bool ended = false;  // the server closed it

  explicit RawClient(int port) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  }
  ~RawClient() {
    if (fd >= 0) ::close(fd);
  }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool send_text(const std::string& text) { return ::send(fd, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size()); }
  // Reads whatever has arrived, without waiting.
  void read_ready() {
    char buffer[65536];
    while (!ended) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 0) <= 0) return;
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) {
        ended = true;
        return;
      }
      received.append(buffer, static_cast<size_t>(n));
    }
  }
};

// Reads until the server closes the connection, or 30 s pass; true when it closed.
inline bool read_until_closed(RawClient& client) {
  for (int round = 0; round < 3000 && !client.ended; ++round) {
    client.read_ready();
    if (!client.ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return client.ended;
}
