//! 模块的默认参数: the rows of experiments/reference/ref-3-nn/defaults.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn max_abs_diff<const D: usize>(a: Tensor<D>, b: Tensor<D>) -> f64 {
    flat(a).iter().zip(flat(b)).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max)
}

fn padding_name(p: &PaddingConfig2d) -> Value {
    match p {
        PaddingConfig2d::Valid => json!("valid"),
        other => json!(format!("{other:?}")),
    }
}

/// Whether a module treats dim 0 of its input as the batch: changing sample 0 of the input
/// must leave sample 1 of the output bit for bit (were dim 0 the sequence, the recurrence or
/// the attention would carry the change into index 1).
fn dim0_is_batch(f: impl Fn(Tensor<3>) -> Tensor<3>, x: Tensor<3>) -> bool {
    let [_, s, e] = x.dims();
    let changed = x.clone().slice_assign([0..1, 0..s, 0..e], Tensor::ones([1, s, e], &x.device()));
    let (y, y2) = (f(x), f(changed));
    let [_, s2, e2] = y.dims();
    flat(y.slice([1..2, 0..s2, 0..e2])) == flat(y2.slice([1..2, 0..s2, 0..e2]))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    // Where burn has the setting: the Config's field right after ::new(..) (the row's read()).
    // Where it has no such setting: the built module's state or behaviour, read here.
    // Where new() takes the value (no default at all): null, nothing to read.
    let v = |x: Value| json!({ "v": x });
    let lower = |s: String| json!(s.to_lowercase());
    row("default_linear_bias", v(json!(default_linear_bias::read())));
    row("default_conv2d_bias", v(json!(default_conv2d_bias::read())));
    row("default_conv2d_stride", v(json!(default_conv2d_stride::read())));
    row("default_conv2d_padding", v(padding_name(&default_conv2d_padding::read())));
    row("default_conv2d_dilation", v(json!(default_conv2d_dilation::read())));
    row("default_conv2d_groups", v(json!(default_conv2d_groups::read())));
    {
        // What a padded Conv2d puts around the input: its output against the same weights run
        // Valid on the input padded with explicit zeros.
        let conv = default_conv2d_padding_mode::build(&d);
        let mut valid = conv.clone();
        valid.padding = PaddingConfig2d::Valid;
        let x = data([1, 2, 4, 5], 0.0, &d);
        let zeros = valid.forward(x.clone().pad([(1, 1), (1, 1)], PadMode::Constant(0.0)));
        let mode = if max_abs_diff(conv.forward(x), zeros) <= 1e-6 { "zeros" } else { "not zeros" };
        row("default_conv2d_padding_mode", v(json!(mode)));
    }
    row("default_conv_transpose2d_output_padding", v(json!(default_conv_transpose2d_output_padding::read())));
    row("default_maxpool2d_stride", v(json!(default_maxpool2d_stride::read())));
    row("default_maxpool2d_padding", v(padding_name(&default_maxpool2d_padding::read())));
    row("default_maxpool2d_ceil_mode", v(json!(default_maxpool2d_ceil_mode::read())));
    row("default_avgpool2d_count_include_pad", v(json!(default_avgpool2d_count_include_pad::read())));
    row("default_avgpool2d_ceil_mode", v(json!(default_avgpool2d_ceil_mode::read())));
    row("default_batchnorm_eps", v(json!(default_batchnorm_eps::read())));
    row("default_batchnorm_momentum", v(json!(default_batchnorm_momentum::read())));
    {
        // affine: gamma and beta are parameters that take gradients (built on the autodiff device).
        let bn = default_batchnorm_affine::build(&ad);
        row("default_batchnorm_affine", v(json!(bn.gamma.val().is_require_grad() && bn.beta.val().is_require_grad())));
        // track_running_stats: one training forward moves running_mean off 0 and running_var off 1.
        let bn = default_batchnorm_track_running_stats::build(&ad);
        let _ = bn.forward(leaf(data([4, 3], 0.0, &d) * 3.0, &ad));
        let mean_moved = flat(bn.running_mean.value_sync()).iter().any(|&m| m != 0.0);
        let var_moved = flat(bn.running_var.value_sync()).iter().any(|&v| v != 1.0);
        row("default_batchnorm_track_running_stats", v(json!(mean_moved && var_moved)));
    }
    row("default_layernorm_eps", v(json!(default_layernorm_eps::read())));
    {
        let ln = default_layernorm_elementwise_affine::build(&ad);
        row("default_layernorm_elementwise_affine", v(json!(ln.gamma.val().is_require_grad())));
    }
    row("default_layernorm_bias", v(json!(default_layernorm_bias::read())));
    row("default_groupnorm_eps", v(json!(default_groupnorm_eps::read())));
    row("default_groupnorm_affine", v(json!(default_groupnorm_affine::read())));
    row("default_instancenorm_affine", v(json!(default_instancenorm_affine::read())));
    // No default to read: prob is an argument of new() (the type checks that it is its only one).
    let _: fn(f64) -> burn::nn::DropoutConfig = default_dropout_p::config;
    row("default_dropout_p", v(Value::Null));
    {
        // padding_idx: the first row that a lookup of every id leaves without gradient, if any.
        let emb = default_embedding_padding_idx::build(&ad);
        let y = default_embedding_padding_idx::forward(&emb, Tensor::<2, Int>::from_ints([[0, 1, 2, 3, 4]], &ad));
        let g = grad(&emb.weight.val(), &backward(&y));
        let none = g.chunks(3).position(|r| r.iter().all(|&x| x == 0.0));
        row("default_embedding_padding_idx", v(json!(none)));
    }
    row("default_rnn_nonlinearity", v(lower(format!("{:?}", default_rnn_nonlinearity::read()))));
    let _: fn(usize, usize, bool) -> burn::nn::RnnConfig = default_rnn_bias::config;
    row("default_rnn_bias", v(Value::Null));
    row("default_rnn_batch_first", v(json!(default_rnn_batch_first::read())));
    let _: fn(usize, usize, bool) -> burn::nn::LstmConfig = default_lstm_bias::config;
    row("default_lstm_bias", v(Value::Null));
    row("default_lstm_batch_first", v(json!(default_lstm_batch_first::read())));
    {
        // batch_first read from behaviour: dim 0 is the batch when sample 0 does not reach output 1.
        let x = || data([2, 3, 4], 0.0, &d);
        let gru = default_gru_batch_first::build(&d);
        let x3 = data([2, 5, 3], 0.0, &d);
        row("default_gru_batch_first", v(json!(dim0_is_batch(|x| default_gru_batch_first::forward(&gru, x), x3))));
        row("default_mha_dropout", v(json!(default_mha_dropout::read())));
        let mha = default_mha_batch_first::build(&d);
        row("default_mha_batch_first", v(json!(dim0_is_batch(|x| default_mha_batch_first::forward(&mha, x), x()))));
        row("default_mha_bias", v(json!(default_mha_bias::read().iter().all(|&b| b))));
        row("default_transformer_dropout", v(json!(default_transformer_dropout::read())));
        row("default_transformer_activation", v(lower(format!("{:?}", default_transformer_activation::read()))));
        row("default_transformer_norm_first", v(json!(default_transformer_norm_first::read())));
        row("default_transformer_layer_norm_eps", v(json!(default_transformer_layer_norm_eps::read())));
        let _: fn(usize, usize, usize, usize) -> burn::nn::transformer::TransformerEncoderConfig =
            default_transformer_dim_feedforward::config;
        row("default_transformer_dim_feedforward", v(Value::Null));
        let enc = default_transformer_batch_first::build(&d);
        row("default_transformer_batch_first",
            v(json!(dim0_is_batch(|x| default_transformer_batch_first::forward(&enc, x), x()))));
    }
    row("default_leaky_relu_negative_slope", v(json!(default_leaky_relu_negative_slope::read())));
    row("default_elu_alpha", v(json!(default_elu_alpha::read())));
    row("default_gelu_approximate", v(json!(if default_gelu_approximate::read() { "tanh" } else { "none" })));
    let (n, alpha) = default_prelu_init::read();
    row("default_prelu_init", v(json!([n, alpha])));
    let (beta, threshold) = default_softplus_beta_threshold::read();
    row("default_softplus_beta_threshold", v(json!([beta, threshold])));
    let (lo, hi) = default_hardtanh_range::read();
    row("default_hardtanh_range", v(json!([lo, hi])));
    row("default_interpolate_mode", v(lower(format!("{:?}", default_interpolate_mode::read()))));
    row("default_interpolate_align_corners", v(json!(default_interpolate_align_corners::read())));
}

