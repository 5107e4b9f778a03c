// The export server and its client (server.h).
#include "cli/server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/core.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "eval/code_cache.h"
#include "support/exit_release.h"
#include "support/fd_io.h"
#include "torch/torch.h"

extern char** environ;

namespace onnxify::cli {

std::vector<std::string> g_argv;
torch::KeptModules* g_kept_modules = nullptr;
int g_cancel_fd = -1;
ServerCounts g_server_counts;

namespace {

// ---- where the socket is -------------------------------------------------------------------------

// The server's folder, made if missing; "" (and `why`) when it is missing and cannot be made, or is
// not the user's own with no access for others (someone else could then talk to the server).
std::string server_dir(std::string* why) {
  std::string dir;
  if (const char* d = std::getenv("ONNXIFY_SERVER_DIR"); d && *d) {
    dir = d;
  } else if (const char* r = std::getenv("XDG_RUNTIME_DIR"); r && *r) {
    dir = std::string(r) + "/onnxify";
  } else {
    dir = fmt::format("/tmp/onnxify-{}", ::getuid());
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    *why = fmt::format("cannot make the server folder '{}': {}", dir, std::strerror(errno));
    return "";
  }
  struct stat st;
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || (st.st_mode & 077) != 0) {
    *why = fmt::format("the server folder '{}' is not a folder of yours that only you can use (mode 0700)", dir);
    return "";
  }
  return dir;
}

// One socket per onnxify build: a rebuilt or upgraded onnxify starts its own server.
std::string socket_path(std::string* why) {
  std::string dir = server_dir(why);
  if (dir.empty()) return "";
  std::string id = eval::build_id_hex();
  std::string path = dir + "/export-" + (id.empty() ? "unknown" : id.substr(0, 16)) + ".sock";
  if (path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    *why = fmt::format("the socket path '{}' is too long for a Unix socket", path);
    return "";
  }
  return path;
}

sockaddr_un address(const std::string& path) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.data(), path.size());
  return a;
}

int connect_to(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_un a = address(path);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// ---- the wire: strings with a 4-byte length; the client's three descriptors ride on the first bytes

void put(std::string& b, const std::string& s) {
  uint32_t n = static_cast<uint32_t>(s.size());
  b.append(reinterpret_cast<const char*>(&n), 4);
  b += s;
}

struct Message {
  std::vector<std::string> items;
  size_t at = 0;
  bool next(std::string* s) {
    if (at >= items.size()) return false;
    *s = items[at++];
    return true;
  }
};

constexpr uint32_t kMaxMessage = 64u << 20;

// A message: its byte length, then strings. With `fds`, the three descriptors go with the length.
bool send_message(int fd, const std::vector<std::string>& items, const int* fds) {
  std::string body;
  for (const std::string& s : items) put(body, s);
  uint32_t len = static_cast<uint32_t>(body.size());
  char buf[CMSG_SPACE(3 * sizeof(int))] = {};
  iovec iov{&len, sizeof len};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  if (fds) {
    m.msg_control = buf;
    m.msg_controllen = sizeof buf;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(3 * sizeof(int));
    std::memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
  }
  ssize_t n;
  do n = ::sendmsg(fd, &m, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof len) && write_fully(fd, body.data(), body.size());
}

// Receives a message; descriptors that came with it go into fds (-1 when none).
bool recv_message(int fd, Message* out, int* fds) {
  uint32_t len = 0;
  char buf[CMSG_SPACE(3 * sizeof(int))] = {};
  iovec iov{&len, sizeof len};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = buf;
  m.msg_controllen = sizeof buf;
  ssize_t n;
  do n = ::recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (fds) fds[0] = fds[1] = fds[2] = -1;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    std::vector<int> got(count);
    std::memcpy(got.data(), CMSG_DATA(c), count * sizeof(int));
    for (size_t i = 0; i < count; ++i) {
      if (fds && i < 3) fds[i] = got[i];
      else ::close(got[i]);
    }
  }
  if (n <= 0) return false;
  size_t rest = sizeof len - static_cast<size_t>(n);
  if (rest > 0 && read_fully(fd, reinterpret_cast<char*>(&len) + n, rest) != rest) return false;
  if (len > kMaxMessage) return false;
  std::string body(len, '\0');
  if (read_fully(fd, body.data(), len) != len) return false;
  for (size_t at = 0; at < body.size();) {
    if (body.size() - at < 4) return false;
    uint32_t k;
    std::memcpy(&k, body.data() + at, 4);
    at += 4;
    if (k > body.size() - at) return false;
    out->items.push_back(body.substr(at, k));
    at += k;
  }
  return true;
}

// Takes the exclusive lock on `fd`, trying until `wait` has passed; false when it stayed taken.
bool lock_within(int fd, std::chrono::milliseconds wait) {
  auto until = std::chrono::steady_clock::now() + wait;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) return false;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// ---- starting a server ------------------------------------------------------------------------------

