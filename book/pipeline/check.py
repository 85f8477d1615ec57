"""`make check`: without running anything, every committed entry is whole (its bytes against
hashes.json), fresh (its key against the inputs as they are now) and keeps its contract."""
import json

from .. import hardware
from ..cache import entries, keys
from ..checking import contract
from ..experiments.manifest import discover
from ..paths import Book


def check(book: Book, log=print) -> list[str]:
    """Without running anything: every committed entry is whole, fresh and keeps its contract.

    Every problem of every entry is reported, each naming the experiment and the file.
    """
    problems = []
    here = hardware.cpu()
    for e in discover(book):
        d = entries.entry_dir(book, e.id)
        where = f"实验 {e.id}" + (f"（页面 {e.page}）" if e.page else "")
        lack = hardware.missing(e.requires)
        if not d.is_dir():
            if lack:
                log(f"注意：实验 {e.id} 需要 {'、'.join(lack)}，本机没有，不算失败：还没有在有它的机器上跑过")
            else:
                problems.append(f"{where}：没有缓存 build_outputs/{e.id}；运行 make site 生成")
            continue
        damage = entries.verify_entry(d)
        if damage:
            problems += [f"{where}：build_outputs/{e.id} 损坏：{x}" for x in damage]
            continue
        outcome = json.loads((d / "outcome.json").read_text("utf-8"))
        reason = keys.stale_reason(e, book, verify=False)  # verified just above
        if reason and lack:
            log(f"注意：实验 {e.id} 需要 {'、'.join(lack)}，本机没有，不算失败：缓存{reason}")
            problems += contract.recheck(e, outcome)
            continue
        if reason:
            problems.append(f"{where}：build_outputs/{e.id} 过期（{reason}）；运行 make site 重新生成")
            continue
        made_on = hardware.cpu_class(json.loads((d / "provenance.json").read_text("utf-8")).get("cpu", {}))
        if e.cpu and made_on and made_on != hardware.cpu_class(here):
            # Not stale: on this machine a rerun would give other last bits in e.cpu, by design.
            log(f"注意：实验 {e.id} 的输出是在 {made_on} 的 CPU 上生成的，本机是 {hardware.cpu_class(here)}；"
                f"它声明随 CPU 变化的字段（{', '.join(e.cpu)}）在这里重跑会有不同的末位，缓存照用")
        problems += contract.check(e, outcome)
    return problems
