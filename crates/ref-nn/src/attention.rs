//! 注意力: the rows of experiments/reference/ref-3-nn/attention.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// MultiheadAttention(4, 2) with PyTorch's in_proj (q, k, v stacked) and out_proj.
fn mha_set(mha: &mut MultiHeadAttention, device: &Device) {
    let p = Device::flex();
    let (w, b) = (data([12, 4], 10.0, &p), data([12], 20.0, &p));
    mha.query = linear_from(block(&w, 0, 4), Some(block1(&b, 0, 4)), device);
    mha.key = linear_from(block(&w, 1, 4), Some(block1(&b, 1, 4)), device);
    mha.value = linear_from(block(&w, 2, 4), Some(block1(&b, 2, 4)), device);
    mha.output = linear_from(data([4, 4], 30.0, &p), Some(data([4], 40.0, &p)), device);
}

/// PyTorch's encoder layer weights: self_attn (10..40), linear1 (50, 60), linear2 (70, 80);
/// the norms (norm1: 90, 100; norm2: 110, 120) are returned as LayerNorms for the row to place.
fn encoder_set(layer: &mut TransformerEncoderLayer, d_ff: usize, device: &Device) -> (LayerNorm, LayerNorm) {
    let p = Device::flex();
    mha_set(&mut layer.mha, device);
    set_linear(&mut layer.pwff.linear_inner, data([d_ff, 4], 50.0, &p), Some(data([d_ff], 60.0, &p)), device);
    set_linear(&mut layer.pwff.linear_outer, data([4, d_ff], 70.0, &p), Some(data([4], 80.0, &p)), device);
    let norm = |w: f64, b: f64| {
        let mut n = LayerNormConfig::new(4).init(device);
        n.gamma = param(data([4], w, &p), device);
        n.beta = Some(param(data([4], b, &p), device));
        n
    };
    (norm(90.0, 100.0), norm(110.0, 120.0))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let x = || data([2, 3, 4], 0.0, &d) * 2.0;
        let with = |mut m: MultiHeadAttention| {
            mha_set(&mut m, &d);
            m
        };
        row("mha", y_shape(mha::forward(&with(mha::build(&d)), x())));
        let w = mha_weights::forward(&with(mha_weights::build(&d)), x());
        row("mha_weights", json!({"weights_shape": w.dims()}));
        row("mha_weights_averaged", y_shape(mha_weights_averaged::forward(&with(mha_weights_averaged::build(&d)), x())));
        let pad = Tensor::<2, Bool>::from_bool(TensorData::from([[false, false, true], [false, true, true]]), &d);
        row("mha_key_padding_mask", y_shape(mha_key_padding_mask::forward(&with(mha_key_padding_mask::build(&d)), x(), pad)));
        row("mha_attn_mask", y_shape(mha_attn_mask::forward(&with(mha_attn_mask::build(&d)), x())));
        // Batch 0 masks every key. NaN cannot go into JSON: the NaN flags, and y with NaN as 0.
        let all = || Tensor::<2, Bool>::from_bool(TensorData::from([[true, true, true], [false, true, true]]), &d);
        let y = mha_all_masked::forward(&with(mha_all_masked::build(&d)), x(), all());
        let nan: Vec<bool> = flat(y).iter().map(|v| v.is_nan()).collect();
        row("mha_all_masked", json!({"nan": nan}));
        let y = flat(mha_all_masked_nan::forward(&with(mha_all_masked_nan::build(&d)), x(), all()));
        let nan: Vec<bool> = y.iter().map(|v| v.is_nan()).collect();
        let y: Vec<f64> = y.iter().map(|v| if v.is_nan() { 0.0 } else { *v }).collect();
        row("mha_all_masked_nan", json!({"nan": nan, "y": y}));
    }
    {
        // PyTorch's defaults in training mode: [seq, batch, d], dropout 0.0; forward and backward.
        let mut m = mha_seq_first::build(&ad);
        mha_set(&mut m, &ad);
        let x = input(data([3, 2, 4], 0.0, &d) * 2.0, &ad);
        let y = mha_seq_first::forward(&m, x.clone());
        let g = backward(&y);
        row("mha_seq_first", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g)}));
    }
    {
        let x = || data([2, 3, 4], 0.0, &d) * 2.0;
        let mut layer = transformer_encoder_layer::build(&d);
        (layer.norm_1, layer.norm_2) = encoder_set(&mut layer, 6, &d);
        row("transformer_encoder_layer", y_shape(transformer_encoder_layer::forward(&layer, x())));

        let mut layer = transformer_encoder_causal::build(&d);
        (layer.norm_1, layer.norm_2) = encoder_set(&mut layer, 6, &d);
        row("transformer_encoder_causal", y_shape(transformer_encoder_causal::forward(&layer, x())));

        let mut layer = transformer_encoder_layer_norm_first::build(&d);
        let (norm1, norm2) = encoder_set(&mut layer, 6, &d);
        transformer_encoder_layer_norm_first::set_norms(&mut layer, norm1, norm2);
        row("transformer_encoder_layer_norm_first", y_shape(transformer_encoder_layer_norm_first::forward(&layer, x())));

        let mut layer = transformer_norm_first_by_name::build(&d);
        let (norm1, norm2) = encoder_set(&mut layer, 6, &d);
        transformer_norm_first_by_name::set_norms(&mut layer, norm1, norm2);
        row("transformer_norm_first_by_name", y_shape(transformer_norm_first_by_name::forward(&layer, x())));

        // Built on the autodiff device like a model in training; the row's valid() is the eval().
        let mut layer = transformer_seq_first::build(&ad);
        (layer.norm_1, layer.norm_2) = encoder_set(&mut layer, 2048, &ad);
        row("transformer_seq_first", y_shape(transformer_seq_first::forward(&layer, data([3, 2, 4], 0.0, &d) * 2.0)));
    }
}

