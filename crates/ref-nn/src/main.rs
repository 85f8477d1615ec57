//! The torch → burn map, nn module rows: one inline module per row of ref-3-nn.yaml's table,
//! named by the row id; its body is the burn cell of the page (the config and the call).
//! main() builds the inputs, calls the modules and prints the JSON. Every module gets the
//! PyTorch script's weights: element k of a tensor with phase p is 0.5·sin(k + 1 + p), in f64,
//! rounded to f32 once, generated in PyTorch's layout and then moved into burn's here in main
//! (Linear [out, in] → [in, out]; LSTM/GRU/MHA stacked gates → one Linear each). Gradients are
//! read back in PyTorch's layout. L = sum(y · G), G of phase 50.
use burn::module::{Param, RunningState};
use burn::nn::attention::MultiHeadAttention;
use burn::nn::conv::Conv2d;
use burn::nn::transformer::TransformerEncoderLayer;
use burn::nn::{GateController, Gru, LayerNorm, LayerNormConfig, Linear, Lstm, PaddingConfig2d, Rnn};
use burn::prelude::*;
use burn::tensor::ops::PadMode;
use burn::tensor::Gradients;
use serde_json::{json, Map, Value};

// ---- 线性与卷积

mod linear {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    // weight 存成 [in, out]，PyTorch 的是 [out, in]：搬权重时转置
    pub fn build(d: &Device) -> Linear {
        LinearConfig::new(4, 3).init(d)
    }

