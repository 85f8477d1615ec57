//! Embedding: the rows of experiments/reference/ref-8-modules/embedding.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    let embedding_row = |masked: bool| {
        let mut emb = if masked { embedding_padding_idx_mask_loaded::build(&ad) } else { embedding_padding_idx_grad::build(&ad) };
        emb.weight = param(data([5, 3], 10.0, &d), &ad); // a checkpoint's weights: row 0 is not zero
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 0, 2]], &ad);
        let y = if masked {
            embedding_padding_idx_mask_loaded::forward(&emb, ids, 0)
        } else {
            embedding_padding_idx_grad::forward(&emb, ids, 0)
        };
        let g = backward(&y);
        json!({"y": flat(y.clone()), "shape": y.dims(), "dw": grad(&emb.weight.val(), &g)})
    };
    row("embedding_padding_idx_grad", embedding_row(false));
    row("embedding_padding_idx_mask_loaded", embedding_row(true));
}

mod embedding_padding_idx_grad {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Embedding {
        EmbeddingConfig::new(5, 3).init(d)
    }

    // padding_idx：查表照常（载入的权重里这一行可以不是 0），只是 id == pad 的位置
    // 不给权重回传梯度
    pub fn forward(emb: &Embedding, ids: Tensor<2, Int>, pad: i64) -> Tensor<3> {
        let y = emb.forward(ids.clone());
        let keep = ids.not_equal_elem(pad).float().unsqueeze_dim::<3>(2);
        y.clone() * keep.clone() + y.detach() * (keep.neg() + 1.0)
    }
}

mod embedding_padding_idx_mask_loaded {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Embedding {
        EmbeddingConfig::new(5, 3).init(d)
    }

    // 把 id == pad 的输出乘 0
    pub fn forward(emb: &Embedding, ids: Tensor<2, Int>, pad: i64) -> Tensor<3> {
        let keep = ids.clone().not_equal_elem(pad).float().unsqueeze_dim::<3>(2);
        emb.forward(ids) * keep
    }
}
