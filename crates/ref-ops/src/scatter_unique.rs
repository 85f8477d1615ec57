//! 散布与去重: the rows of experiments/reference/ref-7-ops/scatter_unique.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const SC_IDX: [i64; 8] = [0, 1, 0, 2, 2, 2, 1, 0];

const TOKENS: [i64; 11] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let idx = || ints(SC_IDX.to_vec(), [2, 4], &d);
    row("scatter_reduce_sum", out(scatter_reduce_sum::run(data([2, 3], &d), idx(), coef([2, 4], &d))));
    row("scatter_reduce_amax", out(scatter_reduce_amax::run(data([2, 3], &d), idx(), coef([2, 4], &d))));
    row("scatter_reduce_mean", out(scatter_reduce_mean::run(data([2, 3], &d), idx(), coef([2, 4], &d))));
    let tokens = || ints(TOKENS.to_vec(), [11], &d);
    row("unique", outi(unique::run(tokens())));
    let (u, c) = unique_counts::run(tokens());
    row("unique_counts", json!({"y": iv(&u), "shape": u.dims().to_vec(), "counts": iv(&c)}));
}

mod scatter_reduce_sum {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    // include_self=True：x 原来的值也算进去
    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Add)
    }
}

mod scatter_reduce_amax {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Max)
    }
}

mod scatter_reduce_mean {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    // include_self=True：(x + 落到这里的 src 之和) / (1 + 落到这里的个数)
    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        let count = x.ones_like().scatter(1, idx.clone(), src.ones_like(), IndexingUpdateOp::Add);
        x.scatter(1, idx, src, IndexingUpdateOp::Add) / count
    }
}

mod unique {
    use burn::prelude::*;

    // 排序后，留下和前一个不同的元素（sorted=True 的结果）
    pub fn run(x: Tensor<1, Int>) -> Tensor<1, Int> {
        let n = x.dims()[0];
        let sorted = x.sort(0);
        let first = Tensor::<1, Bool>::from_data([true], &sorted.device());
        let changed = sorted.clone().narrow(0, 1, n - 1).not_equal(sorted.clone().narrow(0, 0, n - 1));
        sorted.mask_select(Tensor::cat(vec![first, changed], 0))
    }
}

mod unique_counts {
    use burn::prelude::*;

    // 返回 (不同的值, 各自的个数)：个数 = 相邻两段起点之差
    pub fn run(x: Tensor<1, Int>) -> (Tensor<1, Int>, Tensor<1, Int>) {
        let n = x.dims()[0];
        let d = x.device();
        let sorted = x.sort(0);
        let first = Tensor::<1, Bool>::from_data([true], &d);
        let changed = sorted.clone().narrow(0, 1, n - 1).not_equal(sorted.clone().narrow(0, 0, n - 1));
        let keep = Tensor::cat(vec![first, changed], 0);
        let starts = Tensor::<1, Int>::arange(0..n as i64, &d).mask_select(keep.clone());
        let m = starts.dims()[0];
        let end = Tensor::<1, Int>::from_data([n as i64], &d);
        let ends = Tensor::cat(vec![starts.clone().narrow(0, 1, m - 1), end], 0);
        (sorted.mask_select(keep), ends - starts)
    }
}