    pub fn forward(m: &Linear, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod linear_nobias {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Linear {
        LinearConfig::new(4, 3).with_bias(false).init(d)
    }

    pub fn forward(m: &Linear, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod conv1d {
    use burn::nn::conv::{Conv1d, Conv1dConfig};
    use burn::nn::PaddingConfig1d;
    use burn::prelude::*;

    pub fn build(d: &Device) -> Conv1d {
        Conv1dConfig::new(2, 3, 3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init(d)
    }

    pub fn forward(m: &Conv1d, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod conv2d {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::prelude::*;

    // weight 和 PyTorch 一样是 [out, in, kh, kw]，不用转置
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3]).init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_nobias {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::prelude::*;

    // bias=False：Conv2dConfig 的 with_bias(false)，模块里 bias 是 None
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3]).with_bias(false).init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_stride_pad_dilation {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 4], [3, 3])
            .with_stride([2, 2])
            .with_dilation([2, 2])
            .with_padding(PaddingConfig2d::Explicit(2, 2, 2, 2))
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_groups {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // weight 是 [out, in / groups, kh, kw]，和 PyTorch 相同
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([4, 6], [3, 3])
            .with_groups(2)
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_same_even_kernel {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // 偶数核：补零的总数是奇数，多出的一个补在末尾（右、下），和 PyTorch 相同
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [2, 4])
            .with_padding(PaddingConfig2d::Same)
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_same_stride2 {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // burn 接受带步长的 Same：输出 = ceil(输入 / 步长)，PyTorch 在构造时就报错
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding(PaddingConfig2d::Same)
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_stride2_explicit_padding {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // 带步长时两边都写出补多少：3×3 核、步长 2，每边补 1
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv2d_reflect {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // 卷积本身不补边（默认 Valid）；padding_mode='reflect' 换成先对输入做反射补边
    pub fn build(d: &Device) -> Conv2d {
        Conv2dConfig::new([2, 3], [3, 3]).init(d)
    }

    pub fn forward(m: &Conv2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x.pad([(1, 1), (1, 1)], PadMode::Reflect))
    }
}

mod conv_transpose2d {
    use burn::nn::conv::{ConvTranspose2d, ConvTranspose2dConfig};
    use burn::prelude::*;

    // weight 是 [in, out / groups, kh, kw]，和 PyTorch 相同
    pub fn build(d: &Device) -> ConvTranspose2d {
        ConvTranspose2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding([1, 1])
            .with_padding_out([1, 1])
            .init(d)
    }

    pub fn forward(m: &ConvTranspose2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod conv_transpose2d_nobias {
    use burn::nn::conv::{ConvTranspose2d, ConvTranspose2dConfig};
    use burn::prelude::*;

    // DCGAN 的写法：4×4 核、步长 2、每边补 1、没有 bias
    pub fn build(d: &Device) -> ConvTranspose2d {
        ConvTranspose2dConfig::new([2, 3], [4, 4])
            .with_stride([2, 2])
            .with_padding([1, 1])
            .with_bias(false)
            .init(d)
    }

    pub fn forward(m: &ConvTranspose2d, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

// ---- 池化

mod maxpool2d {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        MaxPool2dConfig::new([2, 2]).init().forward(x)
    }
}

mod maxpool2d_padding {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        MaxPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init()
            .forward(x)
    }
}

mod maxpool2d_ceil_mode {
    use burn::nn::pool::MaxPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        MaxPool2dConfig::new([2, 2])
            .with_ceil_mode(true)
            .init()
            .forward(x)
    }
}

mod avgpool2d_padding {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    // count_include_pad 默认 true，和 PyTorch 相同
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init()
            .forward(x)
    }
}

mod avgpool2d_exclude_pad {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .with_count_include_pad(false)
            .init()
            .forward(x)
    }
}

mod avgpool2d_ceil_mode {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([2, 2])
            .with_ceil_mode(true)
            .init()
            .forward(x)
    }
}

mod avgpool2d_ceil_pad {
    use burn::nn::pool::AvgPool2dConfig;
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AvgPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .with_ceil_mode(true)
            .init()
            .forward(x)
    }
}

mod adaptive_avg_pool2d {
    use burn::nn::pool::AdaptiveAvgPool2dConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        AdaptiveAvgPool2dConfig::new([3, 3]).init().forward(x)
    }
}

// ---- 归一化

mod batchnorm1d_train {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // 训练模式（PyTorch 的 train()）：模块和输入在 autodiff 设备上、没有调 valid()，用批统计量
    pub fn forward(m: &BatchNorm, x: Tensor<2>) -> Tensor<2> {
        m.forward(x)
    }
}

mod batchnorm2d_train {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    // 同一个 BatchNorm 收 [N, C]、[N, C, L]、[N, C, H, W]
    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    pub fn forward(m: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod batchnorm_running_mean {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    // momentum 默认 0.1，和 PyTorch 相同
    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    pub fn step(m: &BatchNorm, x: Tensor<2>) -> Tensor<1> {
        let _ = m.forward(x);
        m.running_mean.value_sync()
    }
}

mod batchnorm_running_var {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // running_var 按有偏的批方差（除以 n）更新
    pub fn step(m: &BatchNorm, x: Tensor<2>) -> Tensor<1> {
        let _ = m.forward(x);
        m.running_var.value_sync()
    }
}

mod batchnorm_running_var_unbiased {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // BatchNorm 没有这个开关：forward 之后按 PyTorch 的公式重写 running_var，
    // 批方差用无偏的 var（除以 n − 1）。x 是 [N, C]；[N, C, H, W] 先换成 [N·H·W, C]
    pub fn step(m: &BatchNorm, x: Tensor<2>) -> Tensor<1> {
        let before = m.running_var.value_sync();
        let _ = m.forward(x.clone());
        let [_, c] = x.dims();
        let var = x.detach().var(0).reshape([c]);
        let momentum = m.momentum;
        m.running_var
            .update(before.mul_scalar(1.0 - momentum) + var.mul_scalar(momentum));
        m.running_var.value_sync()
    }
}

mod batchnorm_momentum_none {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // 没有 momentum=None：第 t 个批次（t 从 0 起）之前把 momentum 设成 1 / (t + 1)，
    // running_mean 就是累积平均
    pub fn train(m: &mut BatchNorm, batches: Vec<Tensor<2>>) -> Tensor<1> {
        for (t, x) in batches.into_iter().enumerate() {
            m.momentum = 1.0 / (t + 1) as f64;
            let _ = m.forward(x);
        }
        m.running_mean.value_sync()
    }
}

mod batchnorm2d_eval {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> BatchNorm {
        BatchNormConfig::new(3).init(d)
    }

    // PyTorch 的 eval()：valid() 关掉训练标志、去掉 autodiff，forward 用 running_mean / running_var；
    // valid() 之后模块在普通设备上，x 也要在普通设备上
    pub fn forward(m: &BatchNorm, x: Tensor<4>) -> Tensor<4> {
        let m = m.valid();
        m.forward(x)
    }
}

mod layernorm {
    use burn::nn::{LayerNorm, LayerNormConfig};
    use burn::prelude::*;

    // PyTorch 的 weight、bias 叫 gamma、beta
    pub fn build(d: &Device) -> LayerNorm {
        LayerNormConfig::new(4).init(d)
    }

    pub fn forward(m: &LayerNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod groupnorm {
    use burn::nn::{GroupNorm, GroupNormConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> GroupNorm {
        GroupNormConfig::new(2, 4).init(d)
    }

    pub fn forward(m: &GroupNorm, x: Tensor<3>) -> Tensor<3> {
        m.forward(x)
    }
}

mod instancenorm {
    use burn::nn::{InstanceNorm, InstanceNormConfig};
    use burn::prelude::*;

    // PyTorch 的 InstanceNorm 默认 affine=False；burn 默认带 gamma、beta，要关掉
    pub fn build(d: &Device) -> InstanceNorm {
        InstanceNormConfig::new(3).with_affine(false).init(d)
    }

    pub fn forward(m: &InstanceNorm, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

mod instancenorm_affine {
    use burn::nn::{InstanceNorm, InstanceNormConfig};
    use burn::prelude::*;

    // affine 默认 true：gamma、beta 对应 PyTorch 的 weight、bias
    pub fn build(d: &Device) -> InstanceNorm {
        InstanceNormConfig::new(3).init(d)
    }

    pub fn forward(m: &InstanceNorm, x: Tensor<4>) -> Tensor<4> {
        m.forward(x)
    }
}

// ---- Dropout 与 Embedding

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

// ---- 循环网络

mod rnn {
    use burn::nn::{Rnn, RnnConfig, RnnState};
    use burn::prelude::*;

    // batch_first 默认 true；权重在 gate（一个 GateController）的 input_transform、hidden_transform 里
    pub fn build(d: &Device) -> Rnn {
        RnnConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &Rnn, x: Tensor<3>) -> (Tensor<3>, RnnState<2>) {
        m.forward(x, None)
    }
}

mod lstm {
    use burn::nn::{Lstm, LstmConfig, LstmState};
    use burn::prelude::*;

    // 每个门一个 GateController：input_gate, forget_gate, cell_gate, output_gate
    // （PyTorch 把 i, f, g, o 堆叠在 weight_ih_l0 里）
    pub fn build(d: &Device) -> Lstm {
        LstmConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &Lstm, x: Tensor<3>) -> (Tensor<3>, LstmState<2>) {
        m.forward(x, None)
    }
}

mod gru {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    // reset_gate, update_gate, new_gate（PyTorch 按 r, z, n 堆叠）；
    // reset_after 默认 true，就是 PyTorch 的 n = tanh(W_in x + b_in + r · (W_hn h + b_hn))
    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    // 返回每个时间步的隐状态；最后一步就是 PyTorch 的 h_n
    pub fn forward(m: &Gru, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None)
    }
}

mod lstm_seq_first {
    use burn::nn::{Lstm, LstmConfig, LstmState};
    use burn::prelude::*;

    // 输入 [seq, batch, d]，和 PyTorch 的默认一样
    pub fn build(d: &Device) -> Lstm {
        LstmConfig::new(3, 4, true).with_batch_first(false).init(d)
    }

    pub fn forward(m: &Lstm, x: Tensor<3>) -> (Tensor<3>, LstmState<2>) {
        m.forward(x, None)
    }
}

mod rnn_seq_first {
    use burn::nn::{Rnn, RnnConfig, RnnState};
    use burn::prelude::*;

    // PyTorch 的默认：bias=True，输入 [seq, batch, d]
    pub fn build(d: &Device) -> Rnn {
        RnnConfig::new(3, 4, true).with_batch_first(false).init(d)
    }

    pub fn forward(m: &Rnn, x: Tensor<3>) -> (Tensor<3>, RnnState<2>) {
        m.forward(x, None)
    }
}

mod gru_seq_first {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    // GruConfig 没有 batch_first：[seq, batch, d] 先换成 [batch, seq, d]，输出再换回来
    pub fn forward(m: &Gru, x: Tensor<3>) -> Tensor<3> {
        m.forward(x.swap_dims(0, 1), None).swap_dims(0, 1)
    }
}

mod lstm_num_layers {
    use burn::nn::{Lstm, LstmConfig};
    use burn::prelude::*;

    // 没有 num_layers：两层 Lstm 串起来，第二层的输入是第一层的输出
    pub fn build(d: &Device) -> [Lstm; 2] {
        [
            LstmConfig::new(3, 4, true).init(d),
            LstmConfig::new(4, 4, true).init(d),
        ]
    }

    // 返回 y 和 PyTorch 形状的 h_n、c_n：[num_layers, batch, hidden]
    pub fn forward(layers: &[Lstm; 2], x: Tensor<3>) -> (Tensor<3>, Tensor<3>, Tensor<3>) {
        let (y0, s0) = layers[0].forward(x, None);
        let (y, s1) = layers[1].forward(y0, None);
        let h_n = Tensor::stack(vec![s0.hidden, s1.hidden], 0);
        let c_n = Tensor::stack(vec![s0.cell, s1.cell], 0);
        (y, h_n, c_n)
    }
}

mod lstm_bidirectional {
    use burn::nn::{BiLstm, BiLstmConfig, LstmState};
    use burn::prelude::*;

    // forward ← PyTorch 的 *_l0，reverse ← *_l0_reverse；
    // y 是 [batch, seq, 8]，h_n、c_n 是 [2, batch, 4]，和 PyTorch 一样
    pub fn build(d: &Device) -> BiLstm {
        BiLstmConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &BiLstm, x: Tensor<3>) -> (Tensor<3>, LstmState<3>) {
        m.forward(x, None)
    }
}

mod lstm_proj_size {
    use burn::prelude::*;
    use burn::tensor::activation::sigmoid;

    // 没有 proj_size：按时间步手写。权重是 PyTorch 的布局：w_ih [4h, d]、w_hh [4h, proj]、
    // b_ih、b_hh [4h]（门按 i, f, g, o 堆叠）、w_hr [proj, h]；h = W_hr (o * tanh c)
    pub fn forward(
        x: Tensor<3>,
        w_ih: Tensor<2>,
        w_hh: Tensor<2>,
        b_ih: Tensor<1>,
        b_hh: Tensor<1>,
        w_hr: Tensor<2>,
    ) -> (Tensor<3>, Tensor<2>, Tensor<2>) {
        let [batch, seq, d_in] = x.dims();
        let [proj, hidden] = w_hr.dims();
        let device = x.device();
        let (w_ih, w_hh, w_hr) = (w_ih.transpose(), w_hh.transpose(), w_hr.transpose());
        let b = (b_ih + b_hh).unsqueeze::<2>();
        let mut h = Tensor::<2>::zeros([batch, proj], &device);
        let mut c = Tensor::<2>::zeros([batch, hidden], &device);
        let mut ys = Vec::new();
        for t in 0..seq {
            let xt = x
                .clone()
                .slice([0..batch, t..t + 1, 0..d_in])
                .reshape([batch, d_in]);
            let z = xt.matmul(w_ih.clone()) + h.matmul(w_hh.clone()) + b.clone();
            let [i, f, g, o]: [Tensor<2>; 4] = z.chunk(4, 1).try_into().unwrap();
            c = sigmoid(f) * c + sigmoid(i) * g.tanh();
            h = (sigmoid(o) * c.clone().tanh()).matmul(w_hr.clone());
            ys.push(h.clone());
        }
        // y: [batch, seq, proj]；h_n: [batch, proj]；c_n: [batch, hidden]
        (Tensor::stack(ys, 1), h, c)
    }
}

mod rnn_cell {
    use burn::nn::{Rnn, RnnConfig, RnnState};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Rnn {
        RnnConfig::new(3, 4, true).init(d)
    }

    // 没有 RNNCell：长度为 1 的序列，带上给定的状态
    pub fn forward(m: &Rnn, x: Tensor<2>, h: Tensor<2>) -> Tensor<2> {
        let (_, state) = m.forward(x.unsqueeze_dim(1), Some(RnnState::new(h)));
        state.hidden
    }
}

mod lstm_cell {
    use burn::nn::{Lstm, LstmConfig, LstmState};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Lstm {
        LstmConfig::new(3, 4, true).init(d)
    }

    // 没有 LSTMCell：长度为 1 的序列；注意 LstmState::new 的参数顺序是 (cell, hidden)
    pub fn forward(m: &Lstm, x: Tensor<2>, h: Tensor<2>, c: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let (_, state) = m.forward(x.unsqueeze_dim(1), Some(LstmState::new(c, h)));
        (state.hidden, state.cell)
    }
}

mod gru_cell {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    // 没有 GRUCell：长度为 1 的序列，输出 [batch, 1, hidden] 就是新的 h
    pub fn forward(m: &Gru, x: Tensor<2>, h: Tensor<2>) -> Tensor<2> {
        let y = m.forward(x.unsqueeze_dim(1), Some(h));
        let [batch, _, hidden] = y.dims();
        y.reshape([batch, hidden])
    }
}

// ---- 注意力

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

// ---- 插值

mod interpolate_nearest_up {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([6, 8]))
            .with_mode(InterpolateMode::Nearest)
            .init()
            .forward(x)
    }
}

mod interpolate_nearest_down {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([3, 4]))
            .with_mode(InterpolateMode::Nearest)
            .init()
            .forward(x)
    }
}

mod interpolate_nearest_exact {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // Flex 后端没有实现 NearestExact：forward 会 panic
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([3, 4]))
            .with_mode(InterpolateMode::NearestExact)
            .init()
            .forward(x)
    }
}

mod interpolate_nearest_exact_select {
    use burn::prelude::*;

    // PyTorch 的 nearest-exact：输出第 i 个取输入第 min(floor((i + 0.5) · in / out), in − 1) 个
    fn source(n_in: usize, n_out: usize, d: &Device) -> Tensor<1, Int> {
        let scale = n_in as f64 / n_out as f64;
        let idx: Vec<i64> = (0..n_out)
            .map(|i| (((i as f64 + 0.5) * scale).floor() as usize).min(n_in - 1) as i64)
            .collect();
        Tensor::from_data(TensorData::new(idx, [n_out]), d)
    }

    // 手写：按行、按列各取一次下标
    pub fn run(x: Tensor<4>, size: [usize; 2]) -> Tensor<4> {
        let [_, _, h, w] = x.dims();
        let d = x.device();
        x.select(2, source(h, size[0], &d))
            .select(3, source(w, size[1], &d))
    }
}

mod interpolate_bilinear_align_false {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // align_corners 默认 true，PyTorch 默认按 False：写出来
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Linear)
            .with_align_corners(false)
            .init()
            .forward(x)
    }
}

