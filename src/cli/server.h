// The export server (`onnxify export --server`, `inspect --server`, `onnxify server start|stop|status`): a process that
// keeps the modules exports import (torch::KeptModules, DESIGN.md decision 19) between commands, so
// a shell loop or a build system exporting one model after another evaluates `import transformers`
// once. Opt-in: without --server (or ONNXIFY_SERVER=1) every command is one process, as before.
//
// One server per user and onnxify build, on a Unix socket in a folder only the user can use
// ($ONNXIFY_SERVER_DIR, else $XDG_RUNTIME_DIR/onnxify, else /tmp/onnxify-UID). The client sends its
// command line, working directory and environment, and passes its stdin, stdout and stderr; the
// server runs the command exactly as `onnxify` would in that directory and environment, writing to
// the client's terminal (the progress line, diagnostics, what the model prints), and answers with
// the exit status. The server leaves after ONNXIFY_SERVER_IDLE seconds without a request (default
// 900). Anything that keeps the server from answering (no folder, a socket path too long, a server
// that cannot start) makes the client run the command itself.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace onnxify::torch {
class KeptModules;
}

namespace onnxify::cli {

// The command line main() was given (the client sends it to the server as it is).
extern std::vector<std::string> g_argv;
// Set in the server: export starts from these modules.
extern torch::KeptModules* g_kept_modules;
// In the server while it runs a client's command: the client's connection (readable once the client
// is gone: its export is stopped).
extern int g_cancel_fd;
struct ServerCounts {
  long commands = 0;  // commands run for clients
  long reused = 0;    // exports that started from kept modules
};
extern ServerCounts g_server_counts;

// --server on export and inspect; want_server: the flag or ONNXIFY_SERVER=1, outside the server.
void add_server_flag(CLI::App& sub, bool& server);
bool want_server(bool flag);

// Runs main()'s dispatch on `args` (args[0] the program name); the exit status.
int run_command_line(const std::vector<std::string>& args);

// The client: g_argv without `drop` (the --server flag) run by the server (started if none runs);
// its exit status, or nullopt when no server can answer (the caller runs the command itself).
std::optional<int> run_in_server(const std::string& drop);

// `onnxify server serve`: the server's loop; returns when idle or stopped.
int serve();
// `onnxify server start|stop|status`.
int server_start();
int server_stop();
int server_status();

}  // namespace onnxify::cli
