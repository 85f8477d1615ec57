//! The torch → burn map, rows of modules, initialisers, schedulers, data utilities and
//! training-loop APIs: one inline module per row of ref-8-modules.yaml's table (the code the
//! page shows), and main() below them, which builds the inputs, overwrites the weights with
//! PyTorch's, runs the backward and prints the JSON. Element k of a tensor with phase p is
//! 0.5·sin(k + 1 + p), in f64, rounded to f32 once; backward rows use L = sum(y · G), G of
//! phase 50. The same numbers as experiments/reference/ref_modules.py.
use burn::data::dataset::{Dataset, InMemDataset};
use burn::lr_scheduler::LrScheduler;
use burn::module::{Param, RunningState};
use burn::nn::attention::MultiHeadAttention;
use burn::nn::transformer::{TransformerDecoderLayer, TransformerEncoderLayer};
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, GateController, LayerNorm, LayerNormConfig, Linear, Lstm};
use burn::prelude::*;
use burn::tensor::Gradients;
use serde_json::{json, Map, Value};

// ---- Transformer 解码器

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

// ---- 卷积、池化与其他层

mod conv_transpose1d {
    use burn::nn::conv::{ConvTranspose1d, ConvTranspose1dConfig};
    use burn::prelude::*;

    // weight 两边都是 [in, out / groups, k]
    pub fn build(d: &Device) -> ConvTranspose1d {
        ConvTranspose1dConfig::new([2, 3], 3)
            .with_stride(2)
            .with_padding(1)
            .with_padding_out(1)
            .init(d)
    }