mod default_linear_bias {
    use burn::nn::LinearConfig;

    pub fn read() -> bool {
        LinearConfig::new(4, 3).bias
    }
}

mod default_conv2d_bias {
    use burn::nn::conv::Conv2dConfig;

    pub fn read() -> bool {
        Conv2dConfig::new([2, 3], [3, 3]).bias
    }
}

mod default_conv2d_stride {
    use burn::nn::conv::Conv2dConfig;

    pub fn read() -> [usize; 2] {
        Conv2dConfig::new([2, 3], [3, 3]).stride
    }
}

mod default_conv2d_padding {
    use burn::nn::conv::Conv2dConfig;
    use burn::nn::PaddingConfig2d;

    pub fn read() -> PaddingConfig2d {
        Conv2dConfig::new([2, 3], [3, 3]).padding
    }
}

mod default_conv2d_dilation {
    use burn::nn::conv::Conv2dConfig;

    pub fn read() -> [usize; 2] {
        Conv2dConfig::new([2, 3], [3, 3]).dilation
    }
}

mod default_conv2d_groups {
    use burn::nn::conv::Conv2dConfig;

    pub fn read() -> usize {
        Conv2dConfig::new([2, 3], [3, 3]).groups
    }
}

mod default_conv2d_padding_mode {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // 没有 padding_mode：Conv2d 的 padding 总是补 0；别的补法先对输入 x.pad(..)
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init(d)
    }
}

