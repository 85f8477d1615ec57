//! The torch → burn map, the functional and tensor-op rows real training scripts call: one
//! inline module per row of ref-7-ops.yaml's table, named by the row id; main() builds the
//! inputs (the PyTorch script's numbers, see its docstring: X = 0.5·sin(k + 1), C = 0.5·cos(k + 1),
//! W = 0.5·sin(0.7·(k + 1) + 1), in f64, rounded to f32 once), calls the module and prints the
//! same keys as the script. Gradient rows: "y" and the gradient of sum(y·C) with respect to
//! each input. NaN and ±inf travel as "nan", "inf", "-inf".
use burn::prelude::*;
use burn::tensor::{DType, Gradients};
use serde_json::{json, Map, Value};

fn grid<const D: usize>(f: impl Fn(f64) -> f64, shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| f((k + 1) as f64) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.sin(), shape, device)
}

fn coef<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * k.cos(), shape, device)
}

fn wave<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    grid(|k| 0.5 * (0.7 * k + 1.0).sin(), shape, device)
}

fn floats(v: &[f32], device: &Device) -> Tensor<1> {
    Tensor::<1>::from_floats(v, device)
}

fn ints<const D: usize>(v: Vec<i64>, shape: [usize; D], device: &Device) -> Tensor<D, Int> {
    Tensor::<D, Int>::from_data(TensorData::new(v, shape), device)
}

fn bools<const D: usize>(v: Vec<bool>, shape: [usize; D], device: &Device) -> Tensor<D, Bool> {
    Tensor::<D, Bool>::from_data(TensorData::new(v, shape), device)
}

fn num(x: f64) -> Value {
    if x.is_nan() {
        json!("nan")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(x)
    }
}

fn fv<const D: usize>(t: &Tensor<D>) -> Value {
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    Value::Array(v.into_iter().map(num).collect())
}

fn iv<const D: usize>(t: &Tensor<D, Int>) -> Value {
    json!(t.to_data().try_to_vec_as::<i64>().unwrap())
}

fn bv<const D: usize>(t: &Tensor<D, Bool>) -> Value {
    json!(t.to_data().try_to_vec::<bool>().unwrap())
}

fn out<const D: usize>(t: Tensor<D>) -> Value {
    json!({"y": fv(&t), "shape": t.dims().to_vec()})
}

fn outi<const D: usize>(t: Tensor<D, Int>) -> Value {
    json!({"y": iv(&t), "shape": t.dims().to_vec()})
}

fn outb<const D: usize>(t: Tensor<D, Bool>) -> Value {
    json!({"y": bv(&t), "shape": t.dims().to_vec()})
}

/// The gradients of sum(y·C), C = coef of y's shape.
fn gsum<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * coef(y.dims(), &y.device())).sum().backward()
}

fn grad<const D: usize>(x: &Tensor<D>, g: &Gradients) -> Value {
    fv(&x.grad(g).expect("no gradient"))
}

/// "y", "shape" and the gradients named in `grads`.
fn with_y<const D: usize>(y: &Tensor<D>, grads: Value) -> Value {
    let mut m = Map::new();
    m.insert("y".into(), fv(y));
    m.insert("shape".into(), json!(y.dims().to_vec()));
    if let Value::Object(g) = grads {
        m.extend(g);
    }
    Value::Object(m)
}

// ---------------------------------------------------------------- 注意力

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

// ---------------------------------------------------------------- 掩码

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

// ---------------------------------------------------------------- 卷积与池化（函数式）

mod conv1d_functional {
    use burn::prelude::*;
    use burn::tensor::module::conv1d;
    use burn::tensor::ops::ConvOptions;

    // 权重布局和 PyTorch 一样：[out, in, k]；ConvOptions::new(stride, padding, dilation, groups)
    pub fn run(x: Tensor<3>, w: Tensor<3>, b: Tensor<1>) -> Tensor<3> {
        conv1d(x, w, Some(b), ConvOptions::new([2], [1], [1], 1))
    }
}

mod conv2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::conv2d;
    use burn::tensor::ops::ConvOptions;

    // 权重 [out, in, kh, kw]，和 PyTorch 一样
    pub fn run(x: Tensor<4>, w: Tensor<4>, b: Tensor<1>) -> Tensor<4> {
        conv2d(x, w, Some(b), ConvOptions::new([1, 1], [1, 1], [1, 1], 1))
    }
}

mod conv2d_functional_groups {
    use burn::prelude::*;
    use burn::tensor::module::conv2d;
    use burn::tensor::ops::ConvOptions;

    // 权重 [out, in / groups, kh, kw]
    pub fn run(x: Tensor<4>, w: Tensor<4>) -> Tensor<4> {
        conv2d(x, w, None, ConvOptions::new([2, 2], [2, 2], [2, 2], 2))
    }
}

mod unfold {
    use burn::prelude::*;
    use burn::tensor::module::unfold4d;
    use burn::tensor::ops::UnfoldOptions;