mod mha {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    // query、key、value、output 各一个 Linear（PyTorch 的 in_proj_weight 按 q, k, v 堆叠）；
    // dropout 默认 0.1，PyTorch 默认 0.0
    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    // x: [batch, seq, d_model]
    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>) -> Tensor<3> {
        m.forward(MhaInput::self_attn(x)).context
    }
}

mod mha_weights {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    // 每个头各自的权重：[batch, heads, L, S]
    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>) -> Tensor<4> {
        m.forward(MhaInput::self_attn(x)).weights
    }
}

mod mha_weights_averaged {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    // PyTorch 默认 average_attn_weights=True：各头取平均，[batch, heads, L, S] → [batch, L, S]
    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>) -> Tensor<3> {
        let weights = m.forward(MhaInput::self_attn(x)).weights;
        weights.mean_dim(1).squeeze_dim(1)
    }
}

mod mha_key_padding_mask {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    // pad: [batch, S]，true = 这个 key 不许看，和 PyTorch 的 key_padding_mask 一样
    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>, pad: Tensor<2, Bool>) -> Tensor<3> {
        m.forward(MhaInput::self_attn(x).mask_pad(pad)).context
    }
}

mod mha_attn_mask {
    use burn::nn::attention::{
        generate_autoregressive_mask, MhaInput, MultiHeadAttention, MultiHeadAttentionConfig,
    };
    use burn::prelude::*;

    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    // 掩码是 [batch, L, S]，true = 遮住；PyTorch 的 [L, S] 要按批次扩成三维
    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = x.dims();
        let mask = generate_autoregressive_mask(batch, seq, &x.device());
        m.forward(MhaInput::self_attn(x).mask_attn(mask)).context
    }
}

mod mha_all_masked {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    // 被遮住的分数填 min_float（默认 -1e4，有限）：整行都遮住时权重是均匀的，输出是有限值
    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>, pad: Tensor<2, Bool>) -> Tensor<3> {
        m.forward(MhaInput::self_attn(x).mask_pad(pad)).context
    }
}

mod mha_all_masked_nan {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    // 和 PyTorch 一样用 -inf 填被遮住的分数：整行都遮住时 softmax 得 NaN
    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .with_min_float(f64::NEG_INFINITY)
            .init(d)
    }

    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>, pad: Tensor<2, Bool>) -> Tensor<3> {
        m.forward(MhaInput::self_attn(x).mask_pad(pad)).context
    }
}

