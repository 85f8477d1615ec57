//! 掩码: the rows of experiments/reference/ref-7-ops/masks.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    row("causal_mask", outb(causal_mask::run(4, &ad)));
    row("causal_mask_naive", outb(causal_mask_naive::run(4, &ad)));
    let x = data([2, 4, 4], &ad).require_grad();
    let y = masked_fill_softmax::run(x.clone());
    let g = gsum(&y);
    row("masked_fill_softmax", with_y(&y, json!({"dx": grad(&x, &g)})));
}

mod causal_mask {
    use burn::prelude::*;

    // tril_mask 给出「下三角以外」为 true 的掩码：正好是 triu(ones, diagonal=1)
    pub fn run(t: usize, d: &Device) -> Tensor<2, Bool> {
        Tensor::<2, Bool>::tril_mask([t, t], 0, d)
    }
}

mod causal_mask_naive {
    use burn::prelude::*;

    pub fn run(t: usize, d: &Device) -> Tensor<2, Bool> {
        Tensor::<2, Bool>::triu_mask([t, t], 1, d)
    }
}

mod masked_fill_softmax {
    use burn::prelude::*;
    use burn::tensor::activation::softmax;

    // x: [batch, t, t] 注意力分数；遮住未来的位置再 softmax
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        let [b, t, _] = x.dims();
        let mask = Tensor::<2, Bool>::tril_mask([t, t], 0, &x.device())
            .unsqueeze::<3>()
            .expand([b, t, t]);
        softmax(x.mask_fill(mask, f32::NEG_INFINITY), 2)
    }
}