    // [n, c, h, w] → [n, c·kh·kw, 块数]；UnfoldOptions::new(stride, padding, dilation)
    pub fn run(x: Tensor<4>) -> Tensor<3> {
        unfold4d(x, [2, 2], UnfoldOptions::new([1, 1], [0, 0], [1, 1]))
    }
}

mod fold {
    use burn::prelude::*;
    use burn::tensor::module::fold4d;
    use burn::tensor::ops::UnfoldOptions;

    // [n, c·kh·kw, 块数] → [n, c, 3, 4]，重叠处相加
    pub fn run(x: Tensor<3>) -> Tensor<4> {
        fold4d(x, [3, 4], [2, 2], UnfoldOptions::new([1, 1], [0, 0], [1, 1]))
    }
}

mod pixel_shuffle {
    use burn::nn::PixelShuffleConfig;
    use burn::prelude::*;

    // 没有函数式的 pixel_shuffle：用模块（它没有权重）
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        PixelShuffleConfig::new(2).init().forward(x)
    }
}

mod pixel_unshuffle {
    use burn::nn::PixelUnshuffleConfig;
    use burn::prelude::*;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        PixelUnshuffleConfig::new(2).init().forward(x)
    }
}

mod max_pool2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::max_pool2d;
    use burn::tensor::ops::MaxPoolOptions;

    // MaxPoolOptions::new(kernel)：stride 默认等于 kernel，和 PyTorch 一样
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        max_pool2d(x, MaxPoolOptions::new([2, 2]))
    }
}

mod max_pool2d_indices {
    use burn::prelude::*;
    use burn::tensor::module::max_pool2d_with_indices;
    use burn::tensor::ops::MaxPoolOptions;

    // 下标是每个通道里展平的 h·w 位置，和 PyTorch 一样
    pub fn run(x: Tensor<4>) -> (Tensor<4>, Tensor<4, Int>) {
        max_pool2d_with_indices(x, MaxPoolOptions::new([2, 2]))
    }
}

mod avg_pool2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::avg_pool2d;
    use burn::tensor::ops::AvgPoolOptions;

    // count_include_pad 默认 true，和 PyTorch 一样
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        let options = AvgPoolOptions::new([3, 3]).with_stride([2, 2]).with_padding([1, 1]);
        avg_pool2d(x, options)
    }
}

mod adaptive_avg_pool2d_functional {
    use burn::prelude::*;
    use burn::tensor::module::adaptive_avg_pool2d;

    // 全局平均池化：[n, c, h, w] → [n, c, 1, 1]
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        adaptive_avg_pool2d(x, [1, 1])
    }
}

// ---------------------------------------------------------------- 函数式的层

mod embedding_functional {
    use burn::prelude::*;
    use burn::tensor::module::embedding;

    // 参数顺序和 F.embedding(ids, w) 相反：先权重 [词数, 维数]，后下标 [batch, seq]
    pub fn run(ids: Tensor<2, Int>, w: Tensor<2>) -> Tensor<3> {
        embedding(w, ids)
    }
}

mod linear_functional_naive {
    use burn::prelude::*;
    use burn::tensor::module::linear;

    // w 照搬 PyTorch 的 [out, in]（这里是方阵，所以不报错）
    pub fn run(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        linear(x, w, Some(b))
    }
}

mod linear_functional {
    use burn::prelude::*;
    use burn::tensor::module::linear;

    // burn 的 linear 算 x @ w + b，w 是 [in, out]；PyTorch 的 w 是 [out, in]，先转置
    pub fn run(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        linear(x, w.transpose(), Some(b))
    }
}

mod layer_norm_functional {
    use burn::prelude::*;
    use burn::tensor::module::layer_norm;

    // 在最后一维上归一化
    pub fn run(x: Tensor<2>, w: Tensor<1>, b: Tensor<1>) -> Tensor<2> {
        layer_norm(x, w, Some(b), 1e-5)
    }
}

mod batch_norm_functional {
    use burn::prelude::*;
    use burn::tensor::module::batch_norm;

    // 参数顺序和 F.batch_norm 不同：burn 先 gamma、beta，后 mean、var（类型都是 Tensor<1>，写错不会报错）
    pub fn run(
        x: Tensor<2>,
        running_mean: Tensor<1>,
        running_var: Tensor<1>,
        w: Tensor<1>,
        b: Tensor<1>,
    ) -> Tensor<2> {
        batch_norm(x, w, b, running_mean, running_var, 1e-5)
    }
}

mod rms_norm {
    use burn::prelude::*;

    // 没有函数式的 rms_norm（模块是 burn::nn::RmsNorm）：x / sqrt(mean(x²) + eps) · w
    pub fn run(x: Tensor<2>, w: Tensor<1>) -> Tensor<2> {
        let rms = (x.clone().powi_scalar(2).mean_dim(1) + 1e-6).sqrt();
        x / rms * w.unsqueeze::<2>()
    }
}

mod normalize {
    use burn::prelude::*;

    // F.normalize(x, dim=1)：x / max(‖x‖₂, 1e-12)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let norm = x.clone().powi_scalar(2).sum_dim(1).sqrt();
        x / norm.clamp_min(1e-12)
    }
}