mod interpolate_bilinear_align_true {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Linear)
            .with_align_corners(true)
            .init()
            .forward(x)
    }
}

mod interpolate_bilinear_default {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    // 没写 align_corners：burn 默认 true（角点对齐）
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Linear)
            .init()
            .forward(x)
    }
}

mod interpolate_bicubic {
    use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        Interpolate2dConfig::new()
            .with_output_size(Some([5, 7]))
            .with_mode(InterpolateMode::Cubic)
            .with_align_corners(false)
            .init()
            .forward(x)
    }
}

// ---- 模块的默认参数：能读的从新建的 Config / 模块上读；burn 没有这个设置的，读模块的行为

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

// ---- helpers: inputs, weights in PyTorch's layout, backward, JSON

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

/// A fresh leaf on `device` holding t's values (t may be a view built on the plain device).
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

fn max_abs_diff<const D: usize>(a: Tensor<D>, b: Tensor<D>) -> f64 {
    flat(a).iter().zip(flat(b)).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max)
}

/// PyTorch's [out, in] weight (and bias), given on the plain device, into a burn Linear.
fn set_linear(lin: &mut Linear, w: Tensor<2>, b: Option<Tensor<1>>, device: &Device) {
    lin.weight = param(w.transpose(), device);
    lin.bias = b.map(|b| param(b, device));
}

