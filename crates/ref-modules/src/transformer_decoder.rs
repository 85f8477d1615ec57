//! Transformer 解码器: the rows of experiments/reference/ref-8-modules/transformer_decoder.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// MultiheadAttention(4, 2): in_proj (q, k, v stacked) phases base+10, +20; out_proj +30, +40.
fn mha_set(mha: &mut MultiHeadAttention, base: f64, d: &Device) {
    let p = Device::flex();
    let (w, b) = (data([12, 4], base + 10.0, &p), data([12], base + 20.0, &p));
    let part = |i: usize| {
        linear_from(w.clone().slice([4 * i..4 * i + 4, 0..4]), b.clone().slice([4 * i..4 * i + 4]), d)
    };
    mha.query = part(0);
    mha.key = part(1);
    mha.value = part(2);
    mha.output = linear_at(4, 4, base + 30.0, Some(base + 40.0), &p, d);
}

fn norm_set(n: &mut LayerNorm, w: f64, b: f64, d: &Device) {
    let p = Device::flex();
    n.gamma = param(data([4], w, &p), d);
    n.beta = Some(param(data([4], b, &p), d));
}

/// torch's TransformerDecoderLayer phases (base + 10 … 180), its norm1, norm2, norm3 into
/// burn's norm_1, norm_2, norm_3 (right for post-norm layers).
fn decoder_set(l: &mut TransformerDecoderLayer, base: f64, d: &Device) {
    let p = Device::flex();
    mha_set(&mut l.self_attn, base, d);
    mha_set(&mut l.cross_attn, base + 40.0, d);
    l.pwff.linear_inner = linear_at(6, 4, base + 90.0, Some(base + 100.0), &p, d);
    l.pwff.linear_outer = linear_at(4, 6, base + 110.0, Some(base + 120.0), &p, d);
    let [n1, n2, n3] = torch_norms(base, d);
    (l.norm_1, l.norm_2, l.norm_3) = (n1, n2, n3);
}

/// torch's norm1, norm2, norm3 of a decoder layer: weight phases base + 130, 150, 170.
fn torch_norms(base: f64, d: &Device) -> [LayerNorm; 3] {
    [0.0, 1.0, 2.0].map(|i| {
        let mut n = LayerNormConfig::new(4).init(d);
        norm_set(&mut n, base + 130.0 + 20.0 * i, base + 140.0 + 20.0 * i, d);
        n
    })
}

fn encoder_set(l: &mut TransformerEncoderLayer, base: f64, d: &Device) {
    let p = Device::flex();
    mha_set(&mut l.mha, base, d);
    l.pwff.linear_inner = linear_at(6, 4, base + 50.0, Some(base + 60.0), &p, d);
    l.pwff.linear_outer = linear_at(4, 6, base + 70.0, Some(base + 80.0), &p, d);
    norm_set(&mut l.norm_1, base + 90.0, base + 100.0, d);
    norm_set(&mut l.norm_2, base + 110.0, base + 120.0, d);
}

