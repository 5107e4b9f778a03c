"""The export server (`onnxify export --server`, src/cli/server.h) for benches: a private one per
measurement, and what it used."""
import contextlib
import os
import re
import shutil
import subprocess
import tempfile


@contextlib.contextmanager
def private_server(onnxify, env):
    """An environment whose --server commands use a server of their own (started by the first),
    stopped and removed at the end."""
    folder = tempfile.mkdtemp(prefix="onnxify-srv-")
    env = dict(env, ONNXIFY_SERVER_DIR=folder, ONNXIFY_SERVER_IDLE="600")
    try:
        yield env
    finally:
        subprocess.run([onnxify, "server", "stop"], env=env, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def usage(onnxify, env):
    """(CPU seconds of the server and of the export processes it waited for, the larger of its peak
    RSS and its last export process's in MiB), or None when no server runs. CPU is cumulative:
    subtract the value before a command."""
    p = subprocess.run([onnxify, "server", "status"], env=env, capture_output=True, text=True)
    m = re.search(r"pid (\d+),.*last export's process peak RSS (\d+) MiB", p.stdout)
    if not m:
        return None
    pid, child_mib = int(m.group(1)), int(m.group(2))
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    cpu = sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime, stime, cutime, cstime
    hwm = [int(line.split()[1]) for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM:")][0] / 1024
    return cpu, max(hwm, child_mib)