mod default_conv_transpose2d_output_padding {
    use burn::nn::conv::ConvTranspose2dConfig;

    pub fn read() -> [usize; 2] {
        ConvTranspose2dConfig::new([2, 3], [3, 3]).padding_out
    }
}

mod default_maxpool2d_stride {
    use burn::nn::pool::MaxPool2dConfig;

    pub fn read() -> [usize; 2] {
        MaxPool2dConfig::new([3, 3]).strides
    }
}

mod default_maxpool2d_padding {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::nn::PaddingConfig2d;

    pub fn read() -> PaddingConfig2d {
        MaxPool2dConfig::new([3, 3]).padding
    }
}

mod default_maxpool2d_ceil_mode {
    use burn::nn::pool::MaxPool2dConfig;

    pub fn read() -> bool {
        MaxPool2dConfig::new([3, 3]).ceil_mode
    }
}

mod default_avgpool2d_count_include_pad {
    use burn::nn::pool::AvgPool2dConfig;

    pub fn read() -> bool {
        AvgPool2dConfig::new([3, 3]).count_include_pad
    }
}

mod default_avgpool2d_ceil_mode {
    use burn::nn::pool::AvgPool2dConfig;

    pub fn read() -> bool {
        AvgPool2dConfig::new([3, 3]).ceil_mode
    }
}

mod default_batchnorm_eps {
    use burn::nn::BatchNormConfig;

    pub fn read() -> f64 {
        BatchNormConfig::new(3).epsilon
    }
}

mod default_batchnorm_momentum {
    use burn::nn::BatchNormConfig;

    pub fn read() -> f64 {
        BatchNormConfig::new(3).momentum
    }
}