fn linear_from(w: Tensor<2>, b: Option<Tensor<1>>, device: &Device) -> Linear {
    Linear { weight: param(w.transpose(), device), bias: b.map(|b| param(b, device)) }
}

/// Rows [g·h, (g+1)·h) of a stacked PyTorch weight [n·h, in].
fn block(w: &Tensor<2>, g: usize, h: usize) -> Tensor<2> {
    let cols = w.dims()[1];
    w.clone().slice([g * h..(g + 1) * h, 0..cols])
}

fn block1(b: &Tensor<1>, g: usize, h: usize) -> Tensor<1> {
    b.clone().slice([g * h..(g + 1) * h])
}

/// PyTorch's RNN weights (weight_ih, weight_hh, bias_ih, bias_hh: phases 10..40, or
/// base + 10..40 for a later layer / direction) split into one GateController per gate,
/// in PyTorch's gate order.
struct TorchRnn {
    w_ih: Tensor<2>,
    w_hh: Tensor<2>,
    b_ih: Tensor<1>,
    b_hh: Tensor<1>,
    h: usize,
}

impl TorchRnn {
    fn new(gates: usize, d_in: usize, h: usize) -> Self {
        Self::at(gates, d_in, h, 0.0)
    }
    fn at(gates: usize, d_in: usize, h: usize, base: f64) -> Self {
        let p = Device::flex();
        TorchRnn {
            w_ih: data([gates * h, d_in], base + 10.0, &p),
            w_hh: data([gates * h, h], base + 20.0, &p),
            b_ih: data([gates * h], base + 30.0, &p),
            b_hh: data([gates * h], base + 40.0, &p),
            h,
        }
    }
    fn set_rnn(&self, rnn: &mut Rnn, device: &Device) {
        rnn.gate = self.gate(0, device);
    }
    /// PyTorch's i, f, g, o into an existing Lstm (keeps its config, e.g. BiLstm's halves).
    fn set_lstm(&self, lstm: &mut Lstm, device: &Device) {
        lstm.input_gate = self.gate(0, device);
        lstm.forget_gate = Some(self.gate(1, device));
        lstm.cell_gate = self.gate(2, device);
        lstm.output_gate = self.gate(3, device);
    }
    /// PyTorch's r, z, n.
    fn set_gru(&self, gru: &mut Gru, device: &Device) {
        gru.reset_gate = self.gate(0, device);
        gru.update_gate = self.gate(1, device);
        gru.new_gate = self.gate(2, device);
    }
    fn gate(&self, g: usize, device: &Device) -> GateController {
        let h = self.h;
        GateController {
            input_transform: linear_from(block(&self.w_ih, g, h), Some(block1(&self.b_ih, g, h)), device),
            hidden_transform: linear_from(block(&self.w_hh, g, h), Some(block1(&self.b_hh, g, h)), device),
        }
    }
}

