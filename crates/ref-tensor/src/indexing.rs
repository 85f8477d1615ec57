//! 索引与掩码: the rows of experiments/reference/ref-1-tensor/indexing.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn ints<const D: usize>(v: Vec<i64>, shape: [usize; D], device: &Device) -> Tensor<D, Int> {
    Tensor::<D, Int>::from_data(TensorData::new(v, shape), device)
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let gidx = ints(vec![0, 2, 1, 1, 3, 0], [3, 2], &d);
    row("gather", out(gather::run(data([3, 4], &d), gidx)));
    let sidx = ints(vec![0, 2, 1, 3, 3, 0], [3, 2], &d);
    row("scatter", out(scatter::run(Tensor::<2>::zeros([3, 4], &d), sidx, data([3, 2], &d))));
    let didx = ints(vec![1, 1, 0, 2], [2, 2], &d);
    let src = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &d);
    row("scatter_add", out(scatter_add::run(Tensor::<2>::zeros([2, 3], &d), didx, src)));
    row("index_select", out(index_select::run(data([4, 3], &d), ints(vec![2, 0, 2], [3], &d))));
    row("index_add", out(index_add::run(Tensor::<2>::zeros([4, 3], &d),
                                        ints(vec![0, 2, 0], [3], &d), data([3, 3], &d))));
    row("masked_fill", out(masked_fill::run(data([3, 4], &d))));
    row("masked_select", out(masked_select::run(data([3, 4], &d))));
    let (a, b) = (data([3, 4], &d), data([3, 4], &d) * 10.0);
    row("where", out(r#where::run(a.clone().greater_elem(0.0), a, b)));
    row("tril", out(tril::run(data([4, 4], &d))));
    row("triu", out(triu::run(data([4, 4], &d))));
    row("nonzero", outi(nonzero::run(data([3, 4], &d).greater_elem(0.2))));
    let nz = nonzero_tuple::run(data([3, 4], &d).greater_elem(0.2));
    row("nonzero_tuple", json!({"v": nz.iter().map(iv).collect::<Vec<_>>(),
                                "shape": nz.iter().map(|t| t.dims().to_vec()).collect::<Vec<_>>()}));
    row("take", out(take::run(data([3, 4], &d), ints(vec![0, 5, 11], [3], &d))));
}

mod gather {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>) -> Tensor<2> {
        x.gather(1, idx)
    }
}

mod scatter {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Assign)
    }
}

mod scatter_add {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Add)
    }
}

mod index_select {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, idx: Tensor<1, Int>) -> Tensor<2> {
        x.select(0, idx)
    }
}

mod index_add {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<1, Int>, src: Tensor<2>) -> Tensor<2> {
        x.select_assign(0, idx, src, IndexingUpdateOp::Add)
    }
}

mod masked_fill {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clone().mask_fill(x.greater_elem(0.0), 0.0)
    }
}

mod masked_select {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.clone().mask_select(x.greater_elem(0.0))
    }
}

mod r#where {
    use burn::prelude::*;

    // torch.where(cond, a, b) 是 b.mask_where(cond, a)：条件为假处留下的张量在前
    pub fn run(cond: Tensor<2, Bool>, a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        b.mask_where(cond, a)
    }
}

mod tril {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.tril(0)
    }
}

mod triu {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.triu(1)
    }
}

mod nonzero {
    use burn::prelude::*;

    // 每个真值的坐标，一行一个
    pub fn run(m: Tensor<2, Bool>) -> Tensor<2, Int> {
        m.argwhere()
    }
}

mod nonzero_tuple {
    use burn::prelude::*;

    // 每一维一个下标张量
    pub fn run(m: Tensor<2, Bool>) -> Vec<Tensor<1, Int>> {
        m.nonzero()
    }
}

mod take {
    use burn::prelude::*;

    // torch.take 按展平后的下标取：先展平，再沿第 0 维取
    pub fn run(x: Tensor<2>, idx: Tensor<1, Int>) -> Tensor<1> {
        x.flatten::<1>(0, 1).take::<1, 1>(0, idx)
    }
}
