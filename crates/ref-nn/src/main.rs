//! The torch → burn map, nn module rows: one function per row of ref-3-nn.yaml's table.
//! Every module gets the PyTorch script's weights: element k of a tensor with phase p is
//! 0.5·sin(k + 1 + p), in f64, rounded to f32 once, generated in PyTorch's layout and then
//! moved into burn's (Linear [out, in] → [in, out]; LSTM/GRU/MHA stacked gates → one Linear
//! each). Gradients are read back in PyTorch's layout. L = sum(y · G), G of phase 50.
use burn::module::{Param, RunningState};
use burn::nn::attention::{generate_autoregressive_mask, MhaInput, MultiHeadAttention, MultiHeadAttentionConfig};
use burn::nn::activation::{ActivationConfig, HardtanhConfig};
use burn::nn::conv::{Conv1dConfig, Conv2dConfig, ConvTranspose2dConfig};
use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
use burn::nn::pool::{AdaptiveAvgPool2dConfig, AvgPool2dConfig, MaxPool2dConfig};
use burn::nn::transformer::{TransformerEncoderConfig, TransformerEncoderLayer};
use burn::nn::{
    BatchNormConfig, BiLstmConfig, DropoutConfig, EluConfig, EmbeddingConfig, GateController,
    Gelu, GroupNormConfig, GruConfig, InstanceNormConfig, LayerNormConfig,
    LeakyReluConfig, Linear, LinearConfig, Lstm, LstmConfig, LstmState, PReluConfig, PaddingConfig1d,
    PaddingConfig2d, RnnConfig, RnnState, SoftplusConfig,
};
use burn::prelude::*;
use burn::tensor::activation::sigmoid;
use burn::tensor::ops::PadMode;
use burn::tensor::Gradients;
use serde_json::{json, Map, Value};

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