    pub fn forward(m: &ConvTranspose1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod maxpool1d {
    use burn::nn::pool::{MaxPool1d, MaxPool1dConfig};
    use burn::nn::PaddingConfig1d;
    use burn::prelude::*;

    pub fn build() -> MaxPool1d {
        MaxPool1dConfig::new(3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init()
    }

    pub fn forward(m: &MaxPool1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod avgpool1d {
    use burn::nn::pool::{AvgPool1d, AvgPool1dConfig};
    use burn::nn::PaddingConfig1d;
    use burn::prelude::*;

    // count_include_pad 默认 true，和 PyTorch 一样
    pub fn build() -> AvgPool1d {
        AvgPool1dConfig::new(3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init()
    }

    pub fn forward(m: &AvgPool1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod adaptive_avg_pool1d {
    use burn::nn::pool::{AdaptiveAvgPool1d, AdaptiveAvgPool1dConfig};
    use burn::prelude::*;

    pub fn build() -> AdaptiveAvgPool1d {
        AdaptiveAvgPool1dConfig::new(3).init()
    }

    pub fn forward(m: &AdaptiveAvgPool1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod upsample_nearest {
    use burn::nn::interpolate::{Interpolate2d, Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn build() -> Interpolate2d {
        Interpolate2dConfig::new()
            .with_scale_factor(Some([2.0, 2.0]))
            .with_mode(InterpolateMode::Nearest)
            .init()
    }

    pub fn forward(m: &Interpolate2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod upsample_bilinear {
    use burn::nn::interpolate::{Interpolate2d, Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // align_corners 要写明：Interpolate2dConfig 默认是 true
    pub fn build() -> Interpolate2d {
        Interpolate2dConfig::new()
            .with_scale_factor(Some([2.0, 2.0]))
            .with_mode(InterpolateMode::Linear)
            .with_align_corners(false)
            .init()
    }

    pub fn forward(m: &Interpolate2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod flatten {
    use burn::prelude::*;

    // 没有 Flatten 模块：nn.Flatten() 是 start_dim=1、end_dim=-1
    pub fn forward(x: Tensor<4>) -> Tensor<2> {
        x.flatten(1, 3)
    }
}

mod identity {
    use burn::nn::Identity;
    use burn::prelude::*;

    pub fn forward(x: Tensor<2>) -> Tensor<2> {
        Identity::new().forward(x)
    }
}

mod cosine_similarity {
    use burn::nn::{CosineSimilarity, CosineSimilarityConfig};
    use burn::prelude::*;

    pub fn build() -> CosineSimilarity {
        CosineSimilarityConfig::new().with_dim(1).init() // eps 默认 1e-8
    }

    pub fn forward(m: &CosineSimilarity, x1: Tensor<2>, x2: Tensor<2>) -> Tensor<1> {
        m.forward(x1, x2)
    }
}

// ---- 归一化与 Dropout

mod dropout2d {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有 Dropout2d：每个 (样本, 通道) 抽一次保留与否，整张特征图一起置零；
    // 和 burn 的 Dropout 一样，只在 autodiff 设备上丢弃（valid() 之后不丢）
    #[derive(Module, Debug)]
    pub struct Dropout2d {
        pub prob: f64,
    }

    impl Dropout2d {
        pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
            if !x.device().is_autodiff() || self.prob == 0.0 {
                return x;
            }
            let [n, c, h, w] = x.dims();
            let keep = 1.0 - self.prob;
            let mask = Tensor::<4>::random([n, c, 1, 1], Distribution::Bernoulli(keep), &x.device());
            x * mask.expand([n, c, h, w]) / keep
        }
    }
}

mod rms_norm {
    use burn::nn::{RmsNorm, RmsNormConfig};
    use burn::prelude::*;

    // weight 叫 gamma
    pub fn build(d: &Device) -> RmsNorm {
        RmsNormConfig::new(4).with_epsilon(1e-5).init(d)
    }

    pub fn forward(m: &RmsNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod rms_norm_default_eps {
    use burn::nn::{RmsNorm, RmsNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> RmsNorm {
        RmsNormConfig::new(4).init(d) // epsilon 默认 1e-5
    }

    pub fn forward(m: &RmsNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod rms_norm_default_eps_fix {
    use burn::nn::{RmsNorm, RmsNormConfig};
    use burn::prelude::*;

    // PyTorch 的 eps=None 取 torch.finfo(x.dtype).eps，f32 是 2^-23
    pub fn build(d: &Device) -> RmsNorm {
        RmsNormConfig::new(4).with_epsilon(f32::EPSILON as f64).init(d)
    }

    pub fn forward(m: &RmsNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

// ---- Embedding

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

// ---- 组合模块与参数

mod sequential {
    use burn::nn::{Linear, LinearConfig, Relu};
    use burn::prelude::*;

    // nn.Sequential 就是一个 Module 结构体，forward 里按顺序调用
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Relu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp {
                fc1: LinearConfig::new(4, 8).init(d),
                act: Relu::new(),
                fc2: LinearConfig::new(8, 3).init(d),
            }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            let x = self.fc1.forward(x);
            let x = self.act.forward(x);
            self.fc2.forward(x)
        }
    }
}

mod module_list {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::tensor::activation::relu;

    // nn.ModuleList ↔ Vec<Linear>：参数名是 layers.0.weight、layers.1.weight……
    #[derive(Module, Debug)]
    pub struct Stack {
        pub layers: Vec<Linear>,
    }

    impl Stack {
        pub fn new(d: &Device) -> Self {
            Stack { layers: (0..3).map(|_| LinearConfig::new(4, 4).init(d)).collect() }
        }

        pub fn forward(&self, mut x: Tensor<2>) -> Tensor<2> {
            for layer in &self.layers {
                x = relu(layer.forward(x));
            }
            x
        }
    }
}

mod parameter {
    use burn::module::Param;
    use burn::prelude::*;

    // nn.Parameter ↔ Param<Tensor<D>>：可学的位置编码
    #[derive(Module, Debug)]
    pub struct PosEmb {
        pub pos: Param<Tensor<3>>,
    }

    impl PosEmb {
        pub fn new(d: &Device) -> Self {
            PosEmb { pos: Param::from_tensor(Tensor::zeros([1, 3, 4], d)) }
        }

        pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
            x + self.pos.val()
        }
    }
}

mod register_buffer {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    // 普通的 Tensor 字段：不是参数、不求梯度、不进记录（into_record / save_file），
    // 相当于 persistent=False 的 buffer；要存进文件的状态用 RunningState<Tensor<D>>
    #[derive(Module, Debug)]
    pub struct Masked {
        pub lin: Linear,
        pub mask: Tensor<2>,
    }

    impl Masked {
        pub fn new(d: &Device) -> Self {
            Masked { lin: LinearConfig::new(4, 4).init(d), mask: Tensor::ones([3, 3], d).tril(0) }
        }

        pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
            let h = self.lin.forward(x);
            h.clone().matmul(h.swap_dims(1, 2)) * self.mask.clone().unsqueeze()
        }
    }
}

mod weight_tying {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    // head.weight = emb.weight：不另建 Linear，直接用 Embedding 的 weight 乘回去，
    // 两处的梯度都落在这一个参数上
    #[derive(Module, Debug)]
    pub struct TiedLm {
        pub emb: Embedding,
    }

    impl TiedLm {
        pub fn new(d: &Device) -> Self {
            TiedLm { emb: EmbeddingConfig::new(5, 4).init(d) }
        }

        pub fn forward(&self, ids: Tensor<2, Int>) -> Tensor<3> {
            let h = self.emb.forward(ids); // [batch, seq, d_model]
            h.matmul(self.emb.weight.val().transpose().unsqueeze()) // W: [vocab, d_model]
        }
    }
}

// ---- 训练与推理模式

mod num_params {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Cnn {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub fc: Linear,
    }

    impl Cnn {
        pub fn new(d: &Device) -> Self {
            Cnn {
                conv: Conv2dConfig::new([3, 8], [3, 3]).init(d),
                bn: BatchNormConfig::new(8).init(d),
                fc: LinearConfig::new(8, 10).init(d),
            }
        }
    }

    pub fn count(m: &Cnn) -> usize {
        m.num_params()
    }
}

mod num_params_trainable {
    use burn::module::{ModuleVisitor, Param};
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Cnn {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub fc: Linear,
    }

    impl Cnn {
        pub fn new(d: &Device) -> Self {
            Cnn {
                conv: Conv2dConfig::new([3, 8], [3, 3]).init(d),
                bn: BatchNormConfig::new(8).init(d),
                fc: LinearConfig::new(8, 10).init(d),
            }
        }
    }

    // 只数要梯度的张量：模块在 autodiff 设备上时，BatchNorm 的 running_mean、running_var
    // 和冻结的参数都不要梯度
    struct Trainable(usize);

    impl ModuleVisitor for Trainable {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let t = param.val();
            if t.is_require_grad() {
                self.0 += t.shape().num_elements();
            }
        }
    }

    pub fn count(m: &Cnn) -> usize {
        let mut v = Trainable(0);
        m.visit(&mut v);
        v.0
    }

    // d 是 autodiff 设备；返回冻结 conv 之前、之后的个数
    pub fn run(d: &Device) -> [usize; 2] {
        let m = Cnn::new(d);
        let before = count(&m);
        let m = Cnn { conv: m.conv.no_grad(), ..m };
        [before, count(&m)]
    }
}

mod model_eval {
    use burn::nn::{BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Model {
        pub fc1: Linear,
        pub drop: Dropout,
        pub bn: BatchNorm,
        pub fc2: Linear,
    }

    impl Model {
        pub fn new(d: &Device) -> Self {
            Model {
                fc1: LinearConfig::new(4, 8).init(d),
                drop: DropoutConfig::new(0.5).init(),
                bn: BatchNormConfig::new(8).init(d),
                fc2: LinearConfig::new(8, 3).init(d),
            }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.bn.forward(self.drop.forward(self.fc1.forward(x))))
        }
    }

    // model.eval(); model(x)：valid() 返回一份没有 autodiff 的副本，Dropout 不丢、
    // BatchNorm 用 running 统计量；输入放在不带 autodiff 的设备上
    pub fn predict(model: &Model, x: Tensor<2>) -> Tensor<2> {
        model.valid().forward(x.without_autodiff())
    }
}

mod model_train_toggle {
    use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Model {
        pub fc: Linear,
        pub drop: Dropout,
    }

    impl Model {
        pub fn new(d: &Device) -> Self {
            Model { fc: LinearConfig::new(4, 8).init(d), drop: DropoutConfig::new(0.5).init() }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.drop.forward(self.fc.forward(x))
        }
    }

    // eval() ↔ valid()：返回副本，原来的模型不变；train() 把副本送回 autodiff 设备，
    // Dropout 重新生效。x 在 autodiff 设备上
    pub fn toggle(model: Model, x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let eval = model.valid();
        let y_eval = eval.forward(x.clone().without_autodiff());
        let train = eval.train();
        let y_train = train.forward(x);
        (y_eval, y_train)
    }
}

// ---- 初始化

mod init_trunc_normal {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有截断正态：先抽正态，落在 [a, b] 外的位置重抽，直到都在里面
    pub fn trunc_normal<const D: usize>(shape: [usize; D], mean: f64, std: f64, a: f64, b: f64, d: &Device) -> Tensor<D> {
        let mut t = Tensor::<D>::random(shape, Distribution::Normal(mean, std), d);
        loop {
            let outside = t.clone().lower_elem(a).bool_or(t.clone().greater_elem(b));
            if !outside.clone().any().into_scalar::<bool>() {
                return t;
            }
            let redraw = Tensor::<D>::random(shape, Distribution::Normal(mean, std), d);
            t = t.mask_where(outside, redraw);
        }
    }
}

mod init_trunc_normal_std {
    use burn::module::Param;
    use burn::nn::Initializer;
    use burn::prelude::*;

    // a=-2、b=2 是绝对值，std=0.02 时截在 ±100σ，等于没截：就是正态
    pub fn init(d: &Device) -> Param<Tensor<2>> {
        Initializer::Normal { mean: 0.0, std: 0.02 }.init([1024, 64], d)
    }
}

mod init_orthogonal {
    use burn::module::Param;
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn init(d: &Device) -> Param<Tensor<2>> {
        Initializer::Orthogonal { gain: 1.0 }.init([4, 6], d)
    }
}

mod module_apply_init {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Initializer};
    use burn::prelude::*;

    // 没有 model.apply(fn)：初始化写进各层的 Config；BatchNorm 的 gamma 没有
    // initializer 选项，直接换掉这个参数（beta 本来就是 0）
    pub fn build(d: &Device) -> (Conv2d, BatchNorm) {
        let conv = Conv2dConfig::new([64, 128], [4, 4])
            .with_bias(false)
            .with_initializer(Initializer::Normal { mean: 0.0, std: 0.02 })
            .init(d);
        let mut bn = BatchNormConfig::new(4096).init(d);
        bn.gamma = Initializer::Normal { mean: 1.0, std: 0.02 }.init([4096], d);
        (conv, bn)
    }
}

mod module_map_init {
    use burn::module::{ModuleMapper, Param};
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Initializer};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Net {
        pub conv: Conv2d,
        pub bn: BatchNorm,
    }

    /// model.apply(weights_init)：Module::map 把每个参数交给它。进入每个字段时 enter_module
    /// 收到字段名和它所在结构体的类型（"weight"、"Struct:Conv2d"），按这两样决定怎么初始化
    #[derive(Default)]
    pub struct WeightsInit {
        path: Vec<(String, String)>,
    }

    impl ModuleMapper for WeightsInit {
        fn enter_module(&mut self, name: &str, container_type: &str) {
            self.path.push((name.to_string(), container_type.to_string()));
        }

        fn exit_module(&mut self, _name: &str, _container_type: &str) {
            self.path.pop();
        }

        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let init = match self.path.last().map(|(n, t)| (n.as_str(), t.as_str())) {
                Some(("weight", "Struct:Conv2d")) => Initializer::Normal { mean: 0.0, std: 0.02 },
                Some(("gamma", "Struct:BatchNorm")) => Initializer::Normal { mean: 1.0, std: 0.02 },
                Some(("beta", "Struct:BatchNorm")) => Initializer::Zeros,
                _ => return param,
            };
            let value = param.val();
            let fresh: Param<Tensor<D>> = init.init(value.dims(), &value.device());
            Param::initialized(param.id, fresh.val())
        }
    }

    pub fn build(d: &Device) -> Net {
        let net = Net {
            conv: Conv2dConfig::new([64, 128], [4, 4]).with_bias(false).init(d),
            bn: BatchNormConfig::new(4096).init(d),
        };
        net.map(&mut WeightsInit::default())
    }
}

mod named_parameters {
    use burn::module::{ModuleVisitor, Param};
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Net {
        pub fc1: Linear,
        pub fc2: Linear,
    }

    /// model.named_parameters()：ModuleVisitor 进出每个字段时记下名字，visit_float 时拼成路径
    #[derive(Default)]
    pub struct Named {
        path: Vec<String>,
        pub found: Vec<(String, usize)>,
    }

    impl ModuleVisitor for Named {
        fn enter_module(&mut self, name: &str, _container_type: &str) {
            self.path.push(name.to_string());
        }

        fn exit_module(&mut self, _name: &str, _container_type: &str) {
            self.path.pop();
        }

        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.found.push((self.path.join("."), param.val().shape().num_elements()));
        }
    }

    pub fn run(d: &Device) -> Vec<(String, usize)> {
        let net = Net { fc1: LinearConfig::new(4, 3).init(d), fc2: LinearConfig::new(3, 2).init(d) };
        let mut named = Named::default();
        net.visit(&mut named);
        named.found
    }
}

// ---- 学习率调度：每一步先调 step()，它返回这一步要用的学习率

mod multistep_lr {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::sequential::SequentialLrSchedulerConfig;
    use burn::lr_scheduler::LrSchedulerConfig;

    // milestones=[3, 7], gamma=0.1：三段常数学习率，在第 3、7 步换段
    pub fn build() -> ModuleLrScheduler {
        SequentialLrSchedulerConfig::new(
            vec![LrSchedulerConfig::Constant(0.1), LrSchedulerConfig::Constant(0.01), LrSchedulerConfig::Constant(0.001)],
            vec![3, 7],
        )
        .init()
        .unwrap()
    }
}

mod lambda_lr {
    use burn::lr_scheduler::{LrScheduler, LrSchedulerRecord};
    use std::sync::Arc;

    // 没有 LambdaLR：lr = base_lr · f(第几步)。实现 LrScheduler，就能交给
    // ModuleLrScheduler::new(..) 或 Learner
    #[derive(Clone)]
    pub struct LambdaLr {
        base_lr: f64,
        f: Arc<dyn Fn(usize) -> f64 + Send + Sync>,
        step: usize,
    }

    impl LambdaLr {
        pub fn new(base_lr: f64, f: impl Fn(usize) -> f64 + Send + Sync + 'static) -> Self {
            LambdaLr { base_lr, f: Arc::new(f), step: 0 }
        }
    }

    impl LrScheduler for LambdaLr {
        fn step(&mut self) -> f64 {
            let lr = self.base_lr * (self.f)(self.step);
            self.step += 1;
            lr
        }

        fn to_record(&self) -> LrSchedulerRecord {
            LrSchedulerRecord::new().with_scalar("step", self.step as u64)
        }

        fn load_record(&mut self, record: LrSchedulerRecord) {
            if let Some(step) = record.scalar::<u64>("step") {
                self.step = step as usize;
            }
        }
    }

    // 预热 3 步，再线性降到第 12 步为 0（transformers 的 get_linear_schedule_with_warmup）
    pub fn build() -> LambdaLr {
        LambdaLr::new(0.1, |s| {
            if s < 3 {
                s as f64 / 3.0
            } else {
                ((12.0 - s as f64) / (12.0 - 3.0)).max(0.0)
            }
        })
    }
}

mod one_cycle_lr {
    use burn::lr_scheduler::{LrScheduler, LrSchedulerRecord};
    use std::f64::consts::PI;

    // 没有 OneCycleLR：两段余弦，initial = max_lr / div_factor 升到 max_lr，
    // 再降到 initial / final_div_factor（three_phase=False，anneal_strategy='cos'）
    #[derive(Clone, Debug)]
    pub struct OneCycleLr {
        pub max_lr: f64,
        pub total_steps: usize,
        pub pct_start: f64,
        pub div_factor: f64,
        pub final_div_factor: f64,
        step: usize,
    }

    impl OneCycleLr {
        pub fn new(max_lr: f64, total_steps: usize, pct_start: f64) -> Self {
            OneCycleLr { max_lr, total_steps, pct_start, div_factor: 25.0, final_div_factor: 1e4, step: 0 }
        }
    }

    fn anneal(start: f64, end: f64, pct: f64) -> f64 {
        end + (start - end) / 2.0 * ((PI * pct).cos() + 1.0)
    }

    impl LrScheduler for OneCycleLr {
        fn step(&mut self) -> f64 {
            let initial = self.max_lr / self.div_factor;
            let min = initial / self.final_div_factor;
            let up_end = self.pct_start * self.total_steps as f64 - 1.0;
            let down_end = self.total_steps as f64 - 1.0;
            let t = self.step as f64;
            self.step += 1;
            if t <= up_end {
                anneal(initial, self.max_lr, t / up_end)
            } else {
                anneal(self.max_lr, min, (t - up_end) / (down_end - up_end))
            }
        }

        fn to_record(&self) -> LrSchedulerRecord {
            LrSchedulerRecord::new().with_scalar("step", self.step as u64)
        }

        fn load_record(&mut self, record: LrSchedulerRecord) {
            if let Some(step) = record.scalar::<u64>("step") {
                self.step = step as usize;
            }
        }
    }
}

mod reduce_lr_on_plateau {
    use burn::optim::LearningRate;

    // 没有 ReduceLROnPlateau（LrScheduler::step 不收指标）：每个 epoch 用验证损失调一次 step，
    // 连续 patience 次没有变好（相对阈值 1e-4，mode='min'）就乘 factor
    #[derive(Clone, Debug)]
    pub struct ReduceLrOnPlateau {
        pub lr: LearningRate,
        pub factor: f64,
        pub patience: usize,
        pub threshold: f64,
        pub min_lr: f64,
        best: f64,
        bad_epochs: usize,
    }

    impl ReduceLrOnPlateau {
        pub fn new(lr: LearningRate, factor: f64, patience: usize) -> Self {
            ReduceLrOnPlateau { lr, factor, patience, threshold: 1e-4, min_lr: 0.0, best: f64::INFINITY, bad_epochs: 0 }
        }

        pub fn step(&mut self, metric: f64) -> LearningRate {
            if metric < self.best * (1.0 - self.threshold) {
                self.best = metric;
                self.bad_epochs = 0;
            } else {
                self.bad_epochs += 1;
            }
            if self.bad_epochs > self.patience {
                let new_lr = (self.lr * self.factor).max(self.min_lr);
                if self.lr - new_lr > 1e-8 {
                    self.lr = new_lr;
                }
                self.bad_epochs = 0;
            }
            self.lr
        }
    }
}

mod cosine_warm_restarts {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::sequential::SequentialLrSchedulerConfig;

    // T_0=4, T_mult=2：周期 4、8、16 步，每个周期从头走一遍余弦；里程碑是周期的累计长度
    pub fn build() -> ModuleLrScheduler {
        let cycle = |n| CosineAnnealingLrSchedulerConfig::new(0.1, n).with_min_lr(0.001).into();
        SequentialLrSchedulerConfig::new(vec![cycle(4), cycle(8), cycle(16)], vec![4, 12])
            .init()
            .unwrap()
    }
}

mod sequential_lr {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::linear::LinearLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::sequential::SequentialLrSchedulerConfig;

    // 预热：LinearLR(start_factor=0.1, total_iters=3)；第 3 步起：CosineAnnealingLR(T_max=9)
    pub fn build() -> ModuleLrScheduler {
        SequentialLrSchedulerConfig::new(
            vec![
                LinearLrSchedulerConfig::new(0.01, 0.1, 3).into(),
                CosineAnnealingLrSchedulerConfig::new(0.1, 9).with_min_lr(0.001).into(),
            ],
            vec![3],
        )
        .init()
        .unwrap()
    }
}

mod noam_lr {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::noam::NoamLrSchedulerConfig;

    // factor · d_model^-0.5 · min(t^-0.5, t · warmup^-1.5)，t 从 1 起
    pub fn build() -> ModuleLrScheduler {
        NoamLrSchedulerConfig::new(1.0).with_warmup_steps(4).with_model_size(16).init().unwrap()
    }
}

// ---- 数据集与采样

mod random_split_lengths {
    use burn::data::dataset::transform::{PartialDataset, ShuffledDataset};
    use burn::data::dataset::InMemDataset;
    use std::sync::Arc;

    pub type Part = PartialDataset<Arc<ShuffledDataset<InMemDataset<i64>, i64>>, i64>;

    // 按种子打乱一次，再切成 [0, 7) 和 [7, 10)
    pub fn split(ds: InMemDataset<i64>, seed: u64) -> (Part, Part) {
        let shuffled = Arc::new(ShuffledDataset::new(ds, seed));
        (PartialDataset::new(shuffled.clone(), 0, 7), PartialDataset::new(shuffled, 7, 10))
    }
}

mod random_split_fractions {
    use burn::data::dataset::transform::{PartialDataset, ShuffledDataset};
    use burn::data::dataset::{Dataset, InMemDataset};
    use std::sync::Arc;

    pub type Part = PartialDataset<Arc<ShuffledDataset<InMemDataset<i64>, i64>>, i64>;

    // 比例先换成长度：各自向下取整，余下的从第一份起轮流加 1（和 random_split 一样）
    pub fn lengths(n: usize, fractions: &[f64]) -> Vec<usize> {
        let mut lens: Vec<usize> = fractions.iter().map(|f| (f * n as f64).floor() as usize).collect();
        let rest = n - lens.iter().sum::<usize>();
        for i in 0..rest {
            let k = i % lens.len();
            lens[k] += 1;
        }
        lens
    }

    pub fn split(ds: InMemDataset<i64>, fractions: &[f64], seed: u64) -> Vec<Part> {
        let lens = lengths(ds.len(), fractions);
        let shuffled = Arc::new(ShuffledDataset::new(ds, seed));
        let mut start = 0;
        lens.into_iter()
            .map(|len| {
                let part = PartialDataset::new(shuffled.clone(), start, start + len);
                start += len;
                part
            })
            .collect()
    }
}

mod subset {
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::InMemDataset;

    pub fn subset(ds: InMemDataset<i64>, indices: Vec<usize>) -> SelectionDataset<InMemDataset<i64>, i64> {
        SelectionDataset::from_indices_checked(ds, indices)
    }
}

mod concat_dataset {
    use burn::data::dataset::transform::ComposedDataset;
    use burn::data::dataset::InMemDataset;

    pub fn concat(a: InMemDataset<i64>, b: InMemDataset<i64>) -> ComposedDataset<InMemDataset<i64>> {
        ComposedDataset::new(vec![a, b])
    }
}

mod tensor_dataset {
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;

    // 没有 TensorDataset：按第 0 维拆成一条条样本放进 InMemDataset，
    // 由 Batcher 在取批次时再拼成张量
    #[derive(Clone, Debug)]
    pub struct Item {
        pub x: Vec<f32>,
        pub y: i64,
    }

    pub fn build(x: Tensor<2>, y: Tensor<1, Int>) -> InMemDataset<Item> {
        let ys = y.into_data().try_into_vec_as::<i64>().unwrap();
        let items = x
            .iter_dim(0)
            .zip(ys)
            .map(|(row, y)| Item { x: row.into_data().try_to_vec::<f32>().unwrap(), y })
            .collect();
        InMemDataset::new(items)
    }
}

mod custom_dataset {
    use burn::data::dataset::{Dataset, DatasetError};

    // class Squares(Dataset) ↔ impl Dataset<Item>：get 对应 __getitem__，len 对应 __len__
    pub struct Squares;

    impl Dataset<(i64, i64)> for Squares {
        fn get(&self, index: usize) -> Result<(i64, i64), DatasetError> {
            let i = index as i64;
            Ok((i, i * i))
        }

        fn len(&self) -> usize {
            5
        }
    }
}

mod weighted_random_sampler {
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::Dataset;
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有按权重的采样器：有放回地抽 num_samples 个下标（均匀数落在累积权重的哪一段），
    // 再用 SelectionDataset 按这些下标取样本，交给 DataLoader（不要再 shuffle）
    pub fn sample(weights: &[f64], num_samples: usize, d: &Device) -> Vec<usize> {
        let total: f64 = weights.iter().sum();
        let k = weights.len();
        let cdf: Vec<f32> = weights
            .iter()
            .scan(0.0, |acc, w| {
                *acc += w / total;
                Some(*acc as f32)
            })
            .collect();
        let u = Tensor::<1>::random([num_samples], Distribution::Uniform(0.0, 1.0), d).unsqueeze_dim::<2>(1);
        let cdf = Tensor::<1>::from_floats(cdf.as_slice(), d).unsqueeze::<2>();
        // 下标 = 累积权重里不超过 u 的个数
        let idx = cdf.expand([num_samples, k]).lower_equal(u.expand([num_samples, k])).int().sum_dim(1);
        let idx = idx.clamp_max(k as i64 - 1).into_data().try_into_vec_as::<i64>().unwrap();
        idx.into_iter().map(|i| i as usize).collect()
    }

    pub fn sampled<D: Dataset<I>, I: Clone + Send + Sync>(ds: D, weights: &[f64], num_samples: usize, d: &Device) -> SelectionDataset<D, I> {
        SelectionDataset::from_indices_checked(ds, sample(weights, num_samples, d))
    }
}

mod dataloader_num_workers {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    #[derive(Clone)]
    pub struct IdBatcher;

    impl Batcher<i64, Vec<i64>> for IdBatcher {
        fn batch(&self, items: Vec<i64>, _device: &Device) -> Vec<i64> {
            items
        }
    }

    // 每个工作线程拿到连续的几个整批次；批次到达的先后不固定
    pub fn build(ds: InMemDataset<i64>, d: &Device) -> Arc<dyn DataLoader<Vec<i64>>> {
        DataLoaderBuilder::new(IdBatcher)
            .batch_size(4)
            .num_workers(2)
            .set_device(d.clone())
            .build(ds)
    }
}

mod pad_sequence {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // 没有 pad_sequence：每条 [len, d] 在末尾补到最长，再沿新的第 0 维叠起来（batch_first=True）
    pub fn pad_sequence(seqs: Vec<Tensor<2>>, padding_value: f32) -> Tensor<3> {
        let max_len = seqs.iter().map(|s| s.dims()[0]).max().unwrap();
        let padded: Vec<Tensor<2>> = seqs
            .into_iter()
            .map(|s| {
                let len = s.dims()[0];
                s.pad([(0, max_len - len), (0, 0)], PadMode::Constant(padding_value))
            })
            .collect();
        Tensor::stack(padded, 0)
    }
}

mod pack_padded_sequence {
    use burn::nn::Lstm;
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // 没有 PackedSequence：每条序列只取前 len 步单独跑 LSTM，h_n、c_n 是它自己最后一步的状态；
    // 输出补零到最长（pad_packed_sequence 的样子）
    pub fn forward(lstm: &Lstm, x: Tensor<3>, lengths: &[usize]) -> (Tensor<3>, Tensor<2>, Tensor<2>) {
        let max_len = *lengths.iter().max().unwrap();
        let (mut ys, mut hs, mut cs) = (Vec::new(), Vec::new(), Vec::new());
        for (b, &len) in lengths.iter().enumerate() {
            let xb = x.clone().narrow(0, b, 1).narrow(1, 0, len);
            let (y, state) = lstm.forward(xb, None);
            ys.push(y.pad([(0, max_len - len), (0, 0)], PadMode::Constant(0.0)));
            hs.push(state.hidden);
            cs.push(state.cell);
        }
        (Tensor::cat(ys, 0), Tensor::cat(hs, 0), Tensor::cat(cs, 0))
    }
}

// ---- 训练循环

mod train_step {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::momentum::MomentumConfig;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    // zero_grad() 没有对应：每次 backward() 返回一份新的梯度，用完就丢
    pub fn train(mut model: Linear, x: Tensor<2>, target: Tensor<2>, steps: usize) -> (Linear, Vec<f64>) {
        let mut optim = SgdConfig::new()
            .with_momentum(Some(MomentumConfig::new().with_momentum(0.9).with_dampening(0.0)))
            .init();
        let mut losses = Vec::new();
        for _ in 0..steps {
            let loss = MseLoss::new().forward(model.forward(x.clone()), target.clone(), Reduction::Mean);
            losses.push(loss.clone().into_scalar::<f64>());
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(0.1, model, grads);
        }
        (model, losses)
    }
}

mod clip_grad_value_step {
    use burn::grad_clipping::GradientClippingConfig;
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    // 裁剪交给优化器：step() 里先把每个梯度夹到 [-0.05, 0.05]，再更新
    pub fn train(mut model: Linear, x: Tensor<2>, target: Tensor<2>, steps: usize) -> Linear {
        let mut optim = SgdConfig::new()
            .with_gradient_clipping(Some(GradientClippingConfig::Value(0.05)))
            .init();
        for _ in 0..steps {
            let loss = MseLoss::new().forward(model.forward(x.clone()), target.clone(), Reduction::Mean);
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(0.1, model, grads);
        }
        model
    }
}

mod gan_step {
    use burn::nn::loss::BinaryCrossEntropyLossConfig;
    use burn::nn::Linear;
    use burn::optim::{AdamConfig, GradientsParams};
    use burn::prelude::*;

    // 两个模型、两个优化器。GradientsParams::from_grads(grads, &d) 只取 d 的参数的梯度，
    // 所以生成器的 loss 反传穿过判别器也不会改动判别器
    pub fn train(mut g: Linear, mut d: Linear, real: Tensor<2>, z: Tensor<2>, steps: usize) -> (Linear, Linear) {
        let dev = real.device();
        let bce = BinaryCrossEntropyLossConfig::new().with_logits(true).init(&dev);
        let adam = AdamConfig::new().with_beta_1(0.5).with_epsilon(1e-8);
        let (mut opt_g, mut opt_d) = (adam.init(), adam.init());
        let n = real.dims()[0];
        let (ones, zeros) = (Tensor::<2, Int>::ones([n, 1], &dev), Tensor::<2, Int>::zeros([n, 1], &dev));
        for _ in 0..steps {
            let fake = g.forward(z.clone()).tanh();
            // 判别器：fake.detach()，梯度不流回生成器
            let loss_d = bce.forward(d.forward(real.clone()), ones.clone())
                + bce.forward(d.forward(fake.clone().detach()), zeros.clone());
            let grads = GradientsParams::from_grads(loss_d.backward(), &d);
            d = opt_d.step(0.01, d, grads);
            // 生成器：用更新后的判别器打分
            let loss_g = bce.forward(d.forward(fake), ones.clone());
            let grads = GradientsParams::from_grads(loss_g.backward(), &g);
            g = opt_g.step(0.01, g, grads);
        }
        (g, d)
    }
}

// ---- 编译、导出与分布式

mod ddp {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, ModuleOptimizer, MultiGradientsParams};
    use burn::prelude::*;

    // 多设备训练交给 burn-train（ExecutionStrategy::ddp / multi）。底下是这一步：各份副本
    // 算自己那一份批次的梯度，step_multi 把它们加起来走一步。DDP 的 all-reduce 取平均，
    // 所以每份的 loss 先除以副本数。这里两份都在同一个设备上
    pub fn step(model: Linear, optim: &mut ModuleOptimizer, x: Tensor<2>, target: Tensor<2>, world: usize) -> Linear {
        let shard = x.dims()[0] / world;
        let mut grads = Vec::new();
        for rank in 0..world {
            let xs = x.clone().narrow(0, rank * shard, shard);
            let ts = target.clone().narrow(0, rank * shard, shard);
            let loss = MseLoss::new().forward(model.forward(xs), ts, Reduction::Mean).div_scalar(world as f64);
            grads.push((GradientsParams::from_grads(loss.backward(), &model), x.device()));
        }
        optim.step_multi(0.1, model, MultiGradientsParams { grads })
    }
}

mod torch_compile {
    use burn::nn::{Gelu, Linear, LinearConfig};
    use burn::prelude::*;

    // 没有 compile()：forward 本来就是编译好的 Rust；wgpu、cuda 等 CubeCL 后端默认带
    // fusion，运行时把相邻的逐元素运算融合成一个内核
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Gelu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp { fc1: LinearConfig::new(4, 8).init(d), act: Gelu::new(), fc2: LinearConfig::new(8, 3).init(d) }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.act.forward(self.fc1.forward(x)))
        }
    }
}

mod jit_script {
    use burn::nn::{Gelu, Linear, LinearConfig};
    use burn::prelude::*;

    // 没有 TorchScript：模型就是 Rust 代码，cargo build 出的可执行文件直接部署，
    // 权重用 save_file / load_file 存取
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Gelu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp { fc1: LinearConfig::new(4, 8).init(d), act: Gelu::new(), fc2: LinearConfig::new(8, 3).init(d) }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.act.forward(self.fc1.forward(x)))
        }
    }
}

mod onnx_export {
    use burn::nn::{Gelu, Linear, LinearConfig};
    use burn::prelude::*;

    // 没有导出 ONNX：burn-onnx 只把 .onnx 转成 burn 代码（导入）。burn 的模型部署时
    // 就用这份前向，权重存成 burnpack（save_file）
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Gelu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp { fc1: LinearConfig::new(4, 8).init(d), act: Gelu::new(), fc2: LinearConfig::new(8, 3).init(d) }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.act.forward(self.fc1.forward(x)))
        }
    }
}

// ---- 以下是测试装置：输入、PyTorch 的权重、反传、输出 JSON

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn leaf<const D: usize>(t: Tensor<D>, device: &Device) -> Tensor<D> {
    Tensor::from_data(t.into_data(), device)
}

fn param<const D: usize>(t: Tensor<D>, device: &Device) -> Param<Tensor<D>> {
    Param::from_tensor(leaf(t, device))
}

fn input<const D: usize>(t: Tensor<D>, device: &Device) -> Tensor<D> {
    leaf(t, device).require_grad()
}

fn backward<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * data(y.dims(), 50.0, &y.device())).sum().backward()
}

fn grad<const D: usize>(t: &Tensor<D>, g: &Gradients) -> Vec<f64> {
    flat(t.grad(g).expect("no gradient"))
}

/// A Linear from PyTorch's [out, in] weight phase `w` and bias phase `b`.
fn linear_at(out: usize, inp: usize, w: f64, b: Option<f64>, p: &Device, device: &Device) -> Linear {
    Linear {
        weight: param(data([out, inp], w, p).transpose(), device),
        bias: b.map(|b| param(data([out], b, p), device)),
    }
}

fn linear_from(w: Tensor<2>, b: Tensor<1>, device: &Device) -> Linear {
    Linear { weight: param(w.transpose(), device), bias: Some(param(b, device)) }
}

/// PyTorch's dw of a Linear, in its [out, in] layout.
fn linear_dw(l: &Linear, g: &Gradients) -> Vec<f64> {
    flat(l.weight.val().grad(g).unwrap().transpose())
}

fn linear_params(l: &Linear) -> (Vec<f64>, Vec<f64>) {
    (flat(l.weight.val().transpose()), flat(l.bias.as_ref().unwrap().val()))
}

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

/// Forward and backward of a module without weights: y, shape, dx.
fn run_plain<const D: usize, const E: usize>(f: impl Fn(Tensor<D>) -> Tensor<E>, x: Tensor<D>, ad: &Device) -> Value {
    let x = input(x, ad);
    let y = f(x.clone());
    let g = backward(&y);
    json!({"y": flat(y.clone()), "shape": y.dims().to_vec(), "dx": grad(&x, &g)})
}

fn items<D: Dataset<I>, I>(ds: &D) -> Vec<I> {
    (0..ds.len()).map(|i| ds.get(i).unwrap()).collect()
}

fn split_facts(parts: Vec<Vec<i64>>) -> Value {
    let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    let mut union: Vec<i64> = parts.into_iter().flatten().collect();
    union.sort();
    let n = union.len();
    let mut dedup = union.clone();
    dedup.dedup();
    json!({"lens": lens, "union": union, "disjoint": dedup.len() == n})
}

fn lr_seq(mut step: impl FnMut() -> f64, n: usize) -> Value {
    json!({"lr": (0..n).map(|_| step()).collect::<Vec<f64>>()})
}

/// What apply(weights_init) did to a Conv2d and a BatchNorm: the conv weights' mean, std and
/// share beyond 0.04 (the tail that tells N(0, 0.02) from the default init), gamma's mean and
/// std, and whether beta is all zero.
fn init_stats(conv: &Conv2d, bn: &BatchNorm) -> Value {
    let (cm, cs, _) = stats(conv.weight.val());
    let (bm, bs, _) = stats(bn.gamma.val());
    let w = flat(conv.weight.val());
    let beyond = w.iter().filter(|v| v.abs() > 0.04).count() as f64 / w.len() as f64;
    json!({"conv_mean": cm, "conv_std": cs, "conv_beyond_2std": beyond, "bn_mean": bm, "bn_std": bs,
        "bn_bias_zero": flat(bn.beta.val()).iter().all(|&v| v == 0.0)})
}

fn stats<const D: usize>(t: Tensor<D>) -> (f64, f64, f64) {
    let v = flat(t);
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt(), v.iter().fold(0.0f64, |m, x| m.max(x.abs())))
}

