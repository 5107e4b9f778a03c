// onnxify server start|stop|status: the export server (server.h) that `onnxify export --server`
// uses, started by hand or by the first such export; `serve` is what a started server runs.
#include <memory>

#include "cli/commands.h"
#include "cli/server.h"

namespace onnxify::cli {

Action setup_server(CLI::App& sub) {
  auto what = std::make_shared<std::string>();
  sub.add_option("action", *what, "start, stop or status (serve: run the server in this process)")
      ->required()
      ->check(CLI::IsMember({"start", "stop", "status", "serve"}));
  return [what] {
    if (*what == "start") return server_start();
    if (*what == "stop") return server_stop();
    if (*what == "status") return server_status();
    return serve();
  };
}

}  // namespace onnxify::cli