// `onnxify server serve` as a daemon: its own session, no terminal, nothing of the client's open.
void spawn_server() {
  pid_t p = ::fork();
  if (p < 0) return;
  if (p == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) ::dup2(null, 0), ::dup2(null, 1), ::dup2(null, 2);
    ::close_range(3, ~0u, 0);
    ::execl("/proc/self/exe", "onnxify", "server", "serve", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status;
  while (::waitpid(p, &status, 0) < 0 && errno == EINTR) {
  }
}

// A connection to the running server, starting one when none answers (up to 10 s for it to listen).
int connect_or_start(const std::string& path, bool start) {
  int fd = connect_to(path);
  if (fd >= 0 || !start) return fd;
  spawn_server();
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < until) {
    if ((fd = connect_to(path)) >= 0) return fd;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// ---- the server's side of one request ---------------------------------------------------------------

// Runs the client's command line here as in its own process: its descriptors as 0/1/2, its working
// directory, its environment (swapped in for the call: the server is one thread while it runs
// a command, and the kept interpreter's thread is idle then).
int run_for_client(const std::vector<std::string>& args, const std::string& cwd, std::vector<std::string> env,
                   const int* fds, int client) {
  static const int saved[3] = {::dup(0), ::dup(1), ::dup(2)};
  for (int i = 0; i < 3; ++i) ::dup2(fds[i], i);
  int code;
  if (::chdir(cwd.c_str()) != 0) {
    std::fprintf(stderr, "onnxify: error: the export server cannot enter '%s': %s\n", cwd.c_str(), std::strerror(errno));
    code = kBadInput;
  } else {
    std::vector<char*> ptrs;
    for (std::string& e : env) ptrs.push_back(e.data());
    ptrs.push_back(nullptr);
    char** own = environ;
    environ = ptrs.data();
    g_cancel_fd = client;
    code = run_command_line(args);
    release_held_now();  // what an export in this process replaced: the server goes on
    g_cancel_fd = -1;
    environ = own;
  }
  std::cout.flush();  // CLI11's --help
  std::fflush(stdout);
  std::fflush(stderr);
  for (int i = 0; i < 3; ++i) ::dup2(saved[i], i);
  if (::chdir("/") != 0) {
  }
  return code;
}

bool peer_is_us(int fd) {
  ucred c{};
  socklen_t len = sizeof c;
  return ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) == 0 && c.uid == ::getuid();
}

long idle_seconds() {
  const char* v = std::getenv("ONNXIFY_SERVER_IDLE");
  long s = v && *v ? std::strtol(v, nullptr, 10) : 0;
  return s > 0 ? s : 900;
}

// A request that only asks something of the server (status, stop): its answer.
std::optional<std::string> ask(const std::string& what) {
  std::string why;
  std::string path = socket_path(&why);
  if (path.empty()) return std::nullopt;
  int fd = connect_to(path);
  if (fd < 0) return std::nullopt;
  Message reply;
  bool ok = send_message(fd, {what}, nullptr) && recv_message(fd, &reply, nullptr);
  ::close(fd);
  std::string code, text;
  if (!ok || !reply.next(&code) || !reply.next(&text)) return std::nullopt;
  return text;
}

}  // namespace

void add_server_flag(CLI::App& sub, bool& server) {
  sub.add_flag("--server", server,
               "run in the export server (started if none runs; also ONNXIFY_SERVER=1), which keeps the modules "
               "exports import between commands; see onnxify server --help");
}

bool want_server(bool flag) {
  const char* env = std::getenv("ONNXIFY_SERVER");
  return (flag || (env && std::string(env) == "1")) && !g_kept_modules;
}

int run_command_line(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  return dispatch(static_cast<int>(copy.size()), argv.data());
}

std::optional<int> run_in_server(const std::string& drop) {
  std::string why;
  std::string path = socket_path(&why);
  if (path.empty()) {
    std::fprintf(stderr, "onnxify: note: not using the export server: %s\n", why.c_str());
    return std::nullopt;
  }
  // A server gone mid-request is an error below, not this process's end (restored for exporting here).
  struct sigaction ignore {}, before {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &before);
  auto here = [&before] {
    ::sigaction(SIGPIPE, &before, nullptr);
    return std::nullopt;
  };
  int fd = connect_or_start(path, true);
  if (fd < 0) {
    std::fprintf(stderr, "onnxify: note: the export server did not start; exporting in this process\n");
    return here();
  }
  std::vector<std::string> items = {"run", std::to_string(g_argv.size())};
  bool dropped = false;
  for (const std::string& a : g_argv) {
    if (!dropped && a == drop) {
      dropped = true;
      items[1] = std::to_string(g_argv.size() - 1);
      continue;
    }
    items.push_back(a);
  }
  char cwd[PATH_MAX];
  items.push_back(::getcwd(cwd, sizeof cwd) ? cwd : "/");
  for (char** e = environ; *e; ++e) items.push_back(*e);
  const int fds[3] = {0, 1, 2};
  if (!send_message(fd, items, fds)) {
    ::close(fd);
    std::fprintf(stderr, "onnxify: note: the export server did not take the command; exporting in this process\n");
    return here();
  }
  Message reply;
  std::string code;
  bool ok = recv_message(fd, &reply, nullptr) && reply.next(&code);
  ::close(fd);
  if (!ok) {
    std::fputs("onnxify: error: the export server stopped before answering\n"
               "help: run the command without --server to export in this process\n",
               stderr);
    return kConvertFailed;
  }
  return std::atoi(code.c_str());
}