/// The gradients of the gates' weights, stacked back into PyTorch's [n·h, in] order.
fn stacked_grads(gates: &[&GateController], g: &Gradients) -> (Vec<f64>, Vec<f64>) {
    let ih: Vec<Tensor<2>> = gates.iter().map(|c| c.input_transform.weight.val().grad(g).unwrap().transpose()).collect();
    let hh: Vec<Tensor<2>> = gates.iter().map(|c| c.hidden_transform.weight.val().grad(g).unwrap().transpose()).collect();
    (flat(Tensor::cat(ih, 0)), flat(Tensor::cat(hh, 0)))
}

fn lstm_gates(l: &Lstm) -> [&GateController; 4] {
    [&l.input_gate, l.forget_gate.as_ref().unwrap(), &l.cell_gate, &l.output_gate]
}

/// Step `step` of a [batch, seq, h] output (or [seq, batch, h] with dim 1 = batch): [batch, h].
fn step_of(y: &Tensor<3>, step: usize, seq_dim: usize) -> Tensor<2> {
    let [a, b, h] = y.dims();
    if seq_dim == 1 {
        y.clone().slice([0..a, step..step + 1, 0..h]).reshape([a, h])
    } else {
        y.clone().slice([step..step + 1, 0..b, 0..h]).reshape([b, h])
    }
}

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

fn y_shape<const D: usize>(y: Tensor<D>) -> Value {
    json!({"y": flat(y.clone()), "shape": y.dims().to_vec()})
}

/// A Conv2d with PyTorch's weight (phase 10) and bias (20): y, dx, dw, db.
fn conv2d_row(mut conv: Conv2d, forward: fn(&Conv2d, Tensor<4>) -> Tensor<4>, xshape: [usize; 4], ad: &Device) -> Value {
    let p = Device::flex();
    conv.weight = param(data(conv.weight.dims(), 10.0, &p), ad);
    conv.bias = Some(param(data([conv.weight.dims()[0]], 20.0, &p), ad));
    let x = input(data(xshape, 0.0, &p), ad);
    let y = forward(&conv, x.clone());
    let g = backward(&y);
    json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
        "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)})
}

