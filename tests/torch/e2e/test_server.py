"""`onnxify export --server` (src/cli/server.h): the export server runs the client's command line
in the client's folder and environment, writing to the client's terminal, from modules it keeps
between commands. Oracle: the same command without --server — the same file byte for byte, the same
stdout, stderr and exit status — for fresh, repeated, edited, failing and interrupted exports."""
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import ONNXIFY

HELPER = "SCALE = 2.0\n"
MODEL = """\
import torch
from torch import nn

import helper

STATE = []


class M(nn.Module):
    def __init__(self, spin=0):
        super().__init__()
        STATE.append(1)  # a module global: the server must not carry it into the next export
        total = 0
        for i in range(spin):
            total += i
        print("building M", len(STATE))
        self.lin = nn.Linear(3, 4)
        self.k = helper.SCALE * len(STATE)

    def forward(self, x):
        return self.lin(x) * self.k


class Broken(nn.Module):
    def forward(self, x):
        return x.no_such_method()
"""


@pytest.fixture
def project(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "helper.py").write_text(HELPER)
    (work / "model.py").write_text(MODEL)
    server_dir = tmp_path / "srv"
    env = dict(os.environ, ONNXIFY_SERVER_DIR=str(server_dir), ONNXIFY_SERVER_IDLE="120")
    env.pop("ONNXIFY_SERVER", None)
    yield work, env
    subprocess.run([ONNXIFY, "server", "stop"], env=env, capture_output=True, timeout=60)


def cli(work, env, *args, server=False):
    cmd = [ONNXIFY, "export", "model.py", *args] + (["--server"] if server else [])
    p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def export(work, env, out, model="M()", server=False):
    code, stdout, stderr = cli(work, env, "--model", model, "--input", "x=float32[N,3]", "-o", out, server=server)
    return code, stdout, stderr, sha(work / out) if code == 0 else None


