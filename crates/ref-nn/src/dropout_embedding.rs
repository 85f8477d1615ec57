//! Dropout 与 Embedding: the rows of experiments/reference/ref-3-nn/dropout_embedding.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        // Dropout drops while its training flag is on (valid() clears it) and the input is on an
        // autodiff device. Seeded so that the output is the same on every run (the generators
        // differ from torch's).
        let distinct = |y: Tensor<2>| {
            let mut values = flat(y);
            values.sort_by(|a, b| a.partial_cmp(b).unwrap());
            values.dedup();
            values
        };
        ad.seed(0);
        let y = dropout_train::forward(&dropout_train::build(), Tensor::<2>::ones([4, 8], &ad));
        row("dropout_train", json!({"shape": y.dims(), "values": distinct(y)}));
        // x on the autodiff device: only valid() keeps it from being dropped.
        let x = data([4, 8], 0.0, &d);
        let y = dropout_eval::forward(&dropout_eval::build(), leaf(x.clone(), &ad));
        row("dropout_eval", json!({"identity": flat(y) == flat(x)}));
        let y = dropout_kept_fraction::forward(&dropout_kept_fraction::build(), Tensor::<2>::ones([200, 500], &ad));
        let v = flat(y);
        let kept = v.iter().filter(|&&x| x != 0.0).count() as f32 / v.len() as f32;
        row("dropout_kept_fraction", json!({"kept": f64::from(kept)}));
        let drop = dropout_default_p::build();
        let y = dropout_default_p::forward(&drop, Tensor::<2>::ones([4, 8], &ad));
        row("dropout_default_p", json!({"p": drop.prob, "shape": y.dims(), "values": distinct(y)}));
    }
    {
        // Embedding weights are [n_embedding, d_model] on both sides.
        let mut emb = embedding::build(&ad);
        emb.weight = param(data([5, 3], 10.0, &d), &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 1, 2]], &ad);
        let y = embedding::forward(&emb, ids);
        let g = backward(&y);
        row("embedding", json!({"y": flat(y.clone()), "dw": grad(&emb.weight.val(), &g), "shape": y.dims()}));
    }
    {
        // torch's weight: row 0 zeroed at construction (padding_idx), the rest phase 10.
        let mut emb = embedding_padding_idx::build(&ad);
        let w = data([5, 3], 10.0, &d).slice_assign([0..1, 0..3], Tensor::<2>::zeros([1, 3], &d));
        emb.weight = param(w, &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 0, 2]], &ad);
        let y = embedding_padding_idx::forward(&emb, ids);
        let g = backward(&y);
        row("embedding_padding_idx", json!({"y": flat(y.clone()), "dw": grad(&emb.weight.val(), &g), "shape": y.dims()}));
    }
}

mod dropout_train {
    use burn::nn::{Dropout, DropoutConfig};
    use burn::prelude::*;

    pub fn build() -> Dropout {
        DropoutConfig::new(0.5).init()
    }

    // 只在训练时丢：输入在 autodiff 设备上、模块没有调 valid()；留下的乘 1 / (1 − p)
    pub fn forward(m: &Dropout, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod dropout_eval {
    use burn::nn::{Dropout, DropoutConfig};
    use burn::prelude::*;

    pub fn build() -> Dropout {
        DropoutConfig::new(0.5).init()
    }

    // PyTorch 的 eval()：valid() 关掉训练标志，输入在 autodiff 设备上也原样返回
    pub fn forward(m: &Dropout, x: Tensor<2>) -> Tensor<2> {
        let m = m.valid();
        m.forward(x)
    }
}

mod dropout_kept_fraction {
    use burn::nn::{Dropout, DropoutConfig};
    use burn::prelude::*;

    pub fn build() -> Dropout {
        DropoutConfig::new(0.3).init()
    }

    pub fn forward(m: &Dropout, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod dropout_default_p {
    use burn::nn::{Dropout, DropoutConfig};
    use burn::prelude::*;

    // nn.Dropout() 的 p 是 0.5；burn 的 prob 没有默认值，写出来
    pub fn build() -> Dropout {
        DropoutConfig::new(0.5).init()
    }

    pub fn forward(m: &Dropout, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod embedding {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    // weight 是 [n_embedding, d_model]，和 PyTorch 相同
    pub fn build(d: &Device) -> Embedding {
        EmbeddingConfig::new(5, 3).init(d)
    }

    pub fn forward(m: &Embedding, ids: Tensor<2, Int>) -> Tensor<3> {
        m.forward(ids)
    }
}

mod embedding_padding_idx {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Embedding {
        EmbeddingConfig::new(5, 3).init(d)
    }

    // 没有 padding_idx：查表的结果乘 (id != 0)，id 为 0 的位置输出 0，第 0 行也拿不到梯度
    pub fn forward(m: &Embedding, ids: Tensor<2, Int>) -> Tensor<3> {
        let keep = ids.clone().not_equal_elem(0).float().unsqueeze_dim::<3>(2);
        m.forward(ids) * keep
    }
}