mod glu {
    use burn::prelude::*;
    use burn::tensor::activation::glu;

    // 前一半 · sigmoid(后一半)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        glu(x, -1)
    }
}

// ---------------------------------------------------------------- 创建与随机

mod one_hot {
    use burn::prelude::*;

    pub fn run(labels: Tensor<1, Int>) -> Tensor<2, Int> {
        labels.one_hot(4)
    }
}

mod one_hot_infer {
    use burn::prelude::*;

    // 类别数必须给出：PyTorch 不给时用 max + 1，这里照做
    pub fn run(labels: Tensor<1, Int>) -> Tensor<2, Int> {
        let num_classes = labels.clone().max().into_scalar::<i64>() as usize + 1;
        labels.one_hot(num_classes)
    }
}

mod meshgrid_ij {
    use burn::prelude::*;
    use burn::tensor::grid::{meshgrid, GridIndexing};

    pub fn run(a: Tensor<1>, b: Tensor<1>) -> [Tensor<2>; 2] {
        meshgrid(&[a, b], GridIndexing::Matrix)
    }
}

mod meshgrid_xy {
    use burn::prelude::*;
    use burn::tensor::grid::{meshgrid, GridIndexing};

    pub fn run(a: Tensor<1>, b: Tensor<1>) -> [Tensor<2>; 2] {
        meshgrid(&[a, b], GridIndexing::Cartesian)
    }
}

mod randn_generator {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有独立的 Generator：种子设在设备上，之后这个设备上的随机数都从它接着抽
    pub fn run(seed: u64, d: &Device) -> Tensor<1> {
        d.seed(seed);
        Tensor::<1>::random([4000], Distribution::Normal(0.0, 1.0), d)
    }
}

mod multinomial {
    use burn::prelude::*;

    // 每行是一个（不必归一化的）权重分布，有放回地抽 num_samples 个类别下标
    pub fn run(weights: Tensor<2>, num_samples: usize) -> Tensor<2, Int> {
        weights.categorical(num_samples)
    }
}

mod multinomial_no_replacement {
    use burn::prelude::*;

    pub fn run(weights: Tensor<2>, num_samples: usize) -> Tensor<2, Int> {
        weights.categorical(num_samples)
    }
}

mod multinomial_gumbel {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 不放回抽样（Gumbel-top-k）：log w 加上 Gumbel 噪声，取最大的 k 个的下标
    pub fn run(weights: Tensor<2>, num_samples: usize) -> Tensor<2, Int> {
        let u = weights.random_like(Distribution::Uniform(1e-10, 1.0));
        let gumbel = u.log().neg().log().neg();
        let (_, indices) = (weights.log() + gumbel).topk_with_indices(num_samples, 1);
        indices
    }
}

// ---------------------------------------------------------------- 矩阵与距离

mod einsum_bmm {
    use burn::prelude::*;

    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        Tensor::<3>::einsum("bij,bjk->bik", [a.into(), b.into()])
    }
}

mod einsum_attn {
    use burn::prelude::*;

    pub fn run(q: Tensor<4>, k: Tensor<4>) -> Tensor<4> {
        Tensor::<4>::einsum("bhqd,bhkd->bhqk", [q.into(), k.into()])
    }
}

mod baddbmm {
    use burn::prelude::*;

    // beta · c + alpha · (a @ b)
    pub fn run(c: Tensor<3>, a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        c * 0.5 + a.matmul(b) * 2.0
    }
}

mod addmm {
    use burn::prelude::*;

    pub fn run(bias: Tensor<1>, x: Tensor<2>, w: Tensor<2>) -> Tensor<2> {
        x.matmul(w) + bias.unsqueeze::<2>()
    }
}

mod cdist {
    use burn::prelude::*;

    // a: [b, p, m]，b: [b, r, m] → 两两的欧氏距离 [b, p, r]
    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        let diff = a.unsqueeze_dim::<4>(2) - b.unsqueeze_dim::<4>(1);
        diff.powi_scalar(2).sum_dim(3).squeeze_dim::<3>(3).sqrt()
    }
}

// ---------------------------------------------------------------- 逐元素与归约

mod lerp {
    use burn::prelude::*;

    // start + weight · (end - start)
    pub fn run(start: Tensor<2>, end: Tensor<2>, weight: f32) -> Tensor<2> {
        start.clone() + (end - start) * weight
    }
}

mod var_mean {
    use burn::prelude::*;

    // 返回 (方差, 均值)，方差无偏，保留被归约的维
    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        x.var_mean(1)
    }
}

mod nan_to_num {
    use burn::prelude::*;

    // NaN → 0，+inf → f32 最大值，-inf → f32 最小值
    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let x = x.clone().mask_fill(x.is_nan(), 0.0);
        let pos = x.clone().equal_elem(f32::INFINITY);
        let neg = x.clone().equal_elem(f32::NEG_INFINITY);
        x.mask_fill(pos, f32::MAX).mask_fill(neg, f32::MIN)
    }
}