mod default_batchnorm_affine {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    // 没有 affine：gamma、beta 总在，是可学的参数
    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }
}

mod default_batchnorm_track_running_stats {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    // 没有 track_running_stats：running_mean、running_var 总在，训练时的 forward 总会更新它们
    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }
}

mod default_layernorm_eps {
    use burn::nn::LayerNormConfig;

    pub fn read() -> f64 {
        LayerNormConfig::new(4).epsilon
    }
}

mod default_layernorm_elementwise_affine {
    use burn::nn::{LayerNorm, LayerNormConfig};
    use burn::prelude::*;

    // 没有 elementwise_affine：gamma 总在，是可学的参数（beta 由 bias 控制）
    pub fn build(d: &Device) -> LayerNorm {
        LayerNormConfig::new(4).init(d)
    }
}

mod default_layernorm_bias {
    use burn::nn::LayerNormConfig;

    pub fn read() -> bool {
        LayerNormConfig::new(4).bias
    }
}

mod default_groupnorm_eps {
    use burn::nn::GroupNormConfig;

    pub fn read() -> f64 {
        GroupNormConfig::new(2, 4).epsilon
    }
}

mod default_groupnorm_affine {
    use burn::nn::GroupNormConfig;

    pub fn read() -> bool {
        GroupNormConfig::new(2, 4).affine
    }
}

mod default_instancenorm_affine {
    use burn::nn::InstanceNormConfig;

    pub fn read() -> bool {
        InstanceNormConfig::new(3).affine
    }
}

mod default_dropout_p {
    use burn::nn::DropoutConfig;

    // prob 没有默认值：它是 DropoutConfig::new 的必填参数
    pub fn config(prob: f64) -> DropoutConfig {
        DropoutConfig::new(prob)
    }
}

mod default_embedding_padding_idx {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    // 没有 padding_idx：每一行都照常查表、照常拿梯度
    pub fn build(d: &Device) -> Embedding {
        EmbeddingConfig::new(5, 3).init(d)
    }

    pub fn forward(m: &Embedding, ids: Tensor<2, Int>) -> Tensor<3> {
        m.forward(ids)
    }
}

mod default_rnn_nonlinearity {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::RnnConfig;

    pub fn read() -> ActivationConfig {
        RnnConfig::new(3, 4, true).hidden_activation
    }
}

mod default_rnn_bias {
    use burn::nn::RnnConfig;

    // bias 没有默认值：它是 RnnConfig::new 的必填参数
    pub fn config(d_input: usize, d_hidden: usize, bias: bool) -> RnnConfig {
        RnnConfig::new(d_input, d_hidden, bias)
    }
}

mod default_rnn_batch_first {
    use burn::nn::RnnConfig;

    pub fn read() -> bool {
        RnnConfig::new(3, 4, true).batch_first
    }
}

mod default_lstm_bias {
    use burn::nn::LstmConfig;

    // bias 没有默认值：它是 LstmConfig::new 的必填参数
    pub fn config(d_input: usize, d_hidden: usize, bias: bool) -> LstmConfig {
        LstmConfig::new(d_input, d_hidden, bias)
    }
}

mod default_lstm_batch_first {
    use burn::nn::LstmConfig;

    pub fn read() -> bool {
        LstmConfig::new(3, 4, true).batch_first
    }
}

mod default_gru_batch_first {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    // GruConfig 没有 batch_first：forward 只收 [batch, seq, d]
    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &Gru, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None)
    }
}

mod default_mha_dropout {
    use burn::nn::attention::MultiHeadAttentionConfig;

    pub fn read() -> f64 {
        MultiHeadAttentionConfig::new(4, 2).dropout
    }
}

mod default_mha_batch_first {
    use burn::nn::attention::{MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
    use burn::prelude::*;

    // 没有 batch_first：MhaInput 只收 [batch, seq, d_model]
    pub fn build(d: &Device) -> MultiHeadAttention {
        MultiHeadAttentionConfig::new(4, 2).init(d)
    }

    pub fn forward(m: &MultiHeadAttention, x: Tensor<3>) -> Tensor<3> {
        m.forward(MhaInput::self_attn(x)).context
    }
}

mod default_mha_bias {
    use burn::nn::attention::MultiHeadAttentionConfig;