/// One gate of PyTorch's stacked LSTM weights (i, f, g, o; phases 10, 20, 30, 40).
fn lstm_gate(g: usize, d: &Device) -> GateController {
    let p = Device::flex();
    let (wi, wh) = (data([16, 3], 10.0, &p), data([16, 4], 20.0, &p));
    let (bi, bh) = (data([16], 30.0, &p), data([16], 40.0, &p));
    let r = 4 * g..4 * g + 4;
    GateController {
        input_transform: linear_from(wi.slice([r.clone(), 0..3]), bi.slice([r.clone()]), d),
        hidden_transform: linear_from(wh.slice([r.clone(), 0..4]), bh.slice([r]), d),
    }
}

fn set_lstm(l: &mut Lstm, d: &Device) {
    l.input_gate = lstm_gate(0, d);
    l.forget_gate = Some(lstm_gate(1, d));
    l.cell_gate = lstm_gate(2, d);
    l.output_gate = lstm_gate(3, d);
}

fn regression(d: &Device) -> (Tensor<2>, Tensor<2>) {
    (data([4, 4], 0.0, d) * 2.0, data([4, 3], 60.0, d))
}

fn ids_dataset(range: std::ops::Range<i64>) -> InMemDataset<i64> {
    InMemDataset::new(range.collect())
}