fn pool_row(f: fn(Tensor<4>) -> Tensor<4>, shape: [usize; 4], ad: &Device) -> Value {
    let x = input(data(shape, 0.0, &Device::flex()), ad);
    let y = f(x.clone());
    let g = backward(&y);
    json!({"y": flat(y.clone()), "dx": grad(&x, &g), "shape": y.dims()})
}

/// Flex does not implement every interpolation mode: a panic there is the row's result.
fn interp_row(f: impl Fn(Tensor<4>) -> Tensor<4> + std::panic::UnwindSafe, x: Tensor<4>) -> Value {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let y = std::panic::catch_unwind(move || f(x));
    std::panic::set_hook(hook);
    match y {
        Ok(y) => json!({"runs": true, "y": flat(y.clone()), "shape": y.dims()}),
        Err(_) => json!({"runs": false, "y": [], "shape": []}),
    }
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

fn main() {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 线性与卷积 ----
    {
        let mut lin = linear::build(&ad);
        set_linear(&mut lin, data([3, 4], 10.0, &d), Some(data([3], 20.0, &d)), &ad);
        let x = input(data([2, 4], 0.0, &d), &ad);
        let y = linear::forward(&lin, x.clone());
        let g = backward(&y);
        let dw = lin.weight.val().grad(&g).unwrap().transpose(); // burn [in, out] → torch [out, in]
        row("linear", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": flat(dw), "db": grad(&lin.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut lin = linear_nobias::build(&ad);
        set_linear(&mut lin, data([3, 4], 10.0, &d), None, &ad);
        let x = input(data([2, 4], 0.0, &d), &ad);
        let y = linear_nobias::forward(&lin, x.clone());
        let g = backward(&y);
        let dw = lin.weight.val().grad(&g).unwrap().transpose();
        row("linear_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g), "dw": flat(dw)}));
    }
    {
        // Conv weights are [out, in/groups, k...] on both sides: no transpose.
        let mut conv = conv1d::build(&ad);
        conv.weight = param(data([3, 2, 3], 10.0, &d), &ad);
        conv.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 2, 7], 0.0, &d), &ad);
        let y = conv1d::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv1d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)}));
    }
    row("conv2d", conv2d_row(conv2d::build(&ad), conv2d::forward, [2, 2, 5, 5], &ad));
    {
        let mut conv = conv2d_nobias::build(&ad);
        conv.weight = param(data([3, 2, 3, 3], 10.0, &d), &ad);
        let x = input(data([2, 2, 5, 5], 0.0, &d), &ad);
        let y = conv2d_nobias::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv2d_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "has_bias": conv.bias.is_some()}));
    }
    row("conv2d_stride_pad_dilation", conv2d_row(conv2d_stride_pad_dilation::build(&ad),
        conv2d_stride_pad_dilation::forward, [1, 2, 7, 6], &ad));
    row("conv2d_groups", conv2d_row(conv2d_groups::build(&ad), conv2d_groups::forward, [1, 4, 4, 4], &ad));
    row("conv2d_same_even_kernel", conv2d_row(conv2d_same_even_kernel::build(&ad),
        conv2d_same_even_kernel::forward, [1, 2, 5, 6], &ad));
    {
        let conv = conv2d_same_stride2::build(&d);
        let y = conv2d_same_stride2::forward(&conv, data([1, 2, 5, 5], 0.0, &d));
        row("conv2d_same_stride2", json!({"runs": true, "y_shape": y.dims()}));
    }
    row("conv2d_stride2_explicit_padding", conv2d_row(conv2d_stride2_explicit_padding::build(&ad),
        conv2d_stride2_explicit_padding::forward, [1, 2, 5, 5], &ad));
    row("conv2d_reflect", conv2d_row(conv2d_reflect::build(&ad), conv2d_reflect::forward, [1, 2, 4, 5], &ad));
    {
        // ConvTranspose2d weights are [in, out/groups, k, k] on both sides.
        let mut conv = conv_transpose2d::build(&ad);
        conv.weight = param(data([2, 3, 3, 3], 10.0, &d), &ad);
        conv.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([1, 2, 3, 4], 0.0, &d), &ad);
        let y = conv_transpose2d::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv_transpose2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut conv = conv_transpose2d_nobias::build(&ad);
        conv.weight = param(data([2, 3, 4, 4], 10.0, &d), &ad);
        let x = input(data([1, 2, 3, 4], 0.0, &d), &ad);
        let y = conv_transpose2d_nobias::forward(&conv, x.clone());
        let g = backward(&y);
        row("conv_transpose2d_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "has_bias": conv.bias.is_some()}));
    }

    // ---- 池化 ----
    row("maxpool2d", pool_row(maxpool2d::run, [1, 2, 4, 6], &ad));
    row("maxpool2d_padding", pool_row(maxpool2d_padding::run, [1, 1, 5, 6], &ad));
    row("maxpool2d_ceil_mode", pool_row(maxpool2d_ceil_mode::run, [1, 1, 5, 5], &ad));
    row("avgpool2d_padding", pool_row(avgpool2d_padding::run, [1, 1, 5, 6], &ad));
    row("avgpool2d_exclude_pad", pool_row(avgpool2d_exclude_pad::run, [1, 1, 5, 6], &ad));
    row("avgpool2d_ceil_mode", pool_row(avgpool2d_ceil_mode::run, [1, 1, 5, 5], &ad));
    row("avgpool2d_ceil_pad", pool_row(avgpool2d_ceil_pad::run, [1, 1, 6, 6], &ad));
    row("adaptive_avg_pool2d", pool_row(adaptive_avg_pool2d::run, [1, 2, 5, 7], &ad));

    // ---- 归一化 ----
    {
        // On an autodiff device (and not valid()) BatchNorm takes the training path.
        let mut bn = batchnorm1d_train::build(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        let x = input(data([4, 3], 0.0, &d) * 3.0, &ad);
        let y = batchnorm1d_train::forward(&bn, x.clone());
        let g = backward(&y);
        row("batchnorm1d_train", json!({"y": flat(y.clone()), "dx": grad(&x, &g),
            "dgamma": grad(&bn.gamma.val(), &g), "dbeta": grad(&bn.beta.val(), &g), "shape": y.dims()}));
    }
    {
        let mut bn = batchnorm2d_train::build(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        let x = input(data([2, 3, 2, 2], 0.0, &d) * 3.0, &ad);
        let y = batchnorm2d_train::forward(&bn, x.clone());
        let g = backward(&y);
        row("batchnorm2d_train", json!({"y": flat(y.clone()), "dx": grad(&x, &g),
            "dgamma": grad(&bn.gamma.val(), &g), "shape": y.dims()}));
    }
    {
        // One step from running_mean 0, running_var 1 (torch's m itself is a fresh BatchNorm1d(3)).
        let x = || leaf(data([4, 3], 0.0, &d) * 3.0, &ad);
        let m = batchnorm_running_mean::step(&batchnorm_running_mean::build(&ad), x());
        row("batchnorm_running_mean", json!({"running_mean": flat(m)}));
        let v = batchnorm_running_var::step(&batchnorm_running_var::build(&ad), x());
        row("batchnorm_running_var", json!({"running_var": flat(v)}));
        let v = batchnorm_running_var_unbiased::step(&batchnorm_running_var_unbiased::build(&ad), x());
        row("batchnorm_running_var_unbiased", json!({"running_var": flat(v)}));
        let mut bn = batchnorm_momentum_none::build(&ad);
        let batches = (0..3).map(|t| leaf(data([4, 3], 10.0 * t as f64, &d) * 3.0, &ad)).collect();
        let m = batchnorm_momentum_none::train(&mut bn, batches);
        row("batchnorm_momentum_none", json!({"running_mean": flat(m)}));
    }
    {
        // Built on the autodiff device like a model in training; the row's valid() is the eval().
        let mut bn = batchnorm2d_eval::build(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        bn.running_mean = RunningState::new(leaf(data([3], 60.0, &d), &ad));
        bn.running_var = RunningState::new(leaf(data([3], 70.0, &d).abs().add_scalar(0.5), &ad));
        let y = batchnorm2d_eval::forward(&bn, data([2, 3, 2, 2], 0.0, &d));
        row("batchnorm2d_eval", y_shape(y));
    }
    {
        let mut ln = layernorm::build(&ad);
        ln.gamma = param(data([4], 10.0, &d), &ad);
        ln.beta = Some(param(data([4], 20.0, &d), &ad));
        let x = input(data([2, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = layernorm::forward(&ln, x.clone());
        let g = backward(&y);
        row("layernorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&ln.gamma.val(), &g), "db": grad(&ln.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut gn = groupnorm::build(&ad);
        gn.gamma = Some(param(data([4], 10.0, &d), &ad));
        gn.beta = Some(param(data([4], 20.0, &d), &ad));
        let x = input(data([2, 4, 3], 0.0, &d) * 2.0, &ad);
        let y = groupnorm::forward(&gn, x.clone());
        let g = backward(&y);
        row("groupnorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&gn.gamma.as_ref().unwrap().val(), &g), "db": grad(&gn.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let inorm = instancenorm::build(&ad);
        let x = input(data([2, 3, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = instancenorm::forward(&inorm, x.clone());
        let g = backward(&y);
        row("instancenorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g)}));

        let mut inorm = instancenorm_affine::build(&ad);
        inorm.gamma = Some(param(data([3], 10.0, &d), &ad));
        inorm.beta = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 3, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = instancenorm_affine::forward(&inorm, x.clone());
        let g = backward(&y);
        row("instancenorm_affine", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&inorm.gamma.as_ref().unwrap().val(), &g),
            "db": grad(&inorm.beta.as_ref().unwrap().val(), &g)}));
    }

    // ---- Dropout 与 Embedding ----
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

    // ---- 循环网络 ----
    {
        let mut m = rnn::build(&ad);
        TorchRnn::new(1, 3, 4).set_rnn(&mut m, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = rnn::forward(&m, x.clone());
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&[&m.gate], &g);
        row("rnn", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(state.hidden)}));
    }
    {
        let mut m = lstm::build(&ad);
        TorchRnn::new(4, 3, 4).set_lstm(&mut m, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = lstm::forward(&m, x.clone());
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&lstm_gates(&m), &g);
        row("lstm", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(state.hidden), "c_n": flat(state.cell)}));
    }
    {
        let mut m = gru::build(&ad);
        TorchRnn::new(3, 3, 4).set_gru(&mut m, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let y = gru::forward(&m, x.clone());
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&[&m.reset_gate, &m.update_gate, &m.new_gate], &g);
        row("gru", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(step_of(&y, 4, 1))}));
    }
    {
        let mut m = lstm_seq_first::build(&d);
        TorchRnn::new(4, 3, 4).set_lstm(&mut m, &d);
        let (y, _) = lstm_seq_first::forward(&m, data([5, 2, 3], 0.0, &d) * 2.0);
        row("lstm_seq_first", y_shape(y));
    }
    {
        // [seq, batch, d] like PyTorch's default; h_n is PyTorch's [1, batch, h].
        let mut m = rnn_seq_first::build(&ad);
        TorchRnn::new(1, 3, 4).set_rnn(&mut m, &ad);
        let x = input(data([5, 2, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = rnn_seq_first::forward(&m, x.clone());
        let g = backward(&y);
        row("rnn_seq_first", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(state.hidden),
            "dx": grad(&x, &g)}));

        let mut m = gru_seq_first::build(&ad);
        TorchRnn::new(3, 3, 4).set_gru(&mut m, &ad);
        let x = input(data([5, 2, 3], 0.0, &d) * 2.0, &ad);
        let y = gru_seq_first::forward(&m, x.clone());
        let g = backward(&y);
        row("gru_seq_first", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(step_of(&y, 4, 0)),
            "dx": grad(&x, &g)}));
    }
    {
        // torch's l1 has phases 50..80.
        let mut layers = lstm_num_layers::build(&ad);
        TorchRnn::at(4, 3, 4, 0.0).set_lstm(&mut layers[0], &ad);
        TorchRnn::at(4, 4, 4, 40.0).set_lstm(&mut layers[1], &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, h_n, c_n) = lstm_num_layers::forward(&layers, x.clone());
        let g = backward(&y);
        row("lstm_num_layers", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h_n),
            "c_n": flat(c_n), "dx": grad(&x, &g)}));
    }
    {
        // torch's l0 (phases 10..40) → forward, l0_reverse (50..80) → reverse.
        let mut bi = lstm_bidirectional::build(&ad);
        TorchRnn::at(4, 3, 4, 0.0).set_lstm(&mut bi.forward, &ad);
        TorchRnn::at(4, 3, 4, 40.0).set_lstm(&mut bi.reverse, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, s) = lstm_bidirectional::forward(&bi, x.clone());
        let g = backward(&y);
        row("lstm_bidirectional", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(s.hidden),
            "c_n": flat(s.cell), "dx": grad(&x, &g)}));
    }
    {
        // torch's phases: weight_ih 10, weight_hh 20, bias_ih 30, bias_hh 40, weight_hr 50.
        let (y, h, c) = lstm_proj_size::forward(data([2, 5, 3], 0.0, &d) * 2.0, data([16, 3], 10.0, &d),
            data([16, 2], 20.0, &d), data([16], 30.0, &d), data([16], 40.0, &d), data([2, 4], 50.0, &d));
        row("lstm_proj_size", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h), "c_n": flat(c)}));
    }
    {
        let x = data([2, 3], 0.0, &d) * 2.0;
        let h0 = data([2, 4], 80.0, &d);
        let mut m = rnn_cell::build(&d);
        TorchRnn::new(1, 3, 4).set_rnn(&mut m, &d);
        row("rnn_cell", json!({"h": flat(rnn_cell::forward(&m, x.clone(), h0.clone()))}));

        let mut m = lstm_cell::build(&d);
        TorchRnn::new(4, 3, 4).set_lstm(&mut m, &d);
        let (h, c) = lstm_cell::forward(&m, x.clone(), h0.clone(), data([2, 4], 90.0, &d));
        row("lstm_cell", json!({"h": flat(h), "c": flat(c)}));

        let mut m = gru_cell::build(&d);
        TorchRnn::new(3, 3, 4).set_gru(&mut m, &d);
        row("gru_cell", json!({"h": flat(gru_cell::forward(&m, x, h0))}));
    }

    // ---- 注意力 ----
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

    // ---- 插值 ----
    let x34 = || data([1, 1, 3, 4], 0.0, &d);
    let x57 = || data([1, 1, 5, 7], 0.0, &d);
    row("interpolate_nearest_up", interp_row(interpolate_nearest_up::run, x34()));
    row("interpolate_nearest_down", interp_row(interpolate_nearest_down::run, x57()));
    row("interpolate_nearest_exact", interp_row(interpolate_nearest_exact::run, x57()));
    row("interpolate_nearest_exact_select", y_shape(interpolate_nearest_exact_select::run(x57(), [3, 4])));
    row("interpolate_bilinear_align_false", interp_row(interpolate_bilinear_align_false::run, x34()));
    row("interpolate_bilinear_align_true", interp_row(interpolate_bilinear_align_true::run, x34()));
    row("interpolate_bilinear_default", interp_row(interpolate_bilinear_default::run, x34()));
    row("interpolate_bicubic", interp_row(interpolate_bicubic::run, x34()));

    // ---- 模块的默认参数 ----
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

    println!("{}", json!({"rows": Value::Object(rows)}));
}