mod nan_to_num_args {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let x = x.clone().mask_fill(x.is_nan(), 0.0);
        let pos = x.clone().equal_elem(f32::INFINITY);
        let neg = x.clone().equal_elem(f32::NEG_INFINITY);
        x.mask_fill(pos, 1.0).mask_fill(neg, -1.0)
    }
}

mod isclose {
    use burn::prelude::*;

    // None, None：默认 rtol = 1e-5、atol = 1e-8，和 PyTorch 一样；NaN 不等于 NaN
    pub fn run(a: Tensor<1>, b: Tensor<1>) -> Tensor<1, Bool> {
        a.is_close(b, None, None)
    }
}

mod allclose {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> (bool, bool) {
        (a.clone().all_close(b.clone(), None, None), a.all_close(b, None, Some(1e-3)))
    }
}

mod bucketize {
    use burn::prelude::*;

    // right=False：下标 = 严格小于 x 的边界个数（boundaries 已排好序）
    pub fn run(x: Tensor<1>, boundaries: Tensor<1>) -> Tensor<1, Int> {
        let (n, m) = (x.dims()[0], boundaries.dims()[0]);
        let x = x.unsqueeze_dim::<2>(1).expand([n, m]);
        let b = boundaries.unsqueeze_dim::<2>(0).expand([n, m]);
        x.greater(b).int().sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod searchsorted {
    use burn::prelude::*;

    // side='left'：下标 = sorted 里严格小于 v 的个数
    pub fn run(sorted: Tensor<1>, values: Tensor<1>) -> Tensor<1, Int> {
        let (m, n) = (sorted.dims()[0], values.dims()[0]);
        let v = values.unsqueeze_dim::<2>(1).expand([n, m]);
        let s = sorted.unsqueeze_dim::<2>(0).expand([n, m]);
        s.lower(v).int().sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod searchsorted_right {
    use burn::prelude::*;

    // right=True：下标 = sorted 里小于等于 v 的个数
    pub fn run(sorted: Tensor<1>, values: Tensor<1>) -> Tensor<1, Int> {
        let (m, n) = (sorted.dims()[0], values.dims()[0]);
        let v = values.unsqueeze_dim::<2>(1).expand([n, m]);
        let s = sorted.unsqueeze_dim::<2>(0).expand([n, m]);
        s.lower_equal(v).int().sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod clamp_min {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clamp_min(0.1)
    }
}

mod where_scalar {
    use burn::prelude::*;

    // torch.where(cond, x, 标量)：条件不成立处填标量
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let cond = x.clone().greater_elem(0.0);
        x.mask_fill(cond.bool_not(), 0.0)
    }
}

mod cummax {
    use burn::prelude::*;

    // 只有值，没有 PyTorch 同时返回的下标
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cummax(1)
    }
}

mod argsort {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2, Int> {
        x.argsort_descending(1)
    }
}

mod logical_ops {
    use burn::prelude::*;

    // (and, or, not)：& | ! 就是 bool_and、bool_or、bool_not（^ 是 bool_xor）
    pub fn run(a: Tensor<2, Bool>, b: Tensor<2, Bool>) -> (Tensor<2, Bool>, Tensor<2, Bool>, Tensor<2, Bool>) {
        (a.clone() & b.clone(), a.clone() | b, !a)
    }
}

mod square {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.square()
    }
}

mod rsqrt {
    use burn::prelude::*;

    // 没有 rsqrt：1 / sqrt(x)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.sqrt().recip()
    }
}

// ---------------------------------------------------------------- 散布与去重

mod scatter_reduce_sum {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    // include_self=True：x 原来的值也算进去
    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Add)
    }
}

mod scatter_reduce_amax {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Max)
    }
}

mod scatter_reduce_mean {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    // include_self=True：(x + 落到这里的 src 之和) / (1 + 落到这里的个数)
    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        let count = x.ones_like().scatter(1, idx.clone(), src.ones_like(), IndexingUpdateOp::Add);
        x.scatter(1, idx, src, IndexingUpdateOp::Add) / count
    }
}

mod unique {
    use burn::prelude::*;

    // 排序后，留下和前一个不同的元素（sorted=True 的结果）
    pub fn run(x: Tensor<1, Int>) -> Tensor<1, Int> {
        let n = x.dims()[0];
        let sorted = x.sort(0);
        let first = Tensor::<1, Bool>::from_data([true], &sorted.device());
        let changed = sorted.clone().narrow(0, 1, n - 1).not_equal(sorted.clone().narrow(0, 0, n - 1));
        sorted.mask_select(Tensor::cat(vec![first, changed], 0))
    }
}

mod unique_counts {
    use burn::prelude::*;

    // 返回 (不同的值, 各自的个数)：个数 = 相邻两段起点之差
    pub fn run(x: Tensor<1, Int>) -> (Tensor<1, Int>, Tensor<1, Int>) {
        let n = x.dims()[0];
        let d = x.device();
        let sorted = x.sort(0);
        let first = Tensor::<1, Bool>::from_data([true], &d);
        let changed = sorted.clone().narrow(0, 1, n - 1).not_equal(sorted.clone().narrow(0, 0, n - 1));
        let keep = Tensor::cat(vec![first, changed], 0);
        let starts = Tensor::<1, Int>::arange(0..n as i64, &d).mask_select(keep.clone());
        let m = starts.dims()[0];
        let end = Tensor::<1, Int>::from_data([n as i64], &d);
        let ends = Tensor::cat(vec![starts.clone().narrow(0, 1, m - 1), end], 0);
        (sorted.mask_select(keep), ends - starts)
    }
}