fn main() {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- Transformer 解码器 ----
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

    // ---- 卷积、池化与其他层 ----
    {
        let mut m = conv_transpose1d::build(&ad);
        m.weight = param(data([2, 3, 3], 10.0, &d), &ad);
        m.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 2, 5], 0.0, &d), &ad);
        let y = conv_transpose1d::forward(&m, x.clone());
        let g = backward(&y);
        row("conv_transpose1d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&m.weight.val(), &g), "db": grad(&m.bias.as_ref().unwrap().val(), &g)}));
    }
    let m = maxpool1d::build();
    row("maxpool1d", run_plain(|x| maxpool1d::forward(&m, x), data([2, 2, 7], 0.0, &d), &ad));
    let m = avgpool1d::build();
    row("avgpool1d", run_plain(|x| avgpool1d::forward(&m, x), data([2, 2, 7], 0.0, &d), &ad));
    let m = adaptive_avg_pool1d::build();
    row("adaptive_avg_pool1d", run_plain(|x| adaptive_avg_pool1d::forward(&m, x), data([2, 2, 7], 0.0, &d), &ad));
    let m = upsample_nearest::build();
    row("upsample_nearest", run_plain(|x| upsample_nearest::forward(&m, x), data([1, 2, 3, 4], 0.0, &d), &ad));
    let m = upsample_bilinear::build();
    row("upsample_bilinear", run_plain(|x| upsample_bilinear::forward(&m, x), data([1, 2, 3, 4], 0.0, &d), &ad));
    row("flatten", run_plain(flatten::forward, data([2, 3, 2, 2], 0.0, &d), &ad));
    row("identity", run_plain(identity::forward, data([2, 3], 0.0, &d), &ad));
    {
        let m = cosine_similarity::build();
        let (x1, x2) = (input(data([3, 4], 0.0, &d), &ad), input(data([3, 4], 10.0, &d), &ad));
        let y = cosine_similarity::forward(&m, x1.clone(), x2.clone());
        let g = backward(&y);
        row("cosine_similarity", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x1, &g),
            "grad_x2": grad(&x2, &g)}));
    }

    // ---- 归一化与 Dropout ----
    {
        ad.seed(0);
        let m = dropout2d::Dropout2d { prob: 0.5 };
        let y = m.forward(Tensor::<4>::ones([8, 16, 3, 3], &ad));
        let v = flat(y.clone());
        let whole = v.chunks(9).all(|c| c.iter().all(|&x| x == c[0]));
        let mut values = v.clone();
        values.sort_by(|a, b| a.partial_cmp(b).unwrap());
        values.dedup();
        let x = data([2, 3, 2, 2], 0.0, &d);
        let eval_identity = flat(m.forward(x.clone())) == flat(x);
        row("dropout2d", json!({"shape": y.dims(), "values": values, "whole_channels": whole,
            "eval_identity": eval_identity}));
    }
    {
        let mut m = rms_norm::build(&ad);
        m.gamma = param(data([4], 10.0, &d), &ad);
        let x = input(data([2, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = rms_norm::forward(&m, x.clone());
        let g = backward(&y);
        row("rms_norm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&m.gamma.val(), &g)}));
    }
    {
        let x = || data([2, 3, 4], 0.0, &d) * 1e-3;
        let mut m = rms_norm_default_eps::build(&d);
        m.gamma = Param::from_tensor(data([4], 10.0, &d));
        let y = rms_norm_default_eps::forward(&m, x());
        row("rms_norm_default_eps", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut m = rms_norm_default_eps_fix::build(&d);
        m.gamma = Param::from_tensor(data([4], 10.0, &d));
        let y = rms_norm_default_eps_fix::forward(&m, x());
        row("rms_norm_default_eps_fix", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }

    // ---- Embedding ----
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

    // ---- 组合模块与参数 ----
    {
        let mut m = sequential::Mlp::new(&ad);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &ad);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &ad);
        let x = input(data([2, 4], 0.0, &d) * 2.0, &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("sequential", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": linear_dw(&m.fc1, &g)}));
    }
    {
        let mut m = module_list::Stack::new(&ad);
        for (i, l) in m.layers.iter_mut().enumerate() {
            *l = linear_at(4, 4, 10.0 + 20.0 * i as f64, Some(20.0 + 20.0 * i as f64), &d, &ad);
        }
        let x = input(data([2, 4], 0.0, &d) * 2.0, &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("module_list", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": linear_dw(&m.layers[1], &g)}));
    }
    {
        let mut m = parameter::PosEmb::new(&ad);
        m.pos = param(data([1, 3, 4], 10.0, &d), &ad);
        let x = input(data([2, 3, 4], 0.0, &d), &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("parameter", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "grad_pos": grad(&m.pos.val(), &g), "num_params": m.num_params()}));
    }
    {
        let mut m = register_buffer::Masked::new(&ad);
        m.lin = linear_at(4, 4, 10.0, Some(20.0), &d, &ad);
        let x = input(data([2, 3, 4], 0.0, &d), &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("register_buffer", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "num_params": m.num_params()}));
    }
    {
        let mut m = weight_tying::TiedLm::new(&ad);
        m.emb.weight = param(data([5, 4], 10.0, &d), &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 1, 3]], &ad);
        let y = m.forward(ids);
        let g = backward(&y);
        row("weight_tying", json!({"y": flat(y.clone()), "shape": y.dims(), "dw": grad(&m.emb.weight.val(), &g),
            "num_params": m.num_params()}));
    }

    // ---- 训练与推理模式 ----
    row("num_params", json!({"v": num_params::count(&num_params::Cnn::new(&d))}));
    row("num_params_trainable", json!({"v": num_params_trainable::run(&ad)}));
    {
        let mut m = model_eval::Model::new(&ad);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &ad);
        m.bn.gamma = param(data([8], 30.0, &d), &ad);
        m.bn.beta = param(data([8], 40.0, &d), &ad);
        m.bn.running_mean = RunningState::new(data([8], 60.0, &d));
        m.bn.running_var = RunningState::new(data([8], 70.0, &d).abs().add_scalar(0.5));
        m.fc2 = linear_at(3, 8, 80.0, Some(90.0), &d, &ad);
        let y = model_eval::predict(&m, data([4, 4], 0.0, &d) * 2.0);
        row("model_eval", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        ad.seed(0);
        let mut m = model_train_toggle::Model::new(&ad);
        m.fc = linear_at(8, 4, 10.0, Some(20.0), &d, &ad);
        let x = leaf(data([8, 4], 0.0, &d) * 2.0, &ad);
        let (y_eval, y_train) = model_train_toggle::toggle(m, x);
        let (e, t) = (flat(y_eval.clone()), flat(y_train));
        let drops = t.iter().any(|&v| v == 0.0);
        let scaled = t.iter().zip(&e).filter(|(v, _)| **v != 0.0).all(|(v, u)| (v - 2.0 * u).abs() <= 1e-6);
        row("model_train_toggle", json!({"y_eval": e, "train_drops": drops, "train_kept_scaled": scaled}));
    }

    // ---- 初始化 ----
    {
        d.seed(0);
        let (mean, std, max_abs) = stats(init_trunc_normal::trunc_normal([1024, 64], 0.0, 1.0, -2.0, 2.0, &d));
        row("init_trunc_normal", json!({"mean": mean, "std": std, "max_abs": max_abs, "within_bound": max_abs <= 2.0}));
        d.seed(0);
        let (mean, std, _) = stats(init_trunc_normal_std::init(&d).val());
        row("init_trunc_normal_std", json!({"mean": mean, "std": std}));
        d.seed(0);
        let w = init_orthogonal::init(&d).val();
        row("init_orthogonal", json!({"gram": flat(w.clone().matmul(w.clone().transpose())), "shape": w.dims()}));
        d.seed(0);
        let (conv, bn) = module_apply_init::build(&d);
        row("module_apply_init", init_stats(&conv, &bn));
        d.seed(0);
        let net = module_map_init::build(&d);
        row("module_map_init", init_stats(&net.conv, &net.bn));
        let found = named_parameters::run(&d);
        row("named_parameters", json!({"names": found.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
            "numel": found.iter().map(|(_, k)| *k).collect::<Vec<_>>()}));
    }

    // ---- 学习率调度 ----
    {
        let mut s = multistep_lr::build();
        row("multistep_lr", lr_seq(|| s.step().base(), 12));
        let mut s = lambda_lr::build();
        row("lambda_lr", lr_seq(|| s.step(), 12));
        let mut s = one_cycle_lr::OneCycleLr::new(0.1, 20, 0.25);
        row("one_cycle_lr", lr_seq(|| s.step(), 20));
        let mut s = reduce_lr_on_plateau::ReduceLrOnPlateau::new(0.1, 0.5, 1);
        let losses = [1.0, 0.9, 0.95, 0.96, 0.8, 0.85, 0.85, 0.79, 0.9, 0.9, 0.9, 0.9];
        let mut lr = Vec::new();
        for loss in losses {
            lr.push(s.lr);
            s.step(loss);
        }
        row("reduce_lr_on_plateau", json!({"lr": lr}));
        let mut s = cosine_warm_restarts::build();
        row("cosine_warm_restarts", lr_seq(|| s.step().base(), 12));
        let mut s = sequential_lr::build();
        row("sequential_lr", lr_seq(|| s.step().base(), 12));
        let mut s = noam_lr::build();
        row("noam_lr", lr_seq(|| s.step().base(), 12));
    }

    // ---- 数据集与采样 ----
    {
        let (a, b) = random_split_lengths::split(ids_dataset(0..10), 0);
        row("random_split_lengths", split_facts(vec![items(&a), items(&b)]));
        let parts = random_split_fractions::split(ids_dataset(0..10), &[0.75, 0.25], 0);
        row("random_split_fractions", split_facts(parts.iter().map(items).collect()));
        let s = subset::subset(ids_dataset(10..20), vec![1, 3, 5, 7]);
        row("subset", json!({"len": s.len(), "items": items(&s)}));
        let c = concat_dataset::concat(ids_dataset(0..4), ids_dataset(10..13));
        row("concat_dataset", json!({"len": c.len(), "items": items(&c)}));
        let y = Tensor::<1, Int>::arange(0..5, &d) * 10;
        let t = tensor_dataset::build(data([5, 3], 0.0, &d), y);
        let item = t.get(2).unwrap();
        row("tensor_dataset", json!({"len": t.len(), "x": item.x.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), "y": item.y}));
        let s = custom_dataset::Squares;
        let its: Vec<[i64; 2]> = items(&s).into_iter().map(|(a, b)| [a, b]).collect();
        row("custom_dataset", json!({"len": s.len(), "items": its}));
        d.seed(0);
        let n = 30000;
        let sampled = weighted_random_sampler::sampled(ids_dataset(0..3), &[0.0, 1.0, 3.0], n, &d);
        let drawn = items(&sampled);
        let fractions: Vec<f64> = (0..3).map(|k| drawn.iter().filter(|&&i| i == k).count() as f64 / n as f64).collect();
        row("weighted_random_sampler", json!({"len": sampled.len(), "fractions": fractions}));
        let loader = dataloader_num_workers::build(ids_dataset(0..10), &d);
        let mut batches: Vec<Vec<i64>> = loader.iter().map(|b| b.unwrap()).collect();
        batches.sort();
        row("dataloader_num_workers", json!({"n_batches": batches.len(), "batches": batches}));
    }
    {
        let seqs = vec![data([3, 2], 0.0, &d), data([1, 2], 10.0, &d), data([2, 2], 20.0, &d)];
        let y = pad_sequence::pad_sequence(seqs, 0.0);
        row("pad_sequence", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut lstm = burn::nn::LstmConfig::new(3, 4, true).init(&d);
        set_lstm(&mut lstm, &d);
        let (y, h, c) = pack_padded_sequence::forward(&lstm, data([2, 5, 3], 0.0, &d) * 2.0, &[3, 5]);
        row("pack_padded_sequence", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h), "c_n": flat(c)}));
    }

    // ---- 训练循环 ----
    {
        let (x, t) = regression(&ad);
        let (m, losses) = train_step::train(linear_at(3, 4, 10.0, Some(20.0), &d, &ad), x.clone(), t.clone(), 3);
        let (w, b) = linear_params(&m);
        row("train_step", json!({"loss": losses, "w": w, "b": b}));
        let m = clip_grad_value_step::train(linear_at(3, 4, 10.0, Some(20.0), &d, &ad), x.clone(), t.clone(), 2);
        let (w, b) = linear_params(&m);
        row("clip_grad_value_step", json!({"w": w, "b": b}));
        let g = linear_at(4, 2, 10.0, Some(20.0), &d, &ad);
        let dis = linear_at(1, 4, 30.0, Some(40.0), &d, &ad);
        let real = data([4, 4], 70.0, &ad) * 2.0;
        let z = data([4, 2], 80.0, &ad) * 2.0;
        let (g, dis) = gan_step::train(g, dis, real, z, 2);
        let ((gw, gb), (dw, db)) = (linear_params(&g), linear_params(&dis));
        row("gan_step", json!({"g_w": gw, "g_b": gb, "d_w": dw, "d_b": db}));
        let mut optim = burn::optim::SgdConfig::new().init();
        let mut m = linear_at(3, 4, 10.0, Some(20.0), &d, &ad);
        for _ in 0..2 {
            m = ddp::step(m, &mut optim, x.clone(), t.clone(), 2);
        }
        let (w, b) = linear_params(&m);
        row("ddp", json!({"w": w, "b": b}));
    }

    // ---- 编译、导出与分布式 ----
    {
        let x = data([2, 4], 0.0, &d) * 2.0;
        let mut m = torch_compile::Mlp::new(&d);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &d);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &d);
        let y = m.forward(x.clone());
        row("torch_compile", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut m = jit_script::Mlp::new(&d);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &d);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &d);
        let y = m.forward(x.clone());
        row("jit_script", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut m = onnx_export::Mlp::new(&d);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &d);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &d);
        let y = m.forward(x);
        row("onnx_export", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }

    println!("{}", json!({"rows": Value::Object(rows)}));
}
