"""Stage 4, the site: each experiment as a download package that builds and runs outside the
repository, and its full view on the pages. May import the stages below (experiments, cache,
pages' text helpers); runs nothing but cargo's offline resolver to cut a crate's lock.

manifest (standalone Cargo.toml) → lock (its Cargo.lock) → readme (requirements.txt, run.sh,
README) → package (members and the .tar.gz) → view (the collapsed block on a page)."""
from ...errors import BookError

# What one build worked out (archives, standalone manifests, the program index), by key.
MEMO: dict = {}


def fail(exp_id: str, msg: str):
    raise BookError(f"实验 {exp_id} 的下载包：{msg}")
