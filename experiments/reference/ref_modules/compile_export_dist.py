"""编译、导出与分布式：ref-8-modules/compile_export_dist.yaml 的行，每行一个函数。"""
from harness import *  # noqa: F401,F403


def ddp_worker(rank, path, queue):
    import torch.distributed as dist
    dist.init_process_group("gloo", init_method=f"file://{path}", rank=rank, world_size=2)
    m = small_linear()
    ddp = nn.parallel.DistributedDataParallel(m)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    x, t = regression()
    for _ in range(2):
        opt.zero_grad()
        # Each process gets its half of the batch.
        F.mse_loss(ddp(x[2 * rank:2 * rank + 2]), t[2 * rank:2 * rank + 2]).backward()
        opt.step()
    if rank == 0:
        queue.put({"w": flat(m.weight), "b": flat(m.bias)})
    dist.barrier()  # both processes are done before either closes its connections
    dist.destroy_process_group()


@row
def ddp():
    import torch.multiprocessing as mp
    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
    queue = mp.get_context("spawn").SimpleQueue()
    with tempfile.TemporaryDirectory() as d:
        mp.start_processes(ddp_worker, args=(os.path.join(d, "store"), queue), nprocs=2,
                           start_method="spawn")
    return queue.get()


def mlp():
    m = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 3))
    setp(m[0].weight, 10.0)
    setp(m[0].bias, 20.0)
    setp(m[2].weight, 30.0)
    setp(m[2].bias, 40.0)
    return m.eval()


@row
def torch_compile():
    m = torch.compile(mlp())
    with torch.no_grad():
        y = m(data(2, 4) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def jit_script():
    m = torch.jit.script(mlp())
    with torch.no_grad():
        y = m(data(2, 4) * 2)
    return {"y": flat(y), "shape": list(y.shape)}


@row
def onnx_export():
    from onnx.reference import ReferenceEvaluator
    x = data(2, 4) * 2
    with contextlib.redirect_stdout(io.StringIO()):  # the exporter prints its progress
        program = torch.onnx.export(mlp(), (x,), dynamo=True, verbose=False)
    ref = ReferenceEvaluator(program.model_proto)
    (y,) = ref.run(None, {ref.input_names[0]: x.numpy()})
    return {"y": [float(v) for v in y.flatten()], "shape": list(y.shape)}