    // 四个 Linear 各有一个开关
    pub fn read() -> [bool; 4] {
        let c = MultiHeadAttentionConfig::new(4, 2);
        [c.query_bias, c.key_bias, c.value_bias, c.output_bias]
    }
}

mod default_transformer_dropout {
    use burn::nn::transformer::TransformerEncoderConfig;

    // d_ff 没有默认值，这里随便给一个
    pub fn read() -> f64 {
        TransformerEncoderConfig::new(4, 2048, 2, 1).dropout
    }
}

mod default_transformer_activation {
    use burn::nn::activation::ActivationConfig;
    use burn::nn::transformer::TransformerEncoderConfig;

    pub fn read() -> ActivationConfig {
        TransformerEncoderConfig::new(4, 2048, 2, 1).activation
    }
}

mod default_transformer_norm_first {
    use burn::nn::transformer::TransformerEncoderConfig;

    pub fn read() -> bool {
        TransformerEncoderConfig::new(4, 2048, 2, 1).norm_first
    }
}

mod default_transformer_layer_norm_eps {
    use burn::nn::transformer::TransformerEncoderConfig;

    pub fn read() -> f64 {
        TransformerEncoderConfig::new(4, 2048, 2, 1).layer_norm_eps
    }
}

mod default_transformer_dim_feedforward {
    use burn::nn::transformer::TransformerEncoderConfig;

    // d_ff 没有默认值：它是 TransformerEncoderConfig::new 的必填参数
    pub fn config(
        d_model: usize,
        d_ff: usize,
        n_heads: usize,
        n_layers: usize,
    ) -> TransformerEncoderConfig {
        TransformerEncoderConfig::new(d_model, d_ff, n_heads, n_layers)
    }
}

mod default_transformer_batch_first {
    use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
    use burn::prelude::*;

    // 没有 batch_first：编码器只收 [batch, seq, d_model]
    pub fn build(d: &Device) -> TransformerEncoderLayer {
        TransformerEncoderLayer::new(&TransformerEncoderConfig::new(4, 8, 2, 1), d)
    }

    pub fn forward(m: &TransformerEncoderLayer, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None, None)
    }
}

mod default_leaky_relu_negative_slope {
    use burn::nn::LeakyReluConfig;

    pub fn read() -> f64 {
        LeakyReluConfig::new().negative_slope
    }
}

mod default_elu_alpha {
    use burn::nn::EluConfig;

    pub fn read() -> f64 {
        EluConfig::new().alpha
    }
}

mod default_gelu_approximate {
    use burn::nn::Gelu;

    // true = tanh 近似
    pub fn read() -> bool {
        Gelu::new().approximate
    }
}

mod default_prelu_init {
    use burn::nn::PReluConfig;

    // (num_parameters, alpha)
    pub fn read() -> (usize, f64) {
        let c = PReluConfig::new();
        (c.num_parameters, c.alpha)
    }
}

mod default_softplus_beta_threshold {
    use burn::nn::SoftplusConfig;

    pub fn read() -> (f64, f64) {
        let c = SoftplusConfig::new();
        (c.beta, c.threshold)
    }
}

mod default_hardtanh_range {
    use burn::nn::activation::HardtanhConfig;

    pub fn read() -> (f64, f64) {
        let c = HardtanhConfig::new();
        (c.min_val, c.max_val)
    }
}

mod default_interpolate_mode {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};

    pub fn read() -> InterpolateMode {
        Interpolate2dConfig::new().mode
    }
}

mod default_interpolate_align_corners {
    use burn::nn::interpolate::Interpolate2dConfig;

    pub fn read() -> bool {
        Interpolate2dConfig::new().align_corners
    }
}
