"""What an interrupted build leaves behind: nothing.

- SIGINT or SIGTERM: every child is killed (sides.kill_all), no entry is written for a run that
  was cut short, the scratch folder is removed, and the runner exits 130.
- SIGKILL of the runner's process group: the children die with it (they stay in its group),
  and a small watcher process in a session of its own removes the scratch folder as soon as
  the runner's end of a pipe closes. Entries are swapped in by rename (cache.entries.write_entry), and
  the next build's cache.recover() undoes a swap that was cut in the middle.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from . import sides

# The watcher: blocks until every write end of the pipe is closed, i.e. the runner is gone.
WATCHER = ("import os, shutil, sys\n"
           "fd = int(sys.argv[1])\n"
           "while os.read(fd, 1):\n"
           "    pass\n"
           "shutil.rmtree(sys.argv[2], ignore_errors=True)\n")


def _on_signal(signum, frame):
    sides.ABORTED.set()
    sides.kill_all()
    raise KeyboardInterrupt(signal.Signals(signum).name)


@contextmanager
def guard():
    """Scratch folder for this build's runs, removed however the build ends."""
    root = Path(tempfile.mkdtemp(prefix=f"book-run-{os.getpid()}-"))
    r, w = os.pipe()
    watcher = subprocess.Popen([sys.executable, "-I", "-c", WATCHER, str(r), str(root)],
                               pass_fds=(r,), start_new_session=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    os.close(r)
    main = threading.current_thread() is threading.main_thread()
    old = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
    sides.ABORTED.clear()
    try:
        yield root
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        shutil.rmtree(root, ignore_errors=True)
        os.close(w)  # the watcher sees EOF, finds nothing left, and exits
        watcher.wait()