def status(env):
    p = subprocess.run([ONNXIFY, "server", "status"], env=env, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout


def test_same_file_output_and_status_as_one_process(project):
    work, env = project
    plain = export(work, env, "out.onnx")
    assert plain[0] == 0 and "building M 1" in plain[1], plain
    served = [export(work, env, "out.onnx", server=True) for i in range(3)]
    assert served == [plain] * 3  # exit status, stdout, stderr (the warnings), the file's bytes
    code, text = status(env)
    assert code == 0 and "3 commands run, 2 exports from kept modules" in text, text

    # An edited import: imported again, the file is the fresh export's.
    (work / "helper.py").write_text("SCALE = 3.0\n")
    edited_plain, edited = export(work, env, "out.onnx"), export(work, env, "out.onnx", server=True)
    assert edited == edited_plain and edited[3] != plain[3]
    code, text = status(env)
    assert "4 commands run, 2 exports from kept modules" in text, text


def test_failures_and_bad_command_lines_as_one_process(project):
    work, env = project
    for args in (["--model", "Broken()", "--input", "x=float32[N,3]"],  # fails in forward: status 1
                 ["--model", "Nope()", "--input", "x=float32[N,3]"],    # unknown name: status 2
                 ["--input", "x=float32[N,3]"],                          # no --model: status 2
                 ["--model", "M()", "--input", "y=float32[N,3]"]):       # no such parameter: status 2
        plain = cli(work, env, *args, "-o", "f.onnx")
        assert plain[0] in (1, 2) and plain[2], plain
        assert cli(work, env, *args, "-o", "f.onnx", server=True) == plain
    assert not (work / "f.onnx").exists()


def test_interrupted_client_stops_its_export_and_the_server_goes_on(project):
    work, env = project
    assert export(work, env, "warm.onnx", server=True)[0] == 0
    # A model that takes seconds to build (about 3 s); the client is killed while it builds.
    p = subprocess.Popen([ONNXIFY, "export", "model.py", "--model", "M(spin=60_000_000)", "--input",
                          "x=float32[N,3]", "-o", "slow.onnx", "--server"], cwd=work, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)
    assert p.poll() is None, p.communicate()
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    after = export(work, env, "after.onnx", server=True)
    assert after[0] == 0 and after[3] == export(work, env, "after_plain.onnx")[3]
    time.sleep(0.5)
    assert not (work / "slow.onnx").exists()  # its child was stopped before writing


def test_stop(project):
    work, env = project
    assert status(env)[0] != 0  # none running yet
    assert export(work, env, "a.onnx", server=True)[0] == 0
    assert status(env)[0] == 0
    p = subprocess.run([ONNXIFY, "server", "stop"], env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "stopped" in p.stdout
    assert status(env)[0] != 0  # stop returns when the server is gone
    # The next command starts a new server at once (it used to find the old one's lock still
    # held, give up after 10 s and export by itself).
    code, _, stderr, _ = export(work, env, "b.onnx", server=True)
    assert code == 0 and "did not start" not in stderr, stderr
    assert "1 commands run" in status(env)[1]


def test_inspect_through_the_server_as_one_process(project):
    work, env = project

    def inspect(*args):
        p = subprocess.run([ONNXIFY, "inspect", "model.py", *args], cwd=work, env=env, capture_output=True,
                           text=True, timeout=600)
        return p.returncode, p.stdout, p.stderr

    for model in ("M()", "M(width=7)", "Nope()"):
        plain = inspect("--model", model)
        assert inspect("--model", model, "--server") == plain, model
    assert "Linear" in inspect("--model", "M()")[1]
    code, text = status(env)
    assert "3 commands run" in text, text


BIG = """
import torch.nn as nn


class Big(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.lin = nn.Linear(1024, 2304)  # 9.4 MB of weights: the file replaced is large
        self.k = k

    def forward(self, x):
        return self.lin(x) * self.k
"""


def onnxify_processes(work):
    """onnxify processes (detached ones included) whose working directory is `work`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.readlink(f"/proc/{pid}/cwd") == str(work) and "onnxify" in open(f"/proc/{pid}/cmdline").read():
                found.append(pid)
        except OSError:
            pass
    return found


def test_large_output_replaced_in_place_of_the_old_one(project):
    """An export over a large existing file (whose last close the exiting process leaves to a
    detached process, support/exit_release.h): the new bytes, an old reader still sees the old
    ones, and nothing is left running afterwards. One process and through the server."""
    work, env = project
    (work / "big.py").write_text(BIG)

    def big(k, out, server=False):
        cmd = [ONNXIFY, "export", "big.py", "--model", f"Big({k})", "--input", "x=float32[N,1024]", "-o", out]
        p = subprocess.run(cmd + (["--server"] if server else []), cwd=work, env=env, capture_output=True,
                           timeout=600)
        assert p.returncode == 0, p.stderr
        return sha(work / out)

    for server in (False, True):
        first, second = big(2.0, f"ref2_{server}.onnx", server), big(3.0, f"ref3_{server}.onnx", server)
        assert first != second
        big(2.0, "same.onnx", server)
        with open(work / "same.onnx", "rb") as old_reader:
            assert big(3.0, "same.onnx", server) == second
            assert hashlib.sha256(old_reader.read()).hexdigest() == first
        assert big(2.0, "same.onnx", server) == first
    deadline = time.time() + 30
    while onnxify_processes(work) and time.time() < deadline:
        time.sleep(0.1)
    assert onnxify_processes(work) == []


PTH_MODEL = """
import torch.nn as nn
import scale_source


class S(nn.Module):
    def forward(self, x):
        return x * scale_source.K
"""


def test_python_environment_changes_are_seen_between_commands(project, tmp_path):
    """The server keeps the --python interpreter's sys.path between commands (src/cli/python_env.h):
    a .pth file added to its site-packages, or edited to name another folder, changes what the next
    command imports, as it would for a new process."""
    work, env = project
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = subprocess.run([str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    for k in ("2.0", "5.0"):
        (tmp_path / f"k{k[0]}").mkdir()
        (tmp_path / f"k{k[0]}" / "scale_source.py").write_text(f"K = {k}\n")
    (work / "pth_model.py").write_text(PTH_MODEL)

    def run(out):
        cmd = [ONNXIFY, "export", "pth_model.py", "--python", str(venv / "bin" / "python"), "--no-cache",
               "--model", "S()", "--input", "x=float32[N,3]", "-o", out, "--server"]
        p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600)
        plain = subprocess.run(cmd[:-1], cwd=work, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == plain.returncode, (p.stderr, plain.stderr)
        return p.returncode, (sha(work / out) if p.returncode == 0 else p.stderr)

    code, said = run("a.onnx")
    assert code != 0 and "scale_source" in said
    (Path(site) / "extra.pth").write_text(str(tmp_path / "k2") + "\n")
    code, two = run("b.onnx")
    assert code == 0
    (Path(site) / "extra.pth").write_text(str(tmp_path / "k5") + "\n")
    code, five = run("c.onnx")
    assert code == 0 and five != two