mod mha_seq_first {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    // PyTorch 的默认：dropout=0.0（burn 默认 0.1，训练时会丢）
    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2)
            .with_dropout(0.0)
            .init(d)
    }

    // 没有 batch_first：[seq, batch, d_model] 先换成 [batch, seq, d_model]，输出再换回来
    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>) -> Tensor<3> {
        m.forward(MhaInput::self_attn(x.swap_dims(0, 1)))
            .context
            .swap_dims(0, 1)
    }
}

mod transformer_encoder_layer {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
    use burn::prelude::*;

    // TransformerEncoderConfig::new(d_model, d_ff, n_heads, n_layers)；一层用 TransformerEncoderLayer::new
    pub fn build(d: &Device) -> TransformerEncoderLayer {
        let config = TransformerEncoderConfig::new(4, 6, 2, 1)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu);
        TransformerEncoderLayer::new(&config, d)
    }

    // x: [batch, seq, d_model]；后两个参数是 mask_pad、mask_attn
    pub fn forward(m: &TransformerEncoderLayer, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None, None)
    }
}

mod transformer_encoder_causal {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
    use burn::prelude::*;

    pub fn build(d: &Device) -> TransformerEncoderLayer {
        let config = TransformerEncoderConfig::new(4, 6, 2, 1)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu);
        TransformerEncoderLayer::new(&config, d)
    }

    // mask_attn: [batch, L, S]，true = 遮住（PyTorch 的 src_mask 是 [L, S]）
    pub fn forward(m: &TransformerEncoderLayer, x: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = x.dims();
        let mask = generate_autoregressive_mask(batch, seq, &x.device());
        m.forward(x, None, Some(mask))
    }
}

mod transformer_encoder_layer_norm_first {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
    use burn::nn::LayerNorm;
    use burn::prelude::*;

    pub fn build(d: &Device) -> TransformerEncoderLayer {
        let config = TransformerEncoderConfig::new(4, 6, 2, 1)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .with_norm_first(true);
        TransformerEncoderLayer::new(&config, d)
    }

    // norm_first 时 burn 在注意力前用 norm_2、在前馈前用 norm_1，和 PyTorch 的 norm1、norm2 相反：
    // 搬权重时交叉放
    pub fn set_norms(m: &mut TransformerEncoderLayer, norm1: LayerNorm, norm2: LayerNorm) {
        m.norm_2 = norm1;
        m.norm_1 = norm2;
    }

    pub fn forward(m: &TransformerEncoderLayer, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None, None)
    }
}

mod transformer_norm_first_by_name {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
    use burn::nn::LayerNorm;
    use burn::prelude::*;

    pub fn build(d: &Device) -> TransformerEncoderLayer {
        let config = TransformerEncoderConfig::new(4, 6, 2, 1)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .with_norm_first(true);
        TransformerEncoderLayer::new(&config, d)
    }

    // 按名字搬：norm1 → norm_1，norm2 → norm_2（post-norm 时这样是对的，norm_first 时不对）
    pub fn set_norms(m: &mut TransformerEncoderLayer, norm1: LayerNorm, norm2: LayerNorm) {
        m.norm_1 = norm1;
        m.norm_2 = norm2;
    }

    pub fn forward(m: &TransformerEncoderLayer, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None, None)
    }
}

mod transformer_seq_first {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
    use burn::prelude::*;

    // PyTorch 的默认：dim_feedforward=2048、activation=relu（dropout 0.1、layer_norm_eps 1e-5、
    // norm_first=False 两边本来相同）
    pub fn build(d: &Device) -> TransformerEncoderLayer {
        let config =
            TransformerEncoderConfig::new(4, 2048, 2, 1).with_activation(ActivationConfig::Relu);
        TransformerEncoderLayer::new(&config, d)
    }

    // PyTorch 的 eval()：valid()；没有 batch_first：[seq, batch, d] 先换成 [batch, seq, d]，输出再换回来
    pub fn forward(m: &TransformerEncoderLayer, x: Tensor<3>) -> Tensor<3> {
        let m = m.valid();
        m.forward(x.swap_dims(0, 1), None, None).swap_dims(0, 1)
    }
}