// ---------------------------------------------------------------- 填充

mod pad_constant {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // (左, 右, 上, 下)：和 F.pad 的顺序一样，从最后一维往前
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.pad((1, 2, 0, 1), PadMode::Constant(0.5))
    }
}

mod pad_reflect {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    pub fn run(x: Tensor<4>) -> Tensor<4> {
        x.pad((2, 2, 1, 1), PadMode::Reflect)
    }
}

mod pad_replicate {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // replicate 在 burn 里叫 Edge
    pub fn run(x: Tensor<4>) -> Tensor<4> {
        x.pad((1, 1, 2, 0), PadMode::Edge)
    }
}

mod pad_circular {
    use burn::prelude::*;

    // 没有 circular：左边接上末尾的 left 个，右边接上开头的 right 个
    pub fn run(x: Tensor<3>, left: usize, right: usize) -> Tensor<3> {
        let w = x.dims()[2];
        let head = x.clone().narrow(2, w - left, left);
        let tail = x.clone().narrow(2, 0, right);
        Tensor::cat(vec![head, x, tail], 2)
    }
}

// ---------------------------------------------------------------- 损失（函数式）

mod cross_entropy_functional {
    use burn::prelude::*;
    use burn::tensor::loss::cross_entropy_with_logits;

    // 函数式的交叉熵要的是目标概率：类别下标先 one_hot
    pub fn run(logits: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
        let classes = logits.dims()[1];
        cross_entropy_with_logits(logits, targets.one_hot::<2>(classes).float())
    }
}

mod kl_div_functional {
    use burn::nn::loss::{KLDivLossConfig, Reduction};
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    // 没有函数式的 kl_div：用损失模块，输入是 log 概率，目标是概率
    pub fn run(x: Tensor<2>, q: Tensor<2>) -> Tensor<1> {
        KLDivLossConfig::new().init().forward(log_softmax(x, 1), q, Reduction::BatchMean)
    }
}

mod bce_soft {
    use burn::prelude::*;

    // 目标是 [0, 1] 里的小数（BinaryCrossEntropyLoss 只收整数目标）；
    // 和 PyTorch 一样把 log 截在 -100
    pub fn run(p: Tensor<2>, target: Tensor<2>) -> Tensor<1> {
        let log_p = p.clone().log().clamp_min(-100.0);
        let log_not_p = p.neg().add_scalar(1.0).log().clamp_min(-100.0);
        let not_target = target.clone().neg().add_scalar(1.0);
        (target * log_p + not_target * log_not_p).sum().neg()
    }
}

// ---------------------------------------------------------------- VAE

mod vae_reparam {
    use burn::prelude::*;

    // eps 从外面给（训练时是 logvar.random_like(Distribution::Normal(0.0, 1.0))）
    pub fn run(mu: Tensor<2>, logvar: Tensor<2>, eps: Tensor<2>) -> Tensor<2> {
        mu + eps * (logvar * 0.5).exp()
    }
}

mod vae_kl {
    use burn::prelude::*;

    // -0.5 · Σ(1 + logvar - mu² - exp(logvar))
    pub fn run(mu: Tensor<2>, logvar: Tensor<2>) -> Tensor<1> {
        (logvar.clone() + 1.0 - mu.powi_scalar(2) - logvar.exp()).sum() * -0.5
    }
}

// ---------------------------------------------------------------- 形状

mod movedim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.movedim(1, -1)
    }
}

mod unfold_dim {
    use burn::prelude::*;

    // 第 1 维上长 3、步长 2 的窗口：[2, 7] → [2, 窗口数 3, 3]
    pub fn run(x: Tensor<2>) -> Tensor<3> {
        x.unfold(1, 3, 2)
    }
}

// ---------------------------------------------------------------- main

const KEEP: [bool; 9] = [true, true, false, true, true, false, true, true, false];
const KEEP_ROW: [bool; 9] = [true, false, false, false, false, false, true, true, true];
const LABELS: [i64; 5] = [2, 0, 3, 1, 2];
const W4: [f32; 12] = [0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1, 0.25, 0.25, 0.25, 0.25];
const SPECIAL: [f32; 6] = [0.5, f32::NAN, f32::INFINITY, -1.5, f32::NEG_INFINITY, 0.0];
const BOUNDS: [f32; 3] = [-0.25, 0.0, 0.25];
const POINTS: [f32; 7] = [-0.5, -0.25, -0.1, 0.0, 0.1, 0.25, 0.4];
const SC_IDX: [i64; 8] = [0, 1, 0, 2, 2, 2, 1, 0];
const TOKENS: [i64; 11] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5];

