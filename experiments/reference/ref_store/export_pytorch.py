"""导出给 PyTorch：ref-5-store/export_pytorch.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def fnv(raw: bytes) -> str:
    h = 0xcbf29ce484222325
    for byte in raw:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def payload_fnv(raw: bytes) -> str:
    """FNV of the tensor bytes after the header (the header's __metadata__ is in no fixed
    order in burn's files: see save_twice_bytes)."""
    return fnv(raw[8 + int.from_bytes(raw[:8], "little"):])


def expected_keys():
    """What load_state_dict(strict=True) wants, one "name dtype shape" line per tensor.
    torch's BatchNorm fills num_batches_tracked in itself when a file lacks it
    (_BatchNorm._load_from_state_dict), so an exported file need not carry it."""
    return [f"{k} F32 " + "x".join(map(str, v.shape)) for k, v in sorted(Small().state_dict().items())
            if not k.endswith("num_batches_tracked")]


@row
def export_keys():
    return {"tensors": expected_keys()}


@row
def export_forward():
    raw = (DATA / "small_export.safetensors").read_bytes()
    # region: export_load
    small = Small()
    result = small.load_state_dict(load_file(DATA / "small_export.safetensors"))  # strict=True
    small.eval()
    with torch.no_grad():
        y = small(data(2, 2, 3, 5) * 2)
    # endregion: export_load
    assert not result.missing_keys and not result.unexpected_keys, result
    return {"payload_fnv": payload_fnv(raw), "y": flat(y)}


@row
def export_no_adapter():
    return {"tensors": expected_keys()}


def saved_twenty_times(tmp: Path) -> bool:
    state = Small().state_dict()
    files = []
    for i in range(20):
        save_file(state, tmp / f"twice{i}.safetensors")
        files.append((tmp / f"twice{i}.safetensors").read_bytes())
    return len(set(files)) == 1


@row
def save_twice_bytes():
    return {"identical": saved_twenty_times(Path("."))}


@row
def save_twice_clear_metadata():
    return {"identical": saved_twenty_times(Path("."))}
