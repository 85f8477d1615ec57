"""`python -m book.commands.downloads SITE_DIR` (make site ENGINE=zensical): every
experiment's download package into SITE_DIR/downloads/."""
import shutil
import sys
from pathlib import Path

from ..errors import BookError
from ..paths import Book
from ..site import scan_site
from ..site.downloads.package import DIR, all_archives


def main(argv=None) -> int:
    """Write SITE_DIR/downloads/ (an engine without mkdocs_hooks.on_files, such as Zensical,
    runs this after its build)."""
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("用法：python -m book.commands.downloads SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    try:
        archives = all_archives(Book())
        # The script scanner's rules (an engine without mkdocs_hooks.on_files, like downloads).
        rules = scan_site.files(Book())
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 1
    out = site / DIR
    if out.is_dir():
        shutil.rmtree(out)
    for path, data in archives.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    for path, data in rules.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(data)
    print(f"下载包：{len(archives)} 个，写到 {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