fn attention_rows(row: &mut impl FnMut(&str, Value)) {
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

    row("causal_mask", outb(causal_mask::run(4, &ad)));
    row("causal_mask_naive", outb(causal_mask_naive::run(4, &ad)));
    let x = data([2, 4, 4], &ad).require_grad();
    let y = masked_fill_softmax::run(x.clone());
    let g = gsum(&y);
    row("masked_fill_softmax", with_y(&y, json!({"dx": grad(&x, &g)})));
}

fn conv_rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let bias = || floats(&[0.1, -0.2, 0.3], &ad).require_grad();

    let (x, w, b) = (data([2, 2, 7], &ad).require_grad(), coef([3, 2, 3], &ad).require_grad(), bias());
    let y = conv1d_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("conv1d_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));

    let (x, w, b) = (data([1, 2, 5, 5], &ad).require_grad(), coef([3, 2, 3, 3], &ad).require_grad(), bias());
    let y = conv2d_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("conv2d_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));

    let (x, w) = (data([1, 4, 6, 6], &ad).require_grad(), coef([4, 2, 3, 3], &ad).require_grad());
    let y = conv2d_functional_groups::run(x.clone(), w.clone());
    let g = gsum(&y);
    row("conv2d_functional_groups", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g)})));

    let one = |name: &str, x: Tensor<4>, y: Tensor<4>, row: &mut dyn FnMut(&str, Value)| {
        let g = gsum(&y);
        row(name, with_y(&y, json!({"dx": grad(&x, &g)})));
    };

    let x = data([1, 2, 3, 4], &ad).require_grad();
    let y = unfold::run(x.clone());
    let g = gsum(&y);
    row("unfold", with_y(&y, json!({"dx": grad(&x, &g)})));

    let x = data([1, 8, 6], &ad).require_grad();
    let y = fold::run(x.clone());
    let g = gsum(&y);
    row("fold", with_y(&y, json!({"dx": grad(&x, &g)})));

    let x = data([1, 8, 2, 3], &ad).require_grad();
    one("pixel_shuffle", x.clone(), pixel_shuffle::run(x), row);
    row("pixel_unshuffle", out(pixel_unshuffle::run(data([1, 2, 4, 6], &ad))));
    let x = data([1, 2, 4, 6], &ad).require_grad();
    one("max_pool2d_functional", x.clone(), max_pool2d_functional::run(x), row);
    let (y, idx) = max_pool2d_indices::run(data([1, 2, 4, 6], &ad));
    row("max_pool2d_indices", json!({"y": fv(&y), "shape": y.dims().to_vec(), "indices": iv(&idx)}));
    let x = data([1, 2, 5, 5], &ad).require_grad();
    one("avg_pool2d_functional", x.clone(), avg_pool2d_functional::run(x), row);
    let x = data([2, 3, 4, 5], &ad).require_grad();
    one("adaptive_avg_pool2d_functional", x.clone(), adaptive_avg_pool2d_functional::run(x), row);
}

fn layer_rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let w = data([5, 3], &ad).require_grad();
    let ids = ints(vec![0, 2, 4, 4, 1, 0], [2, 3], &ad);
    let y = embedding_functional::run(ids, w.clone());
    let g = gsum(&y);
    row("embedding_functional", with_y(&y, json!({"dw": grad(&w, &g)})));

    let b4 = floats(&[0.1, -0.2, 0.3, 0.0], &ad);
    row("linear_functional_naive", out(linear_functional_naive::run(data([2, 4], &ad), coef([4, 4], &ad), b4)));

    let (x, w, b) = (
        data([2, 4], &ad).require_grad(),
        coef([3, 4], &ad).require_grad(),
        floats(&[0.1, -0.2, 0.3], &ad).require_grad(),
    );
    let y = linear_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("linear_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));

    let (x, w, b) = (
        data([3, 4], &ad).require_grad(),
        (coef([4], &ad) + 1.0).detach().require_grad(),
        wave([4], &ad).require_grad(),
    );
    let y = layer_norm_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("layer_norm_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));

    let (x, w, b) = (
        data([4, 3], &ad).require_grad(),
        (coef([3], &ad) + 1.0).detach().require_grad(),
        wave([3], &ad).require_grad(),
    );
    let (rm, rv) = (floats(&[0.1, -0.1, 0.2], &ad), floats(&[0.5, 1.5, 0.8], &ad));
    let y = batch_norm_functional::run(x.clone(), rm, rv, w.clone(), b.clone());
    let g = gsum(&y);
    row("batch_norm_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));

    let (x, w) = (data([3, 4], &ad).require_grad(), (coef([4], &ad) + 1.0).detach().require_grad());
    let y = rms_norm::run(x.clone(), w.clone());
    let g = gsum(&y);
    row("rms_norm", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g)})));

    let x = data([3, 4], &ad).require_grad();
    let y = normalize::run(x.clone());
    let g = gsum(&y);
    row("normalize", with_y(&y, json!({"dx": grad(&x, &g)})));

    let x = data([3, 4], &ad).require_grad();
    let y = glu::run(x.clone());
    let g = gsum(&y);
    row("glu", with_y(&y, json!({"dx": grad(&x, &g)})));
}

