"""One question to a fresh pbrain engine process: the scripts' shared way of asking an engine
for a move (or any other reply) outside a match."""
import subprocess
import threading
import time
from typing import NamedTuple, Optional

# Some engines (Rapfi) lose input written within milliseconds of their own reply.
SETTLE_S = 0.03


class Reply(NamedTuple):
    line: Optional[str]  # the wanted line, None if it never came
    elapsed: float  # seconds from the start of the process to that line
    messages: list  # the MESSAGE lines before it
    other: list  # the lines before it that were neither MESSAGE nor OK


def is_move(line):
    parts = line.split(",")
    return len(parts) == 2 and all(p.isdigit() for p in parts)


def ask(engine, commands, wanted, timeout_s, cwd=None, env=None):
    """Starts `engine` (in `cwd` with `env`), sends `commands` and reads up to the first line
    for which `wanted` holds, then sends END. A first command that is START waits for its OK
    before the rest are written, and every write after a reply waits SETTLE_S. An ERROR or
    UNKNOWN line ends the exchange; an engine still running after `timeout_s` is killed."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [engine], cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, bufsize=1,
    )
    timer = threading.Timer(timeout_s, proc.kill)
    timer.start()
    line, messages, other = None, [], []
    elapsed = None

    def send(lines):
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()

    def read(until):
        for text in proc.stdout:
            text = text.strip()
            if not text:
                continue
            if text.startswith("MESSAGE"):
                messages.append(text)
                continue
            if until(text):
                return text
            if text != "OK":
                other.append(text)
            if text.startswith(("ERROR", "UNKNOWN")):
                return None
        return None

    try:
        rest = commands
        if commands and commands[0].startswith("START"):
            send(commands[:1])
            rest = commands[1:]
            if read(lambda text: text == "OK") is None:
                rest = None
            else:
                time.sleep(SETTLE_S)
        if rest is not None:
            send(rest)
            line = read(wanted)
        elapsed = time.monotonic() - started
        time.sleep(SETTLE_S)
        send(["END"])
    except (BrokenPipeError, OSError):
        pass
    finally:
        if elapsed is None:
            elapsed = time.monotonic() - started
        timer.cancel()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return Reply(line, elapsed, messages, other)