int serve() {
  std::string why;
  std::string path = socket_path(&why);
  if (path.empty()) {
    std::fprintf(stderr, "onnxify: error: %s\n", why.c_str());
    return kBadInput;
  }
  // One server per socket: the one holding the lock owns the path (a stale socket left by a
  // server that died is removed by the next).
  // A server that was just told to stop holds the lock until its process is gone (its kept
  // modules take a moment to let go): one started right after waits for it.
  int lock = ::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock < 0 || !lock_within(lock, std::chrono::seconds(10))) return kOk;
  ::unlink(path.c_str());
  int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a = address(path);
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener, 16) != 0) {
    std::fprintf(stderr, "onnxify: error: the export server cannot listen on '%s': %s\n", path.c_str(),
                 std::strerror(errno));
    return kConvertFailed;
  }
  ::signal(SIGPIPE, SIG_IGN);  // a client gone mid-answer is not the server's end
  if (::chdir("/") != 0) {
  }
  torch::KeptModules kept;
  g_kept_modules = &kept;
  auto started = std::chrono::steady_clock::now();
  const long idle = idle_seconds();
  bool stop = false;
  while (!stop) {
    pollfd p{listener, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<long>(idle, INT_MAX / 1000) * 1000));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;  // idle for long enough
    int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    timeval timeout{30, 0};  // a client that connects and says nothing does not hold the server
    ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    Message m;
    int fds[3];
    std::string kind;
    if (peer_is_us(client) && recv_message(client, &m, fds) && m.next(&kind)) {
      std::string answer_code = "0", answer;
      if (kind == "run") {
        std::string count, cwd, item;
        std::vector<std::string> args, env;
        bool ok = m.next(&count) && fds[2] >= 0;
        long n = ok ? std::strtol(count.c_str(), nullptr, 10) : 0;
        for (long i = 0; ok && i < n; ++i) ok = m.next(&item), args.push_back(item);
        ok = ok && !args.empty() && m.next(&cwd);
        while (ok && m.next(&item)) env.push_back(item);
        if (ok) {
          ++g_server_counts.commands;
          answer_code = std::to_string(run_for_client(args, cwd, std::move(env), fds, client));
        } else {
          answer_code = std::to_string(kBadInput);
        }
      } else if (kind == "status") {
        long up = static_cast<long>(
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count());
        answer = fmt::format("onnxify export server: pid {}, socket {}, up {} s, {} commands run, {} exports from kept "
                             "modules, last export's process peak RSS {} MiB, leaves after {} s idle\n",
                             ::getpid(), path, up, g_server_counts.commands, g_server_counts.reused,
                             kept.last_child_peak_kib() / 1024, idle);
      } else if (kind == "stop") {
        answer = fmt::format("onnxify export server (pid {}) stopped\n", ::getpid());
        stop = true;
      }
      send_message(client, {answer_code, answer}, nullptr);
    }
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
    ::close(client);
  }
  ::unlink(path.c_str());
  ::close(listener);
  g_kept_modules = nullptr;
  return kOk;
}

int server_start() {
  std::string why;
  std::string path = socket_path(&why);
  if (path.empty()) return report(Diagnostic::error(why), kBadInput);
  int fd = connect_or_start(path, true);
  if (fd < 0) return report(Diagnostic::error("the export server did not start"), kConvertFailed);
  ::close(fd);
  if (auto s = ask("status")) std::fputs(s->c_str(), stdout);
  return kOk;
}

int server_stop() {
  auto s = ask("stop");
  if (s) {
    // Answered before it leaves: wait until it is gone, so that what runs next starts a new one.
    std::string why;
    int lock = ::open((socket_path(&why) + ".lock").c_str(), O_RDWR | O_CLOEXEC);
    if (lock >= 0) {
      lock_within(lock, std::chrono::seconds(10));
      ::close(lock);
    }
  }
  std::fputs(s ? s->c_str() : "onnxify export server: not running\n", stdout);
  return kOk;
}

int server_status() {
  auto s = ask("status");
  std::fputs(s ? s->c_str() : "onnxify export server: not running\n", stdout);
  return s ? kOk : kConvertFailed;
}

}  // namespace onnxify::cli