fn creation_rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let labels = || ints(LABELS.to_vec(), [5], &d);
    row("one_hot", outi(one_hot::run(labels())));
    row("one_hot_infer", outi(one_hot_infer::run(labels())));

    let ab = || (floats(&[1.0, 2.0, 3.0], &d), floats(&[10.0, 20.0], &d));
    let grids = |[xs, ys]: [Tensor<2>; 2]| {
        json!({"y": [fv(&xs), fv(&ys)], "shape": [xs.dims().to_vec(), ys.dims().to_vec()]})
    };
    let (a, b) = ab();
    row("meshgrid_ij", grids(meshgrid_ij::run(a, b)));
    let (a, b) = ab();
    row("meshgrid_xy", grids(meshgrid_xy::run(a, b)));

    let a = randn_generator::run(0, &d);
    let b = randn_generator::run(0, &d);
    let same = a.clone().equal(b).all().into_scalar::<bool>();
    let v: Vec<f64> = a.to_data().try_to_vec_as::<f64>().unwrap();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let std = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (v.len() - 1) as f64).sqrt();
    let dtype = match a.dtype() {
        DType::F32 | DType::Flex32 => "float32".to_string(),
        other => format!("{other:?}"),
    };
    row("randn_generator", json!({"same_seed_equal": same, "mean": mean, "std": std,
                                  "shape": a.dims().to_vec(), "dtype": dtype}));

    d.seed(0);
    let fixed = multinomial::run(Tensor::<2>::from_data([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], &d), 4);
    let s = multinomial::run(floats(&[0.2, 0.5, 0.3], &d).reshape([1, 3]), 20000);
    let s: Vec<i64> = s.to_data().try_to_vec_as::<i64>().unwrap();
    let freq: Vec<f64> = (0..3).map(|c| s.iter().filter(|&&v| v == c).count() as f64 / s.len() as f64).collect();
    row("multinomial", json!({"fixed": iv(&fixed), "freq": freq, "shape": fixed.dims().to_vec()}));

    let w4 = || floats(&W4, &d).reshape([3, 4]);
    let sorted = |s: Tensor<2, Int>| json!({"sorted": iv(&s.clone().sort(1)), "shape": s.dims().to_vec()});
    d.seed(0);
    row("multinomial_no_replacement", sorted(multinomial_no_replacement::run(w4(), 4)));
    d.seed(0);
    row("multinomial_gumbel", sorted(multinomial_gumbel::run(w4(), 4)));
}

fn matrix_rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let (a, b) = (data([2, 3, 4], &ad).require_grad(), coef([2, 4, 5], &ad).require_grad());
    let y = einsum_bmm::run(a.clone(), b.clone());
    let g = gsum(&y);
    row("einsum_bmm", with_y(&y, json!({"dx": grad(&a, &g), "grad_b": grad(&b, &g)})));

    let (q, k) = (data([1, 2, 3, 4], &ad).require_grad(), coef([1, 2, 5, 4], &ad).require_grad());
    let y = einsum_attn::run(q.clone(), k.clone());
    let g = gsum(&y);
    row("einsum_attn", with_y(&y, json!({"grad_q": grad(&q, &g), "grad_k": grad(&k, &g)})));

    row("baddbmm", out(baddbmm::run(data([2, 3, 5], &ad), coef([2, 3, 4], &ad), wave([2, 4, 5], &ad))));
    row("addmm", out(addmm::run(wave([5], &ad), data([3, 4], &ad), coef([4, 5], &ad))));

    let (a, b) = (data([2, 3, 4], &ad).require_grad(), coef([2, 5, 4], &ad).require_grad());
    let y = cdist::run(a.clone(), b.clone());
    let g = gsum(&y);
    row("cdist", with_y(&y, json!({"dx": grad(&a, &g), "grad_b": grad(&b, &g)})));
}