fn decoder_inputs(d: &Device, ad: &Device) -> (Tensor<3>, Tensor<3>) {
    (input(data([2, 3, 4], 0.0, d) * 2.0, ad), input(data([2, 5, 4], 5.0, d) * 2.0, ad))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let mut m = transformer_decoder_layer::build(&ad);
        decoder_set(&mut m.layers[0], 0.0, &ad);
        let (tgt, mem) = decoder_inputs(&d, &ad);
        let y = transformer_decoder_layer::forward(&m, tgt.clone(), mem.clone());
        let g = backward(&y);
        row("transformer_decoder_layer", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&tgt, &g),
            "grad_memory": grad(&mem, &g), "dw": linear_dw(&m.layers[0].pwff.linear_inner, &g)}));
    }
    {
        let mut m = transformer_decoder::build(&ad);
        for (i, l) in m.layers.iter_mut().enumerate() {
            decoder_set(l, 200.0 * i as f64, &ad);
        }
        let (tgt, mem) = decoder_inputs(&d, &ad);
        let y = transformer_decoder::forward(&m, tgt.clone(), mem.clone());
        let g = backward(&y);
        row("transformer_decoder", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&tgt, &g),
            "grad_memory": grad(&mem, &g), "dw": linear_dw(&m.layers[0].pwff.linear_inner, &g)}));
    }
    {
        // torch's norm1, norm2, norm3 run before self-attention, cross-attention, feed-forward;
        // in burn's norm_first layer those are norm_3, norm_1, norm_2.
        let mut m = transformer_decoder_norm_first::build(&ad);
        decoder_set(&mut m.layers[0], 0.0, &ad);
        let [n1, n2, n3] = torch_norms(0.0, &ad);
        transformer_decoder_norm_first::load_norms(&mut m.layers[0], n1, n2, n3);
        let (tgt, mem) = decoder_inputs(&d, &ad);
        let y = transformer_decoder_norm_first::forward(&m, tgt.clone(), mem.clone());
        let g = backward(&y);
        row("transformer_decoder_norm_first", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&tgt, &g),
            "grad_memory": grad(&mem, &g), "dw": linear_dw(&m.layers[0].pwff.linear_inner, &g)}));
    }
    {
        let mut m = transformer_decoder_norm_first_by_name::build(&d);
        decoder_set(&mut m.layers[0], 0.0, &d);
        let [n1, n2, n3] = torch_norms(0.0, &d);
        transformer_decoder_norm_first_by_name::load_norms(&mut m.layers[0], n1, n2, n3);
        let y = transformer_decoder_norm_first_by_name::forward(&m, data([2, 3, 4], 0.0, &d) * 2.0, data([2, 5, 4], 5.0, &d) * 2.0);
        row("transformer_decoder_norm_first_by_name", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        let mut m = transformer_encoder_stack::build(&ad);
        for (i, l) in m.layers.iter_mut().enumerate() {
            encoder_set(l, 200.0 * i as f64, &ad);
        }
        let x = input(data([2, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = transformer_encoder_stack::forward(&m, x.clone());
        let g = backward(&y);
        row("transformer_encoder_stack", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": linear_dw(&m.layers[0].pwff.linear_inner, &g)}));
    }
    {
        let mut m = transformer::build(&ad);
        encoder_set(&mut m.encoder.layers[0], 0.0, &ad);
        decoder_set(&mut m.decoder.layers[0], 400.0, &ad);
        let (tgt, src) = decoder_inputs(&d, &ad);
        let y = transformer::forward(&m, src.clone(), tgt.clone());
        let g = backward(&y);
        row("transformer", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&tgt, &g),
            "grad_src": grad(&src, &g), "dw": linear_dw(&m.encoder.layers[0].pwff.linear_inner, &g)}));
    }
}

mod transformer_decoder_layer {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{TransformerDecoder, TransformerDecoderConfig, TransformerDecoderInput};
    use burn::prelude::*;

    // TransformerDecoderLayer::forward 返回的 TransformerDecoderInput 读不出 target：
    // 用 n_layers = 1 的 TransformerDecoder。PyTorch 的默认激活是 ReLU，burn 是 GELU
    pub fn build(d: &Device) -> TransformerDecoder {
        TransformerDecoderConfig::new(4, 6, 2, 1) // d_model, d_ff, n_heads, n_layers
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .init(d)
    }

    pub fn forward(m: &TransformerDecoder, tgt: Tensor<3>, memory: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = tgt.dims();
        // tgt_mask：[batch, L, L]，true = 不许看
        let mask = generate_autoregressive_mask(batch, seq, &tgt.device());
        m.forward(TransformerDecoderInput::new(tgt, memory).target_mask_attn(mask))
    }
}

mod transformer_decoder {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{TransformerDecoder, TransformerDecoderConfig, TransformerDecoderInput};
    use burn::prelude::*;

    pub fn build(d: &Device) -> TransformerDecoder {
        TransformerDecoderConfig::new(4, 6, 2, 2)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .init(d)
    }

    pub fn forward(m: &TransformerDecoder, tgt: Tensor<3>, memory: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = tgt.dims();
        let mask = generate_autoregressive_mask(batch, seq, &tgt.device());
        m.forward(TransformerDecoderInput::new(tgt, memory).target_mask_attn(mask))
    }
}

mod transformer_decoder_norm_first {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{
        TransformerDecoder, TransformerDecoderConfig, TransformerDecoderInput, TransformerDecoderLayer,
    };
    use burn::nn::LayerNorm;
    use burn::prelude::*;

    pub fn build(d: &Device) -> TransformerDecoder {
        TransformerDecoderConfig::new(4, 6, 2, 1)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .with_norm_first(true)
            .init(d)
    }

    // PyTorch 的 norm1、norm2、norm3 依次用在自注意力、交叉注意力、前馈之前；
    // burn 的 norm_first 层在这三处用的是 norm_3、norm_1、norm_2
    pub fn load_norms(layer: &mut TransformerDecoderLayer, norm1: LayerNorm, norm2: LayerNorm, norm3: LayerNorm) {
        layer.norm_3 = norm1;
        layer.norm_1 = norm2;
        layer.norm_2 = norm3;
    }

    pub fn forward(m: &TransformerDecoder, tgt: Tensor<3>, memory: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = tgt.dims();
        let mask = generate_autoregressive_mask(batch, seq, &tgt.device());
        m.forward(TransformerDecoderInput::new(tgt, memory).target_mask_attn(mask))
    }
}

mod transformer_decoder_norm_first_by_name {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{
        TransformerDecoder, TransformerDecoderConfig, TransformerDecoderInput, TransformerDecoderLayer,
    };
    use burn::nn::LayerNorm;
    use burn::prelude::*;

    pub fn build(d: &Device) -> TransformerDecoder {
        TransformerDecoderConfig::new(4, 6, 2, 1)
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .with_norm_first(true)
            .init(d)
    }

    // 按名字搬：norm1 → norm_1，norm2 → norm_2，norm3 → norm_3
    pub fn load_norms(layer: &mut TransformerDecoderLayer, norm1: LayerNorm, norm2: LayerNorm, norm3: LayerNorm) {
        layer.norm_1 = norm1;
        layer.norm_2 = norm2;
        layer.norm_3 = norm3;
    }

    pub fn forward(m: &TransformerDecoder, tgt: Tensor<3>, memory: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = tgt.dims();
        let mask = generate_autoregressive_mask(batch, seq, &tgt.device());
        m.forward(TransformerDecoderInput::new(tgt, memory).target_mask_attn(mask))
    }
}

mod transformer_encoder_stack {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{TransformerEncoder, TransformerEncoderConfig, TransformerEncoderInput};
    use burn::prelude::*;

    // 只有解码器的语言模型：编码器层叠 2 层，加因果掩码
    pub fn build(d: &Device) -> TransformerEncoder {
        TransformerEncoderConfig::new(4, 6, 2, 2) // d_model, d_ff, n_heads, n_layers
            .with_dropout(0.0)
            .with_activation(ActivationConfig::Relu)
            .init(d)
    }

    pub fn forward(m: &TransformerEncoder, x: Tensor<3>) -> Tensor<3> {
        let [batch, seq, _] = x.dims();
        let mask = generate_autoregressive_mask(batch, seq, &x.device());
        m.forward(TransformerEncoderInput::new(x).mask_attn(mask))
    }
}

mod transformer {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::attention::generate_autoregressive_mask;
    use burn::nn::transformer::{
        TransformerDecoder, TransformerDecoderConfig, TransformerDecoderInput, TransformerEncoder,
        TransformerEncoderConfig, TransformerEncoderInput,
    };
    use burn::nn::{LayerNorm, LayerNormConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Transformer {
        pub encoder: TransformerEncoder,
        pub encoder_norm: LayerNorm,
        pub decoder: TransformerDecoder,
        pub decoder_norm: LayerNorm,
    }

    pub fn build(d: &Device) -> Transformer {
        let (d_model, d_ff, n_heads, n_layers) = (4, 6, 2, 1);
        Transformer {
            encoder: TransformerEncoderConfig::new(d_model, d_ff, n_heads, n_layers)
                .with_dropout(0.0)
                .with_activation(ActivationConfig::Relu)
                .init(d),
            encoder_norm: LayerNormConfig::new(d_model).init(d),
            decoder: TransformerDecoderConfig::new(d_model, d_ff, n_heads, n_layers)
                .with_dropout(0.0)
                .with_activation(ActivationConfig::Relu)
                .init(d),
            decoder_norm: LayerNormConfig::new(d_model).init(d),
        }
    }

    pub fn forward(m: &Transformer, src: Tensor<3>, tgt: Tensor<3>) -> Tensor<3> {
        let memory = m.encoder_norm.forward(m.encoder.forward(TransformerEncoderInput::new(src)));
        let [batch, seq, _] = tgt.dims();
        let mask = generate_autoregressive_mask(batch, seq, &tgt.device());
        let y = m.decoder.forward(TransformerDecoderInput::new(tgt, memory).target_mask_attn(mask));
        m.decoder_norm.forward(y)
    }
}
