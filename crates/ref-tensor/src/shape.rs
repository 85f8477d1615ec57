//! 形状: the rows of experiments/reference/ref-1-tensor/shape.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn parts<const D: usize>(ts: Vec<Tensor<D>>) -> Value {
    json!({"v": ts.iter().map(fv).collect::<Vec<_>>(),
           "shape": ts.iter().map(|t| t.dims().to_vec()).collect::<Vec<_>>()})
}

// Runs f with the panic message silenced: Err when it panicked.
fn catch<T>(f: impl FnOnce() -> T + ::std::panic::UnwindSafe) -> ::std::thread::Result<T> {
    let hook = ::std::panic::take_hook();
    ::std::panic::set_hook(Box::new(|_| {}));
    let got = ::std::panic::catch_unwind(f);
    ::std::panic::set_hook(hook);
    got
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("reshape", out(reshape::run(data([3, 4], &d))));
    row("reshape_infer", out(reshape_infer::run(data([3, 4], &d))));
    row("view", out(view::run(data([3, 4], &d))));
    row("permute", out(permute::run(data([2, 3, 4], &d))));
    row("t_2d", out(t_2d::run(data([2, 3], &d))));
    row("transpose_01", out(transpose_01::run(data([2, 3, 4], &d))));
    row("size", json!({"v": size::run(data([2, 3, 4], &d))}));
    row("ndim", json!({"v": ndim::run(data([2, 3, 4], &d))}));
    row("size_dim", json!({"v": size_dim::run(data([2, 3, 4], &d))}));
    row("contiguous", out(contiguous::run(data([2, 3, 4], &d))));
    row("mt_3d", out(mt_3d::run(data([2, 3, 4], &d))));
    row("squeeze", out(squeeze::run(data([1, 3, 1, 4], &d))));
    row("squeeze_dim", out(squeeze_dim::run(data([1, 3, 4], &d))));
    row("unsqueeze", out(unsqueeze::run(data([3, 4], &d))));
    row("unsqueeze_neg", out(unsqueeze_neg::run(data([3, 4], &d))));
    row("expand", out(expand::run(data([3, 1], &d))));
    row("repeat", out(repeat::run(data([2, 2], &d))));
    row("repeat_dim", out(repeat_dim::run(data([2, 2], &d))));
    row("repeat_interleave", out(repeat_interleave::run(data([2, 2], &d))));
    row("cat", out(cat::run(data([2, 3], &d), data([2, 3], &d) * 2.0)));
    row("stack", out(stack::run(data([2, 3], &d), data([2, 3], &d) * 2.0)));
    row("split", parts(split::run(data([2, 5], &d))));
    row("split_sizes", parts(split_sizes::run(data([2, 5], &d))));
    row("chunk", parts(chunk::run(data([2, 7], &d))));
    // 6 into 4 chunks: burn's chunk narrows past the end and panics; catch it to say so.
    let got = catch(|| chunk_uneven::run(data([2, 6], &Device::flex())).len());
    row("chunk_uneven", json!({"panics": got.is_err(), "n_chunks": got.unwrap_or(0)}));
    row("chunk_uneven_fix", parts(chunk_uneven_fix::run(data([2, 6], &d), 4, 1)));
    row("flatten", out(flatten::run(data([2, 3, 4], &d))));
    row("flatten_from", out(flatten_from::run(data([2, 3, 4], &d))));
    row("narrow", out(narrow::run(data([3, 5], &d))));
    row("slice_range", out(slice_range::run(data([3, 5], &d))));
    row("slice_neg", out(slice_neg::run(data([3, 5], &d))));
    row("slice_step", out(slice_step::run(data([3, 5], &d))));
    row("flip", out(flip::run(data([3, 4], &d))));
    row("roll", out(roll::run(data([3, 4], &d))));
}

mod reshape {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.reshape([2, 6])
    }
}

mod reshape_infer {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.reshape([-1, 6])
    }
}

mod view {
    use burn::prelude::*;

    // 没有 view：用 reshape
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.reshape([2, 6])
    }
}

mod permute {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.permute([2, 0, 1])
    }
}

mod t_2d {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.t()
    }
}

mod transpose_01 {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.swap_dims(0, 1)
    }
}

mod size {
    use burn::prelude::*;

    // x.size() 和 x.shape 是 dims()：一个 [usize; D]
    pub fn run(x: Tensor<3>) -> [usize; 3] {
        x.dims()
    }
}

mod ndim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> usize {
        x.rank()
    }
}

mod size_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> usize {
        x.dims()[1]
    }
}

mod contiguous {
    use burn::prelude::*;

    // 没有 contiguous()，也不需要：后面的 reshape 自己处理步长
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.swap_dims(0, 1)
    }
}

mod mt_3d {
    use burn::prelude::*;

    // burn 的 transpose 交换最后两维
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.transpose()
    }
}

mod squeeze {
    use burn::prelude::*;

    // 去掉所有长度为 1 的维；结果的秩写在类型参数里
    pub fn run(x: Tensor<4>) -> Tensor<2> {
        x.squeeze::<2>()
    }
}

mod squeeze_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<2> {
        x.squeeze_dim::<2>(0)
    }
}

mod unsqueeze {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<3> {
        x.unsqueeze_dim::<3>(1)
    }
}

mod unsqueeze_neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<3> {
        x.unsqueeze_dim::<3>(-1)
    }
}

mod expand {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.expand([3, 4])
    }
}

mod repeat {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.repeat(&[2, 3])
    }
}

mod repeat_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.repeat_dim(0, 3)
    }
}

mod repeat_interleave {
    use burn::prelude::*;

    // 没有 repeat_interleave：在第 0 维后插一维，沿它重复，再并回去
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let [rows, cols] = x.dims();
        x.unsqueeze_dim::<3>(1).repeat_dim(1, 2).reshape([rows * 2, cols])
    }
}

mod cat {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        Tensor::cat(vec![a, b], 1)
    }
}

mod stack {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<3> {
        Tensor::stack::<3>(vec![a, b], 0)
    }
}

mod split {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.split(2, 1)
    }
}

mod split_sizes {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.split_with_sizes(vec![1, 4], 1)
    }
}

mod chunk {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.chunk(3, 1)
    }
}

mod chunk_uneven {
    use burn::prelude::*;

    // 6 列分 4 块：burn 0.22.1 在这里 panic
    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.chunk(4, 1)
    }
}

mod chunk_uneven_fix {
    use burn::prelude::*;

    // PyTorch 的 chunk：块宽 = ceil(长度 / 块数)，最后一块可以短，块数可以少于要求
    pub fn run(x: Tensor<2>, chunks: usize, dim: usize) -> Vec<Tensor<2>> {
        let width = x.dims()[dim].div_ceil(chunks);
        x.split(width, dim)
    }
}

mod flatten {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<1> {
        x.flatten::<1>(0, 2)
    }
}

mod flatten_from {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<2> {
        x.flatten::<2>(1, 2)
    }
}

mod narrow {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.narrow(1, 1, 2)
    }
}

mod slice_range {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.slice(s![.., 1..3])
    }
}

mod slice_neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.slice(s![.., -2..])
    }
}

mod slice_step {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.slice(s![.., ..;2])
    }
}

mod flip {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.flip([0])
    }
}

mod roll {
    use burn::prelude::*;

    // roll_dim(位移, 维)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.roll_dim(1, 1)
    }
}