fn elementwise_rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let d = Device::flex();

    let (a, b) = (data([3, 4], &ad).require_grad(), coef([3, 4], &ad).require_grad());
    let y = lerp::run(a.clone(), b.clone(), 0.3);
    let g = gsum(&y);
    row("lerp", with_y(&y, json!({"dx": grad(&a, &g), "grad_b": grad(&b, &g)})));

    let (var, mean) = var_mean::run(data([3, 4], &d));
    row("var_mean", json!({"var": fv(&var), "mean": fv(&mean), "shape": var.dims().to_vec()}));

    row("nan_to_num", out(nan_to_num::run(floats(&SPECIAL, &d))));
    row("nan_to_num_args", out(nan_to_num_args::run(floats(&SPECIAL, &d))));

    let a = floats(&[1.0, 2.0, f32::INFINITY, f32::NAN, 1e-9, 100.0], &d);
    let b = floats(&[1.0 + 1e-6, 2.001, f32::INFINITY, f32::NAN, 0.0, 100.0005], &d);
    row("isclose", outb(isclose::run(a, b)));
    let (def, loose) = allclose::run(data([2, 3], &d), data([2, 3], &d) + 5e-4);
    row("allclose", json!({"default": def, "atol_1e_3": loose}));

    let (bounds, points) = (|| floats(&BOUNDS, &d), || floats(&POINTS, &d));
    row("bucketize", outi(bucketize::run(points(), bounds())));
    row("searchsorted", outi(searchsorted::run(bounds(), points())));
    row("searchsorted_right", outi(searchsorted_right::run(bounds(), points())));

    row("clamp_min", out(clamp_min::run(data([3, 4], &d))));
    row("where_scalar", out(where_scalar::run(data([3, 4], &d))));
    row("cummax", out(cummax::run(data([3, 4], &d))));
    row("argsort", outi(argsort::run(data([3, 4], &d))));
    let (and, or, not) = logical_ops::run(data([3, 4], &d).greater_elem(0.0), coef([3, 4], &d).greater_elem(0.0));
    row("logical_ops", json!({"and": bv(&and), "or": bv(&or), "not": bv(&not), "shape": and.dims().to_vec()}));
    row("square", out(square::run(data([3, 4], &d))));
    row("rsqrt", out(rsqrt::run(data([3, 4], &d).abs() + 0.1)));
}

fn scatter_rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let idx = || ints(SC_IDX.to_vec(), [2, 4], &d);
    row("scatter_reduce_sum", out(scatter_reduce_sum::run(data([2, 3], &d), idx(), coef([2, 4], &d))));
    row("scatter_reduce_amax", out(scatter_reduce_amax::run(data([2, 3], &d), idx(), coef([2, 4], &d))));
    row("scatter_reduce_mean", out(scatter_reduce_mean::run(data([2, 3], &d), idx(), coef([2, 4], &d))));

    let tokens = || ints(TOKENS.to_vec(), [11], &d);
    row("unique", outi(unique::run(tokens())));
    let (u, c) = unique_counts::run(tokens());
    row("unique_counts", json!({"y": iv(&u), "shape": u.dims().to_vec(), "counts": iv(&c)}));

    row("pad_constant", out(pad_constant::run(data([1, 2, 3], &d))));
    row("pad_reflect", out(pad_reflect::run(data([1, 1, 3, 4], &d))));
    row("pad_replicate", out(pad_replicate::run(data([1, 1, 3, 4], &d))));
    row("pad_circular", out(pad_circular::run(data([1, 2, 5], &d), 1, 2)));
}

fn loss_rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();
    let logits = || grid(|k| 2.0 * k.sin(), [4, 3], &ad).require_grad();
    let loss_out = |loss: Tensor<1>, grads: Value| {
        let mut m = Map::new();
        m.insert("loss".into(), fv(&loss));
        if let Value::Object(g) = grads {
            m.extend(g);
        }
        Value::Object(m)
    };

    let x = logits();
    let loss = cross_entropy_functional::run(x.clone(), ints(vec![2, 0, 1, 2], [4], &ad));
    let g = loss.backward();
    row("cross_entropy_functional", loss_out(loss, json!({"dx": grad(&x, &g)})));

    let x = logits();
    let q = burn::tensor::activation::softmax(coef([4, 3], &ad) * 3.0, 1);
    let loss = kl_div_functional::run(x.clone(), q);
    let g = loss.backward();
    row("kl_div_functional", loss_out(loss, json!({"dx": grad(&x, &g)})));

    let p = grid(|k| 1.0 / (1.0 + (-2.0 * k.sin()).exp()), [2, 6], &ad).require_grad();
    let target = grid(|k| 0.5 + 0.45 * k.cos(), [2, 6], &ad);
    let loss = bce_soft::run(p.clone(), target);
    let g = loss.backward();
    row("bce_soft", loss_out(loss, json!({"dx": grad(&p, &g)})));

    let (mu, logvar) = (data([2, 3], &ad).require_grad(), coef([2, 3], &ad).require_grad());
    let y = vae_reparam::run(mu.clone(), logvar.clone(), wave([2, 3], &ad));
    let g = gsum(&y);
    row("vae_reparam", with_y(&y, json!({"grad_mu": grad(&mu, &g), "grad_logvar": grad(&logvar, &g)})));

    let (mu, logvar) = (data([2, 3], &ad).require_grad(), coef([2, 3], &ad).require_grad());
    let loss = vae_kl::run(mu.clone(), logvar.clone());
    let g = loss.backward();
    row("vae_kl", loss_out(loss, json!({"grad_mu": grad(&mu, &g), "grad_logvar": grad(&logvar, &g)})));

    let d = Device::flex();
    row("movedim", out(movedim::run(data([2, 3, 4], &d))));
    row("unfold_dim", out(unfold_dim::run(data([2, 7], &d))));
}

fn main() {
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    attention_rows(&mut row);
    conv_rows(&mut row);
    layer_rows(&mut row);
    creation_rows(&mut row);
    matrix_rows(&mut row);
    elementwise_rows(&mut row);
    scatter_rows(&mut row);
    loss_rows(&mut row);
    println!("{}", json!({"rows": Value::Object(rows)}));
}
