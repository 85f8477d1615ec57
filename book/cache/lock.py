"""The build lock: one build at a time writes build_outputs/ (and undoes what a killed one left)."""
import fcntl
from contextlib import contextmanager

from ..errors import BookError
from ..paths import Book
from .entries import recover


@contextmanager
def build_lock(book: Book, wait: bool = False, log=print):
    book.outputs.mkdir(parents=True, exist_ok=True)
    fh = open(book.outputs / ".lock", "w")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if not wait:
            fh.close()
            raise BookError("另一个构建正在写 build_outputs/（锁文件 build_outputs/.lock）；"
                            "等它结束再运行，或加 --wait") from None
        log("另一个构建正在写 build_outputs/，等它结束……")
        fcntl.flock(fh, fcntl.LOCK_EX)
    try:
        recover(book)
        yield
    finally:
        fcntl.flock(fh, fcntl.LOCK_UN)
        fh.close()