/// A Linear from PyTorch's [out, in] weight (and bias), given on the plain device.
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
    /// PyTorch's i, f, g, o into an existing Lstm (keeps its config, e.g. BiLstm's halves).
    fn set_lstm(&self, lstm: &mut Lstm, device: &Device) {
        lstm.input_gate = self.gate(0, device);
        lstm.forget_gate = Some(self.gate(1, device));
        lstm.cell_gate = self.gate(2, device);
        lstm.output_gate = self.gate(3, device);
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

fn last_step(y: &Tensor<3>) -> Tensor<2> {
    let [b, s, h] = y.dims();
    y.clone().slice([0..b, s - 1..s, 0..h]).reshape([b, h])
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

fn mha_module(device: &Device) -> MultiHeadAttention {
    let mut mha = MultiHeadAttentionConfig::new(4, 2).with_dropout(0.0).init(device);
    mha_set(&mut mha, device);
    mha
}

/// `by_name`: torch's norm1 → burn's norm_1, norm2 → norm_2. In burn's norm_first layer it is
/// norm_2 that runs before the attention and norm_1 before the feed-forward, so the right
/// mapping there swaps them.
fn encoder_layer(norm_first: bool, by_name: bool, mask: Option<Tensor<3, Bool>>, d: &Device) -> Value {
    let p = Device::flex();
    let config = TransformerEncoderConfig::new(4, 6, 2, 1)
        .with_dropout(0.0)
        .with_activation(ActivationConfig::Relu)
        .with_norm_first(norm_first);
    let mut layer = TransformerEncoderLayer::new(&config, d);
    mha_set(&mut layer.mha, d);
    layer.pwff.linear_inner = linear_from(data([6, 4], 50.0, &p), Some(data([6], 60.0, &p)), d);
    layer.pwff.linear_outer = linear_from(data([4, 6], 70.0, &p), Some(data([4], 80.0, &p)), d);
    let (norm1, norm2) = if norm_first && !by_name {
        (&mut layer.norm_2, &mut layer.norm_1)
    } else {
        (&mut layer.norm_1, &mut layer.norm_2)
    };
    norm1.gamma = param(data([4], 90.0, &p), d);
    norm1.beta = Some(param(data([4], 100.0, &p), d));
    norm2.gamma = param(data([4], 110.0, &p), d);
    norm2.beta = Some(param(data([4], 120.0, &p), d));
    let y = layer.forward(data([2, 3, 4], 0.0, d) * 2.0, None, mask);
    json!({"y": flat(y.clone()), "shape": y.dims()})
}

fn interp(x: Tensor<4>, size: [usize; 2], mode: InterpolateMode, align: Option<bool>) -> Value {
    let mut c = Interpolate2dConfig::new().with_output_size(Some(size)).with_mode(mode);
    if let Some(a) = align {
        c = c.with_align_corners(a);
    }
    // Flex does not implement every mode: a panic there is this row's result.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let y = std::panic::catch_unwind(|| c.init().forward(x));
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

fn main() {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 线性与卷积 ----
    {
        let lin = linear_from(data([3, 4], 10.0, &d), Some(data([3], 20.0, &d)), &ad);
        let x = input(data([2, 4], 0.0, &d), &ad);
        let y = lin.forward(x.clone());
        let g = backward(&y);
        let dw = lin.weight.val().grad(&g).unwrap().transpose(); // burn [in, out] → torch [out, in]
        row("linear", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": flat(dw), "db": grad(&lin.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let lin = linear_from(data([3, 4], 10.0, &d), None, &ad);
        let x = input(data([2, 4], 0.0, &d), &ad);
        let y = lin.forward(x.clone());
        let g = backward(&y);
        let dw = lin.weight.val().grad(&g).unwrap().transpose();
        row("linear_nobias", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g), "dw": flat(dw)}));
    }
    {
        // Conv weights are [out, in/groups, k...] on both sides: no transpose.
        let mut conv = Conv1dConfig::new(2, 3, 3)
            .with_stride(2)
            .with_padding(PaddingConfig1d::Explicit(1, 1))
            .init(&ad);
        conv.weight = param(data([3, 2, 3], 10.0, &d), &ad);
        conv.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([2, 2, 7], 0.0, &d), &ad);
        let y = conv.forward(x.clone());
        let g = backward(&y);
        row("conv1d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)}));
    }
    let conv2d_row = |c: Conv2dConfig, wshape: [usize; 4], xshape: [usize; 4], pad_input: bool| {
        let mut conv = c.init(&ad);
        conv.weight = param(data(wshape, 10.0, &d), &ad);
        conv.bias = Some(param(data([wshape[0]], 20.0, &d), &ad));
        let x = input(data(xshape, 0.0, &d), &ad);
        // padding_mode='reflect': burn's conv only pads with zeros, so pad the input first.
        let xin = if pad_input { x.clone().pad([(1, 1), (1, 1)], PadMode::Reflect) } else { x.clone() };
        let y = conv.forward(xin);
        let g = backward(&y);
        json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)})
    };
    row("conv2d", conv2d_row(Conv2dConfig::new([2, 3], [3, 3]), [3, 2, 3, 3], [2, 2, 5, 5], false));
    row("conv2d_stride_pad_dilation", conv2d_row(
        Conv2dConfig::new([2, 4], [3, 3]).with_stride([2, 2]).with_dilation([2, 2])
            .with_padding(PaddingConfig2d::Explicit(2, 2, 2, 2)),
        [4, 2, 3, 3], [1, 2, 7, 6], false));
    row("conv2d_groups", conv2d_row(
        Conv2dConfig::new([4, 6], [3, 3]).with_groups(2).with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1)),
        [6, 2, 3, 3], [1, 4, 4, 4], false));
    row("conv2d_same_even_kernel", conv2d_row(
        Conv2dConfig::new([2, 3], [2, 4]).with_padding(PaddingConfig2d::Same),
        [3, 2, 2, 4], [1, 2, 5, 6], false));
    {
        let conv = Conv2dConfig::new([2, 3], [3, 3]).with_stride([2, 2]).with_padding(PaddingConfig2d::Same).init(&d);
        let y = conv.forward(data([1, 2, 5, 5], 0.0, &d));
        row("conv2d_same_stride2", json!({"runs": true, "y_shape": y.dims()}));
    }
    row("conv2d_reflect", conv2d_row(Conv2dConfig::new([2, 3], [3, 3]), [3, 2, 3, 3], [1, 2, 4, 5], true));
    {
        // ConvTranspose2d weights are [in, out/groups, k, k] on both sides.
        let mut conv = ConvTranspose2dConfig::new([2, 3], [3, 3])
            .with_stride([2, 2])
            .with_padding([1, 1])
            .with_padding_out([1, 1])
            .init(&ad);
        conv.weight = param(data([2, 3, 3, 3], 10.0, &d), &ad);
        conv.bias = Some(param(data([3], 20.0, &d), &ad));
        let x = input(data([1, 2, 3, 4], 0.0, &d), &ad);
        let y = conv.forward(x.clone());
        let g = backward(&y);
        row("conv_transpose2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&conv.weight.val(), &g), "db": grad(&conv.bias.as_ref().unwrap().val(), &g)}));
    }

    // ---- 池化 ----
    let pool = |f: &dyn Fn(Tensor<4>) -> Tensor<4>, shape: [usize; 4]| {
        let x = input(data(shape, 0.0, &d), &ad);
        let y = f(x.clone());
        let g = backward(&y);
        json!({"y": flat(y.clone()), "dx": grad(&x, &g), "shape": y.dims()})
    };
    let pad1 = PaddingConfig2d::Explicit(1, 1, 1, 1);
    row("maxpool2d", pool(&|x| MaxPool2dConfig::new([2, 2]).init().forward(x), [1, 2, 4, 6]));
    row("maxpool2d_padding", pool(&|x| MaxPool2dConfig::new([3, 3]).with_strides([2, 2])
        .with_padding(pad1.clone()).init().forward(x), [1, 1, 5, 6]));
    row("maxpool2d_ceil_mode", pool(&|x| MaxPool2dConfig::new([2, 2]).with_ceil_mode(true).init().forward(x), [1, 1, 5, 5]));
    row("avgpool2d_padding", pool(&|x| AvgPool2dConfig::new([3, 3]).with_strides([2, 2])
        .with_padding(pad1.clone()).init().forward(x), [1, 1, 5, 6]));
    row("avgpool2d_exclude_pad", pool(&|x| AvgPool2dConfig::new([3, 3]).with_strides([2, 2])
        .with_padding(pad1.clone()).with_count_include_pad(false).init().forward(x), [1, 1, 5, 6]));
    row("avgpool2d_ceil_mode", pool(&|x| AvgPool2dConfig::new([2, 2]).with_ceil_mode(true).init().forward(x), [1, 1, 5, 5]));
    row("avgpool2d_ceil_pad", pool(&|x| AvgPool2dConfig::new([3, 3]).with_strides([2, 2])
        .with_padding(pad1.clone()).with_ceil_mode(true).init().forward(x), [1, 1, 6, 6]));
    row("adaptive_avg_pool2d", pool(&|x| AdaptiveAvgPool2dConfig::new([3, 3]).init().forward(x), [1, 2, 5, 7]));

    // ---- 归一化 ----
    {
        // On an autodiff device BatchNorm takes the training path (batch statistics).
        let mut bn = BatchNormConfig::new(3).init(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        let x = input(data([4, 3], 0.0, &d) * 3.0, &ad);
        let y = bn.forward(x.clone());
        let g = backward(&y);
        row("batchnorm1d_train", json!({"y": flat(y.clone()), "dx": grad(&x, &g),
            "dgamma": grad(&bn.gamma.val(), &g), "dbeta": grad(&bn.beta.val(), &g), "shape": y.dims()}));
        // One step from running_mean 0, running_var 1 (torch's m itself is a fresh BatchNorm1d(3)).
        let fresh = BatchNormConfig::new(3).init(&ad);
        let _ = fresh.forward(leaf(data([4, 3], 0.0, &d) * 3.0, &ad));
        row("batchnorm_running_mean", json!({"running_mean": flat(fresh.running_mean.value_sync())}));
        row("batchnorm_running_var", json!({"running_var": flat(fresh.running_var.value_sync())}));
        // No momentum=None: momentum 1/(t+1) before batch t makes the update the cumulative average.
        let mut bn = BatchNormConfig::new(3).init(&ad);
        for t in 0..3 {
            bn.momentum = 1.0 / (t + 1) as f64;
            let _ = bn.forward(leaf(data([4, 3], 10.0 * t as f64, &d) * 3.0, &ad));
        }
        row("batchnorm_momentum_none", json!({"running_mean": flat(bn.running_mean.value_sync())}));
    }
    {
        let mut bn = BatchNormConfig::new(3).init(&ad);
        bn.gamma = param(data([3], 10.0, &d), &ad);
        bn.beta = param(data([3], 20.0, &d), &ad);
        let x = input(data([2, 3, 2, 2], 0.0, &d) * 3.0, &ad);
        let y = bn.forward(x.clone());
        let g = backward(&y);
        row("batchnorm2d_train", json!({"y": flat(y.clone()), "dx": grad(&x, &g),
            "dgamma": grad(&bn.gamma.val(), &g), "shape": y.dims()}));
    }
    {
        // On a plain device BatchNorm uses the running statistics: PyTorch's eval().
        let mut bn = BatchNormConfig::new(3).init(&d);
        bn.gamma = Param::from_tensor(data([3], 10.0, &d));
        bn.beta = Param::from_tensor(data([3], 20.0, &d));
        bn.running_mean = RunningState::new(data([3], 60.0, &d));
        bn.running_var = RunningState::new(data([3], 70.0, &d).abs().add_scalar(0.5));
        let y = bn.forward(data([2, 3, 2, 2], 0.0, &d));
        row("batchnorm2d_eval", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        let mut ln = LayerNormConfig::new(4).init(&ad);
        ln.gamma = param(data([4], 10.0, &d), &ad);
        ln.beta = Some(param(data([4], 20.0, &d), &ad));
        let x = input(data([2, 3, 4], 0.0, &d) * 2.0, &ad);
        let y = ln.forward(x.clone());
        let g = backward(&y);
        row("layernorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&ln.gamma.val(), &g), "db": grad(&ln.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let mut gn = GroupNormConfig::new(2, 4).init(&ad);
        gn.gamma = Some(param(data([4], 10.0, &d), &ad));
        gn.beta = Some(param(data([4], 20.0, &d), &ad));
        let x = input(data([2, 4, 3], 0.0, &d) * 2.0, &ad);
        let y = gn.forward(x.clone());
        let g = backward(&y);
        row("groupnorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": grad(&gn.gamma.as_ref().unwrap().val(), &g), "db": grad(&gn.beta.as_ref().unwrap().val(), &g)}));
    }

    // ---- Dropout 与 Embedding ----
    {
        // No train()/eval(): Dropout drops only when the input lives on an autodiff device.
        // Seeded so that the output is the same on every run (the generators differ from torch's).
        ad.seed(0);
        let drop = DropoutConfig::new(0.5).init();
        let y = drop.forward(Tensor::<2>::ones([4, 8], &ad));
        let mut values = flat(y.clone());
        values.sort_by(|a, b| a.partial_cmp(b).unwrap());
        values.dedup();
        row("dropout_train", json!({"shape": y.dims(), "values": values}));
        let x = data([4, 8], 0.0, &d);
        row("dropout_eval", json!({"identity": flat(drop.forward(x.clone())) == flat(x)}));
        let y = DropoutConfig::new(0.3).init().forward(Tensor::<2>::ones([200, 500], &ad));
        let v = flat(y);
        let kept = v.iter().filter(|&&x| x != 0.0).count() as f32 / v.len() as f32;
        row("dropout_kept_fraction", json!({"kept": f64::from(kept)}));
    }
    {
        // Embedding weights are [n_embedding, d_model] on both sides.
        let mut emb = EmbeddingConfig::new(5, 3).init(&ad);
        emb.weight = param(data([5, 3], 10.0, &d), &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 1, 2]], &ad);
        let y = emb.forward(ids);
        let g = backward(&y);
        row("embedding", json!({"y": flat(y.clone()), "dw": grad(&emb.weight.val(), &g), "shape": y.dims()}));
    }
    {
        // No padding_idx: zero the row, and multiply the lookup by (id != pad) so that the row
        // gets no gradient.
        let pad = 0;
        let mut emb = EmbeddingConfig::new(5, 3).init(&ad);
        let w = data([5, 3], 10.0, &d).slice_assign([0..1, 0..3], Tensor::<2>::zeros([1, 3], &d));
        emb.weight = param(w, &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 0, 2]], &ad);
        let keep = ids.clone().not_equal_elem(pad).float().unsqueeze_dim::<3>(2);
        let y = emb.forward(ids) * keep;
        let g = backward(&y);
        row("embedding_padding_idx", json!({"y": flat(y.clone()), "dw": grad(&emb.weight.val(), &g), "shape": y.dims()}));
    }

    // ---- 循环网络 ----
    {
        let t = TorchRnn::new(1, 3, 4);
        let mut rnn = RnnConfig::new(3, 4, true).init(&ad);
        rnn.gate = t.gate(0, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = rnn.forward(x.clone(), None);
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&[&rnn.gate], &g);
        row("rnn", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(state.hidden)}));
    }
    {
        // PyTorch stacks the gates i, f, g, o; burn has one GateController each.
        let t = TorchRnn::new(4, 3, 4);
        let mut lstm = LstmConfig::new(3, 4, true).init(&ad);
        lstm.input_gate = t.gate(0, &ad);
        lstm.forget_gate = Some(t.gate(1, &ad));
        lstm.cell_gate = t.gate(2, &ad);
        lstm.output_gate = t.gate(3, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = lstm.forward(x.clone(), None);
        let g = backward(&y);
        let gates = [&lstm.input_gate, lstm.forget_gate.as_ref().unwrap(), &lstm.cell_gate, &lstm.output_gate];
        let (dw_ih, dw_hh) = stacked_grads(&gates, &g);
        row("lstm", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(state.hidden), "c_n": flat(state.cell)}));
    }
    {
        // PyTorch stacks r, z, n; burn's reset_after = true is PyTorch's n = tanh(W_in x + b_in + r·(W_hn h + b_hn)).
        let t = TorchRnn::new(3, 3, 4);
        let mut gru = GruConfig::new(3, 4, true).init(&ad);
        gru.reset_gate = t.gate(0, &ad);
        gru.update_gate = t.gate(1, &ad);
        gru.new_gate = t.gate(2, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let y = gru.forward(x.clone(), None);
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&[&gru.reset_gate, &gru.update_gate, &gru.new_gate], &g);
        row("gru", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(last_step(&y))}));
    }
    {
        let t = TorchRnn::new(4, 3, 4);
        let mut lstm = LstmConfig::new(3, 4, true).with_batch_first(false).init(&d);
        lstm.input_gate = t.gate(0, &d);
        lstm.forget_gate = Some(t.gate(1, &d));
        lstm.cell_gate = t.gate(2, &d);
        lstm.output_gate = t.gate(3, &d);
        let (y, _) = lstm.forward(data([5, 2, 3], 0.0, &d) * 2.0, None);
        row("lstm_seq_first", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        // No num_layers: two Lstm, the second fed the first's output; torch's l1 has phases 50..80.
        let (t0, t1) = (TorchRnn::at(4, 3, 4, 0.0), TorchRnn::at(4, 4, 4, 40.0));
        let mut l0 = LstmConfig::new(3, 4, true).init(&ad);
        let mut l1 = LstmConfig::new(4, 4, true).init(&ad);
        t0.set_lstm(&mut l0, &ad);
        t1.set_lstm(&mut l1, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y0, s0) = l0.forward(x.clone(), None);
        let (y, s1) = l1.forward(y0, None);
        let g = backward(&y);
        // torch's h_n, c_n: [num_layers, batch, hidden].
        let h_n = Tensor::stack::<3>(vec![s0.hidden, s1.hidden], 0);
        let c_n = Tensor::stack::<3>(vec![s0.cell, s1.cell], 0);
        row("lstm_num_layers", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h_n),
            "c_n": flat(c_n), "dx": grad(&x, &g)}));
    }
    {
        // torch's l0 (phases 10..40) → forward, l0_reverse (50..80) → reverse.
        let mut bi = BiLstmConfig::new(3, 4, true).init(&ad);
        TorchRnn::at(4, 3, 4, 0.0).set_lstm(&mut bi.forward, &ad);
        TorchRnn::at(4, 3, 4, 40.0).set_lstm(&mut bi.reverse, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, s) = bi.forward(x.clone(), None);
        let g = backward(&y);
        row("lstm_bidirectional", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(s.hidden),
            "c_n": flat(s.cell), "dx": grad(&x, &g)}));
    }
    {
        // No proj_size: the recurrence by hand; h = W_hr (o * tanh c) is fed back, so W_hh is [4h, proj].
        let (hd, pr) = (4, 2);
        let w_ih = data([4 * hd, 3], 10.0, &d).transpose();
        let w_hh = data([4 * hd, pr], 20.0, &d).transpose();
        let b = (data([4 * hd], 30.0, &d) + data([4 * hd], 40.0, &d)).unsqueeze::<2>();
        let w_hr = data([pr, hd], 50.0, &d).transpose();
        let x = data([2, 5, 3], 0.0, &d) * 2.0;
        let (mut h, mut c) = (Tensor::<2>::zeros([2, pr], &d), Tensor::<2>::zeros([2, hd], &d));
        let mut ys = Vec::new();
        for t in 0..5 {
            let xt = x.clone().slice([0..2, t..t + 1, 0..3]).reshape([2, 3]);
            let z = xt.matmul(w_ih.clone()) + h.matmul(w_hh.clone()) + b.clone();
            let [i, f, g, o]: [Tensor<2>; 4] = z.chunk(4, 1).try_into().unwrap(); // torch's order
            c = sigmoid(f) * c + sigmoid(i) * g.tanh();
            h = (sigmoid(o) * c.clone().tanh()).matmul(w_hr.clone());
            ys.push(h.clone());
        }
        let y = Tensor::stack::<3>(ys, 1);
        row("lstm_proj_size", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h), "c_n": flat(c)}));
    }
    {
        // No cells: a sequence of length 1 with the given state.
        let x = (data([2, 3], 0.0, &d) * 2.0).unsqueeze_dim::<3>(1);
        let h0 = data([2, 4], 80.0, &d);
        let t = TorchRnn::new(1, 3, 4);
        let mut rnn = RnnConfig::new(3, 4, true).init(&d);
        rnn.gate = t.gate(0, &d);
        let (_, s) = rnn.forward(x.clone(), Some(RnnState::new(h0.clone())));
        row("rnn_cell", json!({"h": flat(s.hidden)}));

        let t = TorchRnn::new(4, 3, 4);
        let mut lstm = LstmConfig::new(3, 4, true).init(&d);
        lstm.input_gate = t.gate(0, &d);
        lstm.forget_gate = Some(t.gate(1, &d));
        lstm.cell_gate = t.gate(2, &d);
        lstm.output_gate = t.gate(3, &d);
        let c0 = data([2, 4], 90.0, &d);
        let (_, s) = lstm.forward(x.clone(), Some(LstmState::new(c0, h0.clone())));
        row("lstm_cell", json!({"h": flat(s.hidden), "c": flat(s.cell)}));

        let t = TorchRnn::new(3, 3, 4);
        let mut gru = GruConfig::new(3, 4, true).init(&d);
        gru.reset_gate = t.gate(0, &d);
        gru.update_gate = t.gate(1, &d);
        gru.new_gate = t.gate(2, &d);
        let y = gru.forward(x, Some(h0));
        row("gru_cell", json!({"h": flat(last_step(&y))}));
    }

    // ---- 注意力 ----
    {
        let mha = mha_module(&d);
        let x = data([2, 3, 4], 0.0, &d) * 2.0;
        let out = mha.forward(MhaInput::self_attn(x.clone()));
        row("mha", json!({"y": flat(out.context.clone()), "shape": out.context.dims()}));
        row("mha_weights", json!({"weights_shape": out.weights.dims()}));
        let pad = Tensor::<2, Bool>::from_bool(TensorData::from([[false, false, true], [false, true, true]]), &d);
        let y = mha.forward(MhaInput::self_attn(x.clone()).mask_pad(pad)).context;
        row("mha_key_padding_mask", json!({"y": flat(y.clone()), "shape": y.dims()}));
        // [batch, L, S], true = masked: torch's triu(ones, 1) repeated per batch.
        let y = mha.forward(MhaInput::self_attn(x.clone()).mask_attn(generate_autoregressive_mask(2, 3, &d))).context;
        row("mha_attn_mask", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let pad = Tensor::<2, Bool>::from_bool(TensorData::from([[true, true, true], [false, true, true]]), &d);
        let y = mha.forward(MhaInput::self_attn(x).mask_pad(pad)).context;
        let nan: Vec<bool> = flat(y).iter().map(|v| v.is_nan()).collect();
        row("mha_all_masked", json!({"nan": nan}));
    }
    row("transformer_encoder_layer", encoder_layer(false, true, None, &d));
    row("transformer_encoder_causal", encoder_layer(false, true, Some(generate_autoregressive_mask(2, 3, &d)), &d));
    row("transformer_encoder_layer_norm_first", encoder_layer(true, false, None, &d));
    row("transformer_norm_first_by_name", encoder_layer(true, true, None, &d));

    // ---- 插值 ----
    let x34 = || data([1, 1, 3, 4], 0.0, &d);
    row("interpolate_nearest_up", interp(x34(), [6, 8], InterpolateMode::Nearest, None));
    row("interpolate_nearest_down", interp(data([1, 1, 5, 7], 0.0, &d), [3, 4], InterpolateMode::Nearest, None));
    row("interpolate_nearest_exact", interp(data([1, 1, 5, 7], 0.0, &d), [3, 4], InterpolateMode::NearestExact, None));
    row("interpolate_bilinear_align_false", interp(x34(), [5, 7], InterpolateMode::Linear, Some(false)));
    row("interpolate_bilinear_align_true", interp(x34(), [5, 7], InterpolateMode::Linear, Some(true)));
    row("interpolate_bilinear_default", interp(x34(), [5, 7], InterpolateMode::Linear, None));
    row("interpolate_bicubic", interp(x34(), [5, 7], InterpolateMode::Cubic, Some(false)));

    // ---- 模块的默认参数 ----
    // Each value is the Config's field right after ::new(..); "required" where new() takes it.
    let v = |x: Value| json!({ "v": x });
    let required = || json!({"v": "required"});
    let conv = Conv2dConfig::new([2, 3], [3, 3]);
    row("default_linear_bias", v(json!(LinearConfig::new(4, 3).bias)));
    row("default_conv2d_bias", v(json!(conv.bias)));
    row("default_conv2d_stride", v(json!(conv.stride)));
    row("default_conv2d_padding", v(padding_name(&conv.padding)));
    row("default_conv2d_dilation", v(json!(conv.dilation)));
    row("default_conv2d_groups", v(json!(conv.groups)));
    row("default_conv2d_padding_mode", v(json!("zeros"))); // no field: conv2d pads with zeros only
    row("default_conv_transpose2d_output_padding", v(json!(ConvTranspose2dConfig::new([2, 3], [3, 3]).padding_out)));
    let mp = MaxPool2dConfig::new([3, 3]);
    row("default_maxpool2d_stride", v(json!(mp.strides)));
    row("default_maxpool2d_padding", v(padding_name(&mp.padding)));
    row("default_maxpool2d_ceil_mode", v(json!(mp.ceil_mode)));
    let ap = AvgPool2dConfig::new([3, 3]);
    row("default_avgpool2d_count_include_pad", v(json!(ap.count_include_pad)));
    row("default_avgpool2d_ceil_mode", v(json!(ap.ceil_mode)));
    let bn = BatchNormConfig::new(3);
    row("default_batchnorm_eps", v(json!(bn.epsilon)));
    row("default_batchnorm_momentum", v(json!(bn.momentum)));
    // No affine / track_running_stats fields: gamma, beta and the running stats always exist.
    let bn_m = bn.init(&d);
    row("default_batchnorm_affine", v(json!(bn_m.gamma.val().dims() == [3])));
    row("default_batchnorm_track_running_stats", v(json!(bn_m.running_var.value().dims() == [3])));
    let ln = LayerNormConfig::new(4);
    row("default_layernorm_eps", v(json!(ln.epsilon)));
    row("default_layernorm_elementwise_affine", v(json!(ln.init(&d).gamma.val().dims() == [4])));
    row("default_layernorm_bias", v(json!(ln.bias)));
    let gn = GroupNormConfig::new(2, 4);
    row("default_groupnorm_eps", v(json!(gn.epsilon)));
    row("default_groupnorm_affine", v(json!(gn.affine)));
    row("default_instancenorm_affine", v(json!(InstanceNormConfig::new(3).affine)));
    row("default_dropout_p", required()); // DropoutConfig::new(prob)
    row("default_embedding_padding_idx", v(Value::Null)); // no such field
    let rnn = RnnConfig::new(3, 4, true);
    row("default_rnn_nonlinearity", v(json!(format!("{:?}", rnn.hidden_activation).to_lowercase())));
    row("default_rnn_bias", required()); // RnnConfig::new(d_input, d_hidden, bias)
    row("default_rnn_batch_first", v(json!(rnn.batch_first)));
    row("default_lstm_bias", required()); // LstmConfig::new(d_input, d_hidden, bias)
    row("default_lstm_batch_first", v(json!(LstmConfig::new(3, 4, true).batch_first)));
    row("default_gru_batch_first", v(json!(true))); // no field: Gru::forward takes [batch, seq, d]
    let mha = MultiHeadAttentionConfig::new(4, 2);
    row("default_mha_dropout", v(json!(mha.dropout)));
    row("default_mha_batch_first", v(json!(true))); // no field: MhaInput is [batch, seq, d_model]
    row("default_mha_bias", v(json!(mha.query_bias && mha.key_bias && mha.value_bias && mha.output_bias)));
    // d_ff is a required argument of new(); 2048 here only to build the config.
    let tr = TransformerEncoderConfig::new(4, 2048, 2, 1);
    row("default_transformer_dropout", v(json!(tr.dropout)));
    row("default_transformer_activation", v(json!(format!("{:?}", tr.activation).to_lowercase())));
    row("default_transformer_norm_first", v(json!(tr.norm_first)));
    row("default_transformer_layer_norm_eps", v(json!(tr.layer_norm_eps)));
    row("default_transformer_dim_feedforward", required());
    row("default_transformer_batch_first", v(json!(true))); // no field: [batch, seq, d_model]
    row("default_leaky_relu_negative_slope", v(json!(LeakyReluConfig::new().negative_slope)));
    row("default_elu_alpha", v(json!(EluConfig::new().alpha)));
    row("default_gelu_approximate", v(json!(if Gelu::new().approximate { "tanh" } else { "none" })));
    let pr = PReluConfig::new();
    row("default_prelu_init", v(json!([pr.num_parameters, pr.alpha])));
    let sp = SoftplusConfig::new();
    row("default_softplus_beta_threshold", v(json!([sp.beta, sp.threshold])));
    let ht = HardtanhConfig::new();
    row("default_hardtanh_range", v(json!([ht.min_val, ht.max_val])));
    let ip = Interpolate2dConfig::new();
    row("default_interpolate_mode", v(json!(format!("{:?}", ip.mode).to_lowercase())));
    row("default_interpolate_align_corners", v(json!(ip.align_corners)));

    println!("{}", json!({"rows": Value::Object(rows)}));
}
