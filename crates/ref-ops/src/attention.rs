//! 注意力: the rows of experiments/reference/ref-7-ops/attention.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn bools<const D: usize>(v: Vec<bool>, shape: [usize; D], device: &Device) -> Tensor<D, Bool> {
    Tensor::<D, Bool>::from_data(TensorData::new(v, shape), device)
}

const KEEP: [bool; 9] = [true, true, false, true, true, false, true, true, false];

const KEEP_ROW: [bool; 9] = [true, false, false, false, false, false, true, true, true];

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let qkv = |lq: usize, lk: usize| {
        (
            data([1, 2, lq, 4], &ad).require_grad(),
            coef([1, 2, lk, 4], &ad).require_grad(),
            wave([1, 2, lk, 4], &ad).require_grad(),
        )
    };
    let grads = |y: &Tensor<4>, q: &Tensor<4>, k: &Tensor<4>, v: &Tensor<4>| {
        let g = gsum(y);
        with_y(y, json!({"grad_q": grad(q, &g), "grad_k": grad(k, &g), "grad_v": grad(v, &g)}))
    };
    let keep = || bools(KEEP.to_vec(), [3, 3], &ad);

    let (q, k, v) = qkv(3, 3);
    row("sdpa", grads(&sdpa::run(q.clone(), k.clone(), v.clone()), &q, &k, &v));
    let (q, k, v) = qkv(3, 3);
    row("sdpa_causal", grads(&sdpa_causal::run(q.clone(), k.clone(), v.clone()), &q, &k, &v));
    let (q, k, v) = qkv(2, 4);
    row("sdpa_causal_kv", out(sdpa_causal_kv::run(q, k, v)));
    let (q, k, v) = qkv(2, 4);
    row("sdpa_causal_kv_mask", grads(&sdpa_causal_kv_mask::run(q.clone(), k.clone(), v.clone()), &q, &k, &v));
    let (q, k, v) = qkv(3, 3);
    row("sdpa_bool_mask_naive", out(sdpa_bool_mask_naive::run(q, k, v, keep())));
    let (q, k, v) = qkv(3, 3);
    row("sdpa_bool_mask", grads(&sdpa_bool_mask::run(q.clone(), k.clone(), v.clone(), keep()), &q, &k, &v));
    let (q, k, v) = qkv(3, 3);
    let bias: Vec<f32> = (0..9).map(|i| -0.5 * ((i / 3) as f32 - (i % 3) as f32).abs()).collect();
    let bias = floats(&bias, &ad).reshape([3, 3]);
    row("sdpa_float_mask", grads(&sdpa_float_mask::run(q.clone(), k.clone(), v.clone(), bias), &q, &k, &v));
    let (q, k, v) = qkv(3, 3);
    row("sdpa_scale", grads(&sdpa_scale::run(q.clone(), k.clone(), v.clone()), &q, &k, &v));
    let (q, k, v) = qkv(3, 3);
    row("sdpa_masked_row", out(sdpa_masked_row::run(q, k, v, bools(KEEP_ROW.to_vec(), [3, 3], &ad))));
}

mod sdpa {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // q, k, v: [batch, heads, seq, head_dim]；缩放默认 1/sqrt(head_dim)
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
        attention(q, k, v, None, None, AttentionModuleOptions::default())
    }
}

mod sdpa_causal {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
        let options = AttentionModuleOptions { is_causal: true, ..Default::default() };
        attention(q, k, v, None, None, options)
    }
}

mod sdpa_causal_kv {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // q: [1, 2, 2, 4]，k、v: [1, 2, 4, 4]（query 比 key 少，如带 KV 缓存的解码）
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
        let options = AttentionModuleOptions { is_causal: true, ..Default::default() };
        attention(q, k, v, None, None, options)
    }
}

mod sdpa_causal_kv_mask {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // PyTorch 的 is_causal 让第 i 个 query 看 key 0..=i（掩码在左上角对齐）；
    // burn 的 is_causal 在右下角对齐。要 PyTorch 的结果就自己给掩码：true = 不许看，即列号 > 行号
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
        let [b, h, l, _] = q.dims();
        let s = k.dims()[2];
        let mask = Tensor::<2, Bool>::tril_mask([l, s], 0, &q.device())
            .unsqueeze::<4>()
            .expand([b, h, l, s]);
        attention(q, k, v, Some(mask), None, AttentionModuleOptions::default())
    }
}

mod sdpa_bool_mask_naive {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // keep: [l, s]，照搬 PyTorch 的 attn_mask（true = 可以看）
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>, keep: Tensor<2, Bool>) -> Tensor<4> {
        let [b, h, l, _] = q.dims();
        let s = k.dims()[2];
        let mask = keep.unsqueeze::<4>().expand([b, h, l, s]);
        attention(q, k, v, Some(mask), None, AttentionModuleOptions::default())
    }
}

mod sdpa_bool_mask {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // PyTorch 的布尔 attn_mask：true = 可以看；burn 的 mask：true = 遮住。取反，再扩到 [b, h, l, s]
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>, keep: Tensor<2, Bool>) -> Tensor<4> {
        let [b, h, l, _] = q.dims();
        let s = k.dims()[2];
        let mask = keep.bool_not().unsqueeze::<4>().expand([b, h, l, s]);
        attention(q, k, v, Some(mask), None, AttentionModuleOptions::default())
    }
}

mod sdpa_float_mask {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // PyTorch 的浮点 attn_mask 是加到分数上的偏置：burn 里是 attn_bias 参数（要 [b, h, l, s]）
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>, bias: Tensor<2>) -> Tensor<4> {
        let [b, h, l, _] = q.dims();
        let s = k.dims()[2];
        let bias = bias.unsqueeze::<4>().expand([b, h, l, s]);
        attention(q, k, v, None, Some(bias), AttentionModuleOptions::default())
    }
}

mod sdpa_scale {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>) -> Tensor<4> {
        let options = AttentionModuleOptions { scale: Some(0.5), ..Default::default() };
        attention(q, k, v, None, None, options)
    }
}

mod sdpa_masked_row {
    use burn::prelude::*;
    use burn::tensor::module::attention;
    use burn::tensor::ops::AttentionModuleOptions;

    // keep 的第 2 行全是 false：这个 query 一个 key 都不许看
    pub fn run(q: Tensor<4>, k: Tensor<4>, v: Tensor<4>, keep: Tensor<2, Bool>) -> Tensor<4> {
        let [b, h, l, _] = q.dims();
        let s = k.dims()[2];
        let mask = keep.bool_not().unsqueeze::<4>().expand([b, h, l, s]);
        attention(q, k, v, Some(mask), None, AttentionModuleOptions::default())
    }
}
