//! The torch → burn map, tensor rows: one module per row of ref-1-tensor.yaml's table, named by
//! the row's id; its body is the row's burn cell on the page. main() builds the inputs, calls the
//! row's `run` and prints {"rows": {<row id>: {...}}}: most rows {"v": the values, flattened,
//! "shape": the shape}, some add keys. The inputs are the same numbers as the PyTorch script's:
//! X[k] = 0.5·sin(k + 1), in f64, rounded to f32 once. NaN and ±inf travel as "nan", "inf",
//! "-inf" (serde_json would write null).
use burn::prelude::*;
use burn::tensor::DType;
use serde_json::{json, Map, Value};

// ---- 创建 ----

mod from_data {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], d)
    }
}

mod zeros {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::zeros([2, 3], d)
    }
}

mod ones {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::ones([2, 3], d)
    }
}

mod full {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::full([2, 3], 7.0, d)
    }
}

mod arange_int {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::arange(0..5, d)
    }
}

mod long_tensor {
    use burn::prelude::*;

    // 整数张量是 Tensor<D, Int>
    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::from_data([3, 0, 2], d)
    }
}

mod arange_dtype {
    use burn::prelude::*;
    use burn::tensor::DType;

    // Int 的默认 dtype 随设备：Device::flex() 上是 int32
    pub fn run(d: &Device) -> DType {
        Tensor::<1, Int>::arange(0..5, d).dtype()
    }
}

mod arange_i64 {
    use burn::prelude::*;
    use burn::tensor::DType;

    // 设备和 dtype 一起给：(设备, DType::I64)
    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::arange(0..5, (d, DType::I64))
    }
}

mod arange_step {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::arange_step(0..10, 3, d)
    }
}

mod arange_float {
    use burn::prelude::*;

    // 没有浮点的 arange：先取整数，转成浮点，再乘步长
    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1, Int>::arange(0..4, d).float() * 0.25
    }
}

mod linspace {
    use burn::prelude::*;

    // 没有 linspace：0..5 个整数，除以 (5 - 1)，得到 0 到 1 的 5 个点
    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1, Int>::arange(0..5, d).float() / 4.0
    }
}

mod eye {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::eye(3, d)
    }
}

mod zeros_like {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.zeros_like()
    }
}

mod ones_like {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.ones_like()
    }
}

mod full_like {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.full_like(-1.5)
    }
}

mod empty {
    use burn::prelude::*;

    // 内容未定：只有形状和 dtype 可比
    pub fn run(d: &Device) -> Tensor<2> {
        Tensor::<2>::empty([2, 3], d)
    }
}

// ---- 随机数 ----

mod seed_repeat {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 同一个种子抽两次
    pub fn run(d: &Device) -> (Tensor<1>, Tensor<1>) {
        d.seed(42);
        let a = Tensor::<1>::random([1000], Distribution::Default, d);
        d.seed(42);
        let b = Tensor::<1>::random([1000], Distribution::Default, d);
        (a, b)
    }
}

mod seed_values {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    pub fn run(d: &Device) -> Tensor<1> {
        d.seed(42);
        Tensor::<1>::random([4], Distribution::Default, d)
    }
}

mod rand {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // Distribution::Default 是 [0, 1) 上的均匀分布
    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1>::random([10000], Distribution::Default, d)
    }
}

mod randn {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1>::random([10000], Distribution::Normal(0.0, 1.0), d)
    }
}

mod randint {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    pub fn run(d: &Device) -> Tensor<1, Int> {
        Tensor::<1, Int>::random([1000], Distribution::Uniform(0.0, 10.0), d)
    }
}

mod randn_like {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.random_like(Distribution::Normal(0.0, 1.0))
    }
}

// ---- 形状 ----

mod reshape {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.reshape([2, 6])
    }
}

mod reshape_infer {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.reshape([-1, 6])
    }
}

mod view {
    use burn::prelude::*;

    // 没有 view：用 reshape
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.reshape([2, 6])
    }
}

mod permute {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.permute([2, 0, 1])
    }
}

mod t_2d {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.t()
    }
}

mod transpose_01 {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.swap_dims(0, 1)
    }
}

mod size {
    use burn::prelude::*;

    // x.size() 和 x.shape 是 dims()：一个 [usize; D]
    pub fn run(x: Tensor<3>) -> [usize; 3] {
        x.dims()
    }
}

mod size_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> usize {
        x.dims()[1]
    }
}

mod contiguous {
    use burn::prelude::*;

    // 没有 contiguous()，也不需要：后面的 reshape 自己处理步长
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.swap_dims(0, 1)
    }
}

mod mt_3d {
    use burn::prelude::*;

    // burn 的 transpose 交换最后两维
    pub fn run(x: Tensor<3>) -> Tensor<3> {
        x.transpose()
    }
}

mod squeeze {
    use burn::prelude::*;

    // 去掉所有长度为 1 的维；结果的秩写在类型参数里
    pub fn run(x: Tensor<4>) -> Tensor<2> {
        x.squeeze::<2>()
    }
}

mod squeeze_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<2> {
        x.squeeze_dim::<2>(0)
    }
}

mod unsqueeze {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<3> {
        x.unsqueeze_dim::<3>(1)
    }
}

mod unsqueeze_neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<3> {
        x.unsqueeze_dim::<3>(-1)
    }
}

mod expand {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.expand([3, 4])
    }
}

mod repeat {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.repeat(&[2, 3])
    }
}

mod repeat_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.repeat_dim(0, 3)
    }
}

mod repeat_interleave {
    use burn::prelude::*;

    // 没有 repeat_interleave：在第 0 维后插一维，沿它重复，再并回去
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let [rows, cols] = x.dims();
        x.unsqueeze_dim::<3>(1).repeat_dim(1, 2).reshape([rows * 2, cols])
    }
}

mod cat {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        Tensor::cat(vec![a, b], 1)
    }
}

mod stack {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<3> {
        Tensor::stack::<3>(vec![a, b], 0)
    }
}

mod split {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.split(2, 1)
    }
}

mod split_sizes {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.split_with_sizes(vec![1, 4], 1)
    }
}

mod chunk {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.chunk(3, 1)
    }
}

mod chunk_uneven {
    use burn::prelude::*;

    // 6 列分 4 块：burn 0.22.1 在这里 panic
    pub fn run(x: Tensor<2>) -> Vec<Tensor<2>> {
        x.chunk(4, 1)
    }
}

mod chunk_uneven_fix {
    use burn::prelude::*;

    // PyTorch 的 chunk：块宽 = ceil(长度 / 块数)，最后一块可以短，块数可以少于要求
    pub fn run(x: Tensor<2>, chunks: usize, dim: usize) -> Vec<Tensor<2>> {
        let width = x.dims()[dim].div_ceil(chunks);
        x.split(width, dim)
    }
}

mod flatten {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<1> {
        x.flatten::<1>(0, 2)
    }
}

mod flatten_from {
    use burn::prelude::*;

    pub fn run(x: Tensor<3>) -> Tensor<2> {
        x.flatten::<2>(1, 2)
    }
}

mod narrow {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.narrow(1, 1, 2)
    }
}

mod slice_range {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.slice(s![.., 1..3])
    }
}

mod slice_neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.slice(s![.., -2..])
    }
}

mod slice_step {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.slice(s![.., ..;2])
    }
}

mod flip {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.flip([0])
    }
}

mod roll {
    use burn::prelude::*;

    // roll_dim(位移, 维)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.roll_dim(1, 1)
    }
}

// ---- 索引与掩码 ----

mod gather {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>) -> Tensor<2> {
        x.gather(1, idx)
    }
}

mod scatter {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Assign)
    }
}

mod scatter_add {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<2, Int>, src: Tensor<2>) -> Tensor<2> {
        x.scatter(1, idx, src, IndexingUpdateOp::Add)
    }
}

mod index_select {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, idx: Tensor<1, Int>) -> Tensor<2> {
        x.select(0, idx)
    }
}

mod index_add {
    use burn::prelude::*;
    use burn::tensor::IndexingUpdateOp;

    pub fn run(x: Tensor<2>, idx: Tensor<1, Int>, src: Tensor<2>) -> Tensor<2> {
        x.select_assign(0, idx, src, IndexingUpdateOp::Add)
    }
}

mod masked_fill {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clone().mask_fill(x.greater_elem(0.0), 0.0)
    }
}

mod masked_select {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.clone().mask_select(x.greater_elem(0.0))
    }
}

mod r#where {
    use burn::prelude::*;

    // torch.where(cond, a, b) 是 b.mask_where(cond, a)：条件为假处留下的张量在前
    pub fn run(cond: Tensor<2, Bool>, a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        b.mask_where(cond, a)
    }
}

mod tril {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.tril(0)
    }
}

mod triu {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.triu(1)
    }
}

mod nonzero {
    use burn::prelude::*;

    // 每个真值的坐标，一行一个
    pub fn run(m: Tensor<2, Bool>) -> Tensor<2, Int> {
        m.argwhere()
    }
}

mod nonzero_tuple {
    use burn::prelude::*;

    // 每一维一个下标张量
    pub fn run(m: Tensor<2, Bool>) -> Vec<Tensor<1, Int>> {
        m.nonzero()
    }
}

mod take {
    use burn::prelude::*;

    // torch.take 按展平后的下标取：先展平，再沿第 0 维取
    pub fn run(x: Tensor<2>, idx: Tensor<1, Int>) -> Tensor<1> {
        x.flatten::<1>(0, 1).take::<1, 1>(0, idx)
    }
}

// ---- 逐元素运算 ----

mod add_broadcast {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a + b
    }
}

mod add_rank {
    use burn::prelude::*;

    // 秩不同的张量不能直接相加：先把 b 升成 2 维（在前面补长度为 1 的维）
    pub fn run(a: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        a + b.unsqueeze::<2>()
    }
}

mod arith_scalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        (x - 1.0) * 3.0 / 2.0
    }
}

mod pow_int {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.powi_scalar(3)
    }
}

mod pow_float {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs().powf_scalar(0.5)
    }
}

mod pow_neg_base {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.powf_scalar(3.0)
    }
}

mod sqrt {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs().sqrt()
    }
}

mod exp {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.exp()
    }
}

mod log {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs().log()
    }
}

mod log1p {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.log1p()
    }
}

mod abs {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.abs()
    }
}

mod neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        -x
    }
}

mod sign {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.sign()
    }
}

mod clamp {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clamp(-0.2, 0.3)
    }
}

mod floor {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.floor()
    }
}

mod ceil {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.ceil()
    }
}

mod round {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.round()
    }
}

mod trunc {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        x.trunc()
    }
}

mod remainder {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.remainder_scalar(0.3)
    }
}

mod remainder_neg {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.remainder_scalar(-0.3)
    }
}

mod fmod {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.fmod_scalar(0.3)
    }
}

mod reciprocal {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.recip()
    }
}

mod sin_cos {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        (x.clone().sin(), x.cos())
    }
}

mod tanh {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.tanh()
    }
}

mod erf {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.erf()
    }
}

// ---- 比较 ----

mod eq {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.equal(b)
    }
}

mod ne {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.not_equal(b)
    }
}

mod gt {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.greater(b)
    }
}

mod ge {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.greater_equal(b)
    }
}

mod lt {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.lower(b)
    }
}

mod le {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2, Bool> {
        a.lower_equal(b)
    }
}

mod gt_scalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2, Bool> {
        x.greater_elem(0.0)
    }
}

mod isnan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1, Bool> {
        x.is_nan()
    }
}

mod isinf {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1, Bool> {
        x.is_inf()
    }
}

mod any_all {
    use burn::prelude::*;

    // any()、all() 给只有一个元素的 Tensor<1, Bool>；into_scalar 取出 bool
    pub fn run(m: Tensor<2, Bool>) -> (bool, bool) {
        (m.clone().any().into_scalar::<bool>(), m.all().into_scalar::<bool>())
    }
}

mod any_dim {
    use burn::prelude::*;

    pub fn run(m: Tensor<2, Bool>) -> Tensor<2, Bool> {
        m.any_dim(1)
    }
}

mod maximum {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a.max_pair(b)
    }
}

mod minimum {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a.min_pair(b)
    }
}

mod maximum_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>, zeros: Tensor<1>) -> Tensor<1> {
        x.max_pair(zeros)
    }
}

mod max_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> f32 {
        x.max().into_scalar::<f32>()
    }
}

mod min_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> f32 {
        x.min().into_scalar::<f32>()
    }
}

mod argmax_nan {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> i64 {
        x.argmax(0).into_scalar::<i64>()
    }
}

// ---- 归约 ----

mod sum_all {
    use burn::prelude::*;

    // 只有一个元素的 Tensor<1>
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.sum()
    }
}

mod mean_all {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        x.mean().into_scalar::<f32>()
    }
}

mod sum_dim {
    use burn::prelude::*;

    // sum_dim 保留被归约的维（[3, 1]），squeeze_dim 去掉它
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.sum_dim(1).squeeze_dim::<1>(1)
    }
}

mod sum_dim_shape {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> [usize; 2] {
        x.sum_dim(1).dims()
    }
}

mod argmax_dim_shape {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> [usize; 2] {
        x.argmax(1).dims()
    }
}

mod argmax_dim {
    use burn::prelude::*;

    // argmax 保留被归约的维（[3, 1]），squeeze_dim 去掉它
    pub fn run(x: Tensor<2>) -> Tensor<1, Int> {
        x.argmax(1).squeeze_dim::<1>(1)
    }
}

mod sum_keepdim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.sum_dim(1)
    }
}

mod sum_neg_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.sum_dim(-1)
    }
}

mod mean_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.mean_dim(0)
    }
}

mod max_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2, Int>) {
        x.max_dim_with_indices(1)
    }
}

mod argmax_ties {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> i64 {
        x.argmax(0).into_scalar::<i64>()
    }
}

mod argmin_ties {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> i64 {
        x.argmin(0).into_scalar::<i64>()
    }
}

mod min_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.min_dim(0)
    }
}

mod var_default {
    use burn::prelude::*;

    // var 是无偏方差（除以 n - 1），保留被归约的维
    pub fn run(x: Tensor<2>) -> Tensor<1> {
        x.var(1).squeeze_dim::<1>(1)
    }
}

mod var_unbiased0 {
    use burn::prelude::*;

    // 除以 n
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.var_bias(1)
    }
}

mod std {
    use burn::prelude::*;

    // 没有 std：无偏方差开方
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.var(1).sqrt()
    }
}

mod prod {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        x.prod().into_scalar::<f32>()
    }
}

mod prod_dim {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.prod_dim(1)
    }
}

mod cumsum {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cumsum(1)
    }
}

mod cumprod {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cumprod(1)
    }
}

mod logsumexp {
    use burn::prelude::*;

    // 没有 logsumexp：减去每行的最大值再 exp、求和、log，不会溢出
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let m = x.clone().max_dim(1);
        m.clone() + (x - m).exp().sum_dim(1).log()
    }
}

mod softmax {
    use burn::prelude::*;
    use burn::tensor::activation::softmax;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        softmax(x, 1)
    }
}

mod softmax_neg_dim {
    use burn::prelude::*;
    use burn::tensor::activation::softmax;

    pub fn run(x: Tensor<3>) -> Tensor<3> {
        softmax(x, -1)
    }
}

mod log_softmax {
    use burn::prelude::*;
    use burn::tensor::activation::log_softmax;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        log_softmax(x, 1)
    }
}

mod sort {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2, Int>) {
        x.sort_with_indices(1)
    }
}

mod topk {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> (Tensor<2>, Tensor<2, Int>) {
        x.topk_with_indices(2, 1)
    }
}

// ---- 矩阵乘 ----

mod matmul_2d {
    use burn::prelude::*;

    pub fn run(a: Tensor<2>, b: Tensor<2>) -> Tensor<2> {
        a.matmul(b)
    }
}

mod bmm {
    use burn::prelude::*;

    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        a.matmul(b)
    }
}

mod matmul_bcast {
    use burn::prelude::*;

    // 长度为 1 的批维会广播
    pub fn run(a: Tensor<3>, b: Tensor<3>) -> Tensor<3> {
        a.matmul(b)
    }
}

mod matmul_3d_2d {
    use burn::prelude::*;

    // matmul 只收同秩的张量：w 先升成 [1, 4, 5]，再广播
    pub fn run(a: Tensor<3>, w: Tensor<2>) -> Tensor<3> {
        a.matmul(w.unsqueeze::<3>())
    }
}

mod dot {
    use burn::prelude::*;

    // 只有一个元素的 Tensor<1>
    pub fn run(a: Tensor<1>, b: Tensor<1>) -> Tensor<1> {
        a.dot(b)
    }
}

// ---- dtype 与设备 ----

mod to_double {
    use burn::prelude::*;
    use burn::tensor::DType;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cast(DType::F64)
    }
}

mod to_long {
    use burn::prelude::*;

    // 向零截断；dtype 是 Int 的默认（Device::flex() 上 int32）
    pub fn run(x: Tensor<1>) -> Tensor<1, Int> {
        x.int()
    }
}

mod to_long_i64 {
    use burn::prelude::*;
    use burn::tensor::IntDType;

    pub fn run(x: Tensor<1>) -> Tensor<1, Int> {
        x.cast(IntDType::I64)
    }
}

mod int_to_float {
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<1> {
        Tensor::<1, Int>::arange(0..4, d).float()
    }
}

mod to_bool {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1, Bool> {
        x.bool()
    }
}

mod to_device {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, device: &Device) -> Tensor<2> {
        x.to_device(device)
    }
}

mod f16_roundtrip {
    use burn::prelude::*;
    use burn::tensor::DType;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cast(DType::F16).cast(DType::F32)
    }
}

mod bf16_roundtrip {
    use burn::prelude::*;
    use burn::tensor::DType;

    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.cast(DType::BF16).cast(DType::F32)
    }
}

// ---- 与主机数据 ----

mod from_list {
    use burn::prelude::*;

    pub fn run(v: Vec<f32>, d: &Device) -> Tensor<2> {
        Tensor::<2>::from_data(TensorData::new(v, [2, 3]), d)
    }
}

mod from_numpy {
    use burn::prelude::*;

    // 没有 from_numpy：主机上的 Vec 加上形状
    pub fn run(v: Vec<f32>, d: &Device) -> Tensor<2> {
        Tensor::<2>::from_data(TensorData::new(v, [2, 3]), d)
    }
}

mod tolist {
    use burn::prelude::*;

    // 扁平的 Vec，按行优先
    pub fn run(x: Tensor<2>) -> Vec<f32> {
        x.to_data().try_to_vec::<f32>().unwrap()
    }
}

mod tolist_nested {
    use burn::prelude::*;

    // 扁平的 Vec 按行切开
    pub fn run(x: Tensor<2>) -> Vec<Vec<f32>> {
        let [_, cols] = x.dims();
        let flat = x.to_data().try_to_vec::<f32>().unwrap();
        flat.chunks(cols).map(|r| r.to_vec()).collect()
    }
}

mod numpy_flat {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<f32> {
        let data = x.to_data();
        data.as_slice::<f32>().unwrap().to_vec()
    }
}

mod item {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        x.sum().into_scalar::<f32>()
    }
}

mod item_int {
    use burn::prelude::*;

    pub fn run(d: &Device) -> i64 {
        Tensor::<1, Int>::arange(0..5, d).sum().into_scalar::<i64>()
    }
}

mod device_default {
    use burn::prelude::*;

    // 编译时选后端：Device::default() 取开了的 feature 里排在最前的一个，运行时不看有没有 GPU；
    // 这个 crate 只开了 flex，它就是 Device::flex()
    pub fn run() -> Tensor<1> {
        let device = Device::default();
        Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device)
    }
}

mod clone {
    use burn::prelude::*;

    // burn 的运算不改动参数，clone 出来的和原来的各是各的值
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clone()
    }
}

mod new_zeros {
    use burn::prelude::*;

    // 和 x 在同一个设备上的零张量
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        Tensor::zeros([2, 5], &x.device())
    }
}

mod expand_as {
    use burn::prelude::*;

    // 按另一个张量的形状扩展：expand 收 Shape
    pub fn run(b: Tensor<2>, a: Tensor<2>) -> Tensor<2> {
        b.expand(a.shape())
    }
}

mod add_inplace {
    use burn::prelude::*;

    // 没有就地的 add_：x = x + y，旧的 x 被移走
    pub fn run(x: Tensor<2>, y: Tensor<2>) -> Tensor<2> {
        let x = x + y;
        x
    }
}

mod mul_inplace {
    use burn::prelude::*;

    // 没有就地的 mul_：x = x * 0.5
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let x = x.mul_scalar(0.5);
        x
    }
}

mod copy_inplace {
    use burn::prelude::*;

    // 没有就地的 copy_：x 绑到 y 的值上（形状相同；y 还要用就传 y.clone()）
    pub fn run(x: Tensor<2>, y: Tensor<2>) -> Tensor<2> {
        assert_eq!(x.dims(), y.dims());
        let x = y;
        x
    }
}

// ---- helpers: inputs and JSON ----

fn data<const D: usize>(shape: [usize; D], device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn floats(v: &[f32], device: &Device) -> Tensor<1> {
    Tensor::<1>::from_floats(v, device)
}

fn ints<const D: usize>(v: Vec<i64>, shape: [usize; D], device: &Device) -> Tensor<D, Int> {
    Tensor::<D, Int>::from_data(TensorData::new(v, shape), device)
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

fn dtype_name(d: DType) -> &'static str {
    match d {
        DType::F64 => "float64",
        DType::F32 | DType::Flex32 => "float32",
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        DType::I64 => "int64",
        DType::I32 => "int32",
        DType::I16 => "int16",
        DType::I8 => "int8",
        DType::U64 => "uint64",
        DType::U32 => "uint32",
        DType::U16 => "uint16",
        DType::U8 => "uint8",
        DType::Bool(_) => "bool",
        DType::QFloat(_) => "quantized",
    }
}

// Values: f32 (or f64) widened exactly; ints as i64; bools as bools.
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
    json!({"v": fv(&t), "shape": t.dims().to_vec()})
}

fn out_dtype<const D: usize>(t: Tensor<D>) -> Value {
    json!({"v": fv(&t), "shape": t.dims().to_vec(), "dtype": dtype_name(t.dtype())})
}

fn outi<const D: usize>(t: Tensor<D, Int>) -> Value {
    json!({"v": iv(&t), "shape": t.dims().to_vec()})
}

fn outb<const D: usize>(t: Tensor<D, Bool>) -> Value {
    json!({"v": bv(&t), "shape": t.dims().to_vec()})
}

fn parts<const D: usize>(ts: Vec<Tensor<D>>) -> Value {
    json!({"v": ts.iter().map(fv).collect::<Vec<_>>(),
           "shape": ts.iter().map(|t| t.dims().to_vec()).collect::<Vec<_>>()})
}

fn scalar(x: f32) -> Value {
    json!({"v": f64::from(x)})
}

fn host(v: Vec<f32>) -> Value {
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

const HALVES: [f32; 8] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -2.7, 2.7];
const WITH_NAN: [f32; 4] = [0.3, f32::NAN, 0.9, -0.2];

// Two [2, 4] tensors equal except at two places, for the comparison rows.
fn pair(d: &Device) -> (Tensor<2>, Tensor<2>) {
    let a = data([2, 4], d);
    let b = a.clone().slice_fill(s![0, 1], 0.0).slice_fill(s![1, 2], 1.0);
    (a, b)
}

// Runs f with the panic message silenced: Err when it panicked.
fn catch<T>(f: impl FnOnce() -> T + ::std::panic::UnwindSafe) -> ::std::thread::Result<T> {
    let hook = ::std::panic::take_hook();
    ::std::panic::set_hook(Box::new(|_| {}));
    let got = ::std::panic::catch_unwind(f);
    ::std::panic::set_hook(hook);
    got
}

fn main() {
    let d = Device::flex();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 创建 ----
    row("from_data", out_dtype(from_data::run(&d)));
    row("zeros", out_dtype(zeros::run(&d)));
    row("ones", out_dtype(ones::run(&d)));
    row("full", out(full::run(&d)));
    row("arange_int", outi(arange_int::run(&d)));
    row("long_tensor", outi(long_tensor::run(&d)));
    row("arange_dtype", json!({"dtype": dtype_name(arange_dtype::run(&d))}));
    let t = arange_i64::run(&d);
    row("arange_i64", json!({"v": iv(&t), "dtype": dtype_name(t.dtype())}));
    row("arange_step", outi(arange_step::run(&d)));
    row("arange_float", out_dtype(arange_float::run(&d)));
    row("linspace", out(linspace::run(&d)));
    row("eye", out(eye::run(&d)));
    row("zeros_like", out(zeros_like::run(data([2, 3], &d))));
    row("ones_like", out(ones_like::run(data([2, 3], &d))));
    row("full_like", out(full_like::run(data([2, 3], &d))));
    let e = empty::run(&d);
    row("empty", json!({"shape": e.dims().to_vec(), "dtype": dtype_name(e.dtype())}));

    // ---- 随机数 ----
    let (a, b) = seed_repeat::run(&d);
    let same = a.clone().equal(b).all().into_scalar::<bool>();
    row("seed_repeat", json!({"same_seed_equal": same, "shape": a.dims().to_vec()}));
    row("seed_values", out(seed_values::run(&d)));
    d.seed(0);
    let t = rand::run(&d);
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    row("rand", json!({
        "min_ge_0": v.iter().all(|&x| x >= 0.0), "max_lt_1": v.iter().all(|&x| x < 1.0),
        "mean": v.iter().sum::<f64>() / v.len() as f64, "shape": t.dims().to_vec(),
        "dtype": dtype_name(t.dtype())}));
    let t = randn::run(&d);
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let std = (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt();
    row("randn", json!({"mean": mean, "std": std, "shape": t.dims().to_vec(),
                        "dtype": dtype_name(t.dtype())}));
    let t = randint::run(&d);
    let v: Vec<i64> = t.to_data().try_to_vec_as::<i64>().unwrap();
    row("randint", json!({"min": v.iter().min(), "max": v.iter().max(), "shape": t.dims().to_vec()}));
    let t = randn_like::run(data([2, 3], &d));
    row("randn_like", json!({"shape": t.dims().to_vec(), "dtype": dtype_name(t.dtype())}));

    // ---- 形状 ----
    row("reshape", out(reshape::run(data([3, 4], &d))));
    row("reshape_infer", out(reshape_infer::run(data([3, 4], &d))));
    row("view", out(view::run(data([3, 4], &d))));
    row("permute", out(permute::run(data([2, 3, 4], &d))));
    row("t_2d", out(t_2d::run(data([2, 3], &d))));
    row("transpose_01", out(transpose_01::run(data([2, 3, 4], &d))));
    row("size", json!({"v": size::run(data([2, 3, 4], &d))}));
    row("size_dim", json!({"v": size_dim::run(data([2, 3, 4], &d))}));
    row("contiguous", out(contiguous::run(data([2, 3, 4], &d))));
    row("mt_3d", out(mt_3d::run(data([2, 3, 4], &d))));
    row("squeeze", out(squeeze::run(data([1, 3, 1, 4], &d))));
    row("squeeze_dim", out(squeeze_dim::run(data([1, 3, 4], &d))));
    row("unsqueeze", out(unsqueeze::run(data([3, 4], &d))));
    row("unsqueeze_neg", out(unsqueeze_neg::run(data([3, 4], &d))));
    row("expand", out(expand::run(data([3, 1], &d))));
    row("repeat", out(repeat::run(data([2, 2], &d))));
    row("repeat_dim", out(repeat_dim::run(data([2, 2], &d))));
    row("repeat_interleave", out(repeat_interleave::run(data([2, 2], &d))));
    row("cat", out(cat::run(data([2, 3], &d), data([2, 3], &d) * 2.0)));
    row("stack", out(stack::run(data([2, 3], &d), data([2, 3], &d) * 2.0)));
    row("split", parts(split::run(data([2, 5], &d))));
    row("split_sizes", parts(split_sizes::run(data([2, 5], &d))));
    row("chunk", parts(chunk::run(data([2, 7], &d))));
    // 6 into 4 chunks: burn's chunk narrows past the end and panics; catch it to say so.
    let got = catch(|| chunk_uneven::run(data([2, 6], &Device::flex())).len());
    row("chunk_uneven", json!({"panics": got.is_err(), "n_chunks": got.unwrap_or(0)}));
    row("chunk_uneven_fix", parts(chunk_uneven_fix::run(data([2, 6], &d), 4, 1)));
    row("flatten", out(flatten::run(data([2, 3, 4], &d))));
    row("flatten_from", out(flatten_from::run(data([2, 3, 4], &d))));
    row("narrow", out(narrow::run(data([3, 5], &d))));
    row("slice_range", out(slice_range::run(data([3, 5], &d))));
    row("slice_neg", out(slice_neg::run(data([3, 5], &d))));
    row("slice_step", out(slice_step::run(data([3, 5], &d))));
    row("flip", out(flip::run(data([3, 4], &d))));
    row("roll", out(roll::run(data([3, 4], &d))));

    // ---- 索引与掩码 ----
    let gidx = ints(vec![0, 2, 1, 1, 3, 0], [3, 2], &d);
    row("gather", out(gather::run(data([3, 4], &d), gidx)));
    let sidx = ints(vec![0, 2, 1, 3, 3, 0], [3, 2], &d);
    row("scatter", out(scatter::run(Tensor::<2>::zeros([3, 4], &d), sidx, data([3, 2], &d))));
    let didx = ints(vec![1, 1, 0, 2], [2, 2], &d);
    let src = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &d);
    row("scatter_add", out(scatter_add::run(Tensor::<2>::zeros([2, 3], &d), didx, src)));
    row("index_select", out(index_select::run(data([4, 3], &d), ints(vec![2, 0, 2], [3], &d))));
    row("index_add", out(index_add::run(Tensor::<2>::zeros([4, 3], &d),
                                        ints(vec![0, 2, 0], [3], &d), data([3, 3], &d))));
    row("masked_fill", out(masked_fill::run(data([3, 4], &d))));
    row("masked_select", out(masked_select::run(data([3, 4], &d))));
    let (a, b) = (data([3, 4], &d), data([3, 4], &d) * 10.0);
    row("where", out(r#where::run(a.clone().greater_elem(0.0), a, b)));
    row("tril", out(tril::run(data([4, 4], &d))));
    row("triu", out(triu::run(data([4, 4], &d))));
    row("nonzero", outi(nonzero::run(data([3, 4], &d).greater_elem(0.2))));
    let nz = nonzero_tuple::run(data([3, 4], &d).greater_elem(0.2));
    row("nonzero_tuple", json!({"v": nz.iter().map(iv).collect::<Vec<_>>(),
                                "shape": nz.iter().map(|t| t.dims().to_vec()).collect::<Vec<_>>()}));
    row("take", out(take::run(data([3, 4], &d), ints(vec![0, 5, 11], [3], &d))));

    // ---- 逐元素运算 ----
    row("add_broadcast", out(add_broadcast::run(data([3, 1], &d), data([1, 4], &d))));
    row("add_rank", out(add_rank::run(data([3, 4], &d), data([4], &d))));
    row("arith_scalar", out(arith_scalar::run(data([3, 4], &d))));
    row("pow_int", out(pow_int::run(data([3, 4], &d))));
    row("pow_float", out(pow_float::run(data([3, 4], &d))));
    row("pow_neg_base", out(pow_neg_base::run(floats(&[-0.5, -2.0, 3.0], &d))));
    row("sqrt", out(sqrt::run(data([3, 4], &d))));
    row("exp", out(exp::run(data([3, 4], &d))));
    row("log", out(log::run(data([3, 4], &d))));
    row("log1p", out(log1p::run(data([3, 4], &d))));
    row("abs", out(abs::run(data([3, 4], &d))));
    row("neg", out(neg::run(data([3, 4], &d))));
    row("sign", out(sign::run(floats(&[-0.5, 0.0, 2.0, -3.0], &d))));
    row("clamp", out(clamp::run(data([3, 4], &d))));
    row("floor", out(floor::run(floats(&HALVES, &d))));
    row("ceil", out(ceil::run(floats(&HALVES, &d))));
    row("round", out(round::run(floats(&HALVES, &d))));
    row("trunc", out(trunc::run(floats(&HALVES, &d))));
    row("remainder", out(remainder::run(data([3, 4], &d))));
    row("remainder_neg", out(remainder_neg::run(data([3, 4], &d))));
    row("fmod", out(fmod::run(data([3, 4], &d))));
    row("reciprocal", out(reciprocal::run(data([3, 4], &d))));
    let (sin, cos) = sin_cos::run(data([3, 4], &d));
    row("sin_cos", json!({"sin": fv(&sin), "cos": fv(&cos)}));
    row("tanh", out(tanh::run(data([3, 4], &d))));
    row("erf", out(erf::run(data([3, 4], &d))));

    // ---- 比较 ----
    let (a, b) = pair(&d);
    row("eq", outb(eq::run(a.clone(), b.clone())));
    row("ne", outb(ne::run(a.clone(), b.clone())));
    row("gt", outb(gt::run(a.clone(), b.clone())));
    row("ge", outb(ge::run(a.clone(), b.clone())));
    row("lt", outb(lt::run(a.clone(), b.clone())));
    row("le", outb(le::run(a, b)));
    row("gt_scalar", outb(gt_scalar::run(data([3, 4], &d))));
    let special = floats(&[1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY], &d);
    row("isnan", outb(isnan::run(special.clone())));
    row("isinf", outb(isinf::run(special)));
    let (any, all) = any_all::run(data([3, 4], &d).greater_elem(0.0));
    row("any_all", json!({"any": any, "all": all}));
    row("any_dim", outb(any_dim::run(data([3, 4], &d).greater_elem(0.4))));
    row("maximum", out(maximum::run(data([3, 4], &d), data([3, 4], &d).flip([0]))));
    row("minimum", out(minimum::run(data([3, 4], &d), data([3, 4], &d).flip([0]))));
    row("maximum_nan", out(maximum_nan::run(floats(&WITH_NAN, &d), Tensor::<1>::zeros([4], &d))));
    row("max_nan", json!({"max": num(f64::from(max_nan::run(floats(&WITH_NAN, &d))))}));
    row("min_nan", json!({"min": num(f64::from(min_nan::run(floats(&WITH_NAN, &d))))}));
    row("argmax_nan", json!({"argmax": argmax_nan::run(floats(&WITH_NAN, &d))}));

    // ---- 归约 ----
    // Shapes as text ("[3, 1]"), so that the table shows them as they print.
    let t = sum_all::run(data([3, 4], &d));
    row("sum_all", json!({"v": fv(&t), "shape": format!("{:?}", t.dims())}));
    row("mean_all", scalar(mean_all::run(data([3, 4], &d))));
    row("sum_dim", out(sum_dim::run(data([3, 4], &d))));
    row("sum_dim_shape", json!({"shape": format!("{:?}", sum_dim_shape::run(data([3, 4], &d)))}));
    row("argmax_dim_shape", json!({"shape": format!("{:?}", argmax_dim_shape::run(data([3, 4], &d)))}));
    row("argmax_dim", outi(argmax_dim::run(data([3, 4], &d))));
    row("sum_keepdim", out(sum_keepdim::run(data([3, 4], &d))));
    row("sum_neg_dim", out(sum_neg_dim::run(data([3, 4], &d))));
    row("mean_dim", out(mean_dim::run(data([3, 4], &d))));
    let (values, indices) = max_dim::run(data([3, 4], &d));
    row("max_dim", json!({"values": fv(&values), "indices": iv(&indices),
                          "shape": values.dims().to_vec()}));
    row("argmax_ties", json!({"argmax": argmax_ties::run(floats(&[1.0, 3.0, 3.0, 2.0], &d))}));
    row("argmin_ties", json!({"argmin": argmin_ties::run(floats(&[2.0, 1.0, 1.0, 3.0], &d))}));
    row("min_dim", out(min_dim::run(data([3, 4], &d))));
    row("var_default", out(var_default::run(data([3, 4], &d))));
    row("var_unbiased0", out(var_unbiased0::run(data([3, 4], &d))));
    row("std", out(std::run(data([3, 4], &d))));
    row("prod", scalar(prod::run(data([3, 4], &d))));
    row("prod_dim", out(prod_dim::run(data([3, 4], &d))));
    row("cumsum", out(cumsum::run(data([3, 4], &d))));
    row("cumprod", out(cumprod::run(data([3, 4], &d))));
    row("logsumexp", out(logsumexp::run(data([3, 4], &d))));
    row("softmax", out(softmax::run(data([3, 4], &d))));
    row("softmax_neg_dim", out(softmax_neg_dim::run(data([2, 3, 4], &d))));
    row("log_softmax", out(log_softmax::run(data([3, 4], &d))));
    let (values, indices) = sort::run(data([3, 4], &d));
    row("sort", json!({"values": fv(&values), "indices": iv(&indices)}));
    let (values, indices) = topk::run(data([3, 4], &d));
    row("topk", json!({"values": fv(&values), "indices": iv(&indices)}));

    // ---- 矩阵乘 ----
    row("matmul_2d", out(matmul_2d::run(data([3, 4], &d), data([4, 2], &d))));
    row("bmm", out(bmm::run(data([2, 3, 4], &d), data([2, 4, 5], &d))));
    row("matmul_bcast", out(matmul_bcast::run(data([2, 3, 4], &d), data([1, 4, 5], &d))));
    row("matmul_3d_2d", out(matmul_3d_2d::run(data([2, 3, 4], &d), data([4, 5], &d))));
    row("dot", scalar(dot::run(data([4], &d), data([4], &d) * 2.0).into_scalar::<f32>()));

    // ---- dtype 与设备 ----
    row("to_double", out_dtype(to_double::run(data([2, 3], &d))));
    let l = to_long::run(floats(&HALVES, &d));
    row("to_long", json!({"v": iv(&l), "shape": l.dims().to_vec(), "dtype": dtype_name(l.dtype())}));
    let l = to_long_i64::run(floats(&HALVES, &d));
    row("to_long_i64", json!({"v": iv(&l), "shape": l.dims().to_vec(), "dtype": dtype_name(l.dtype())}));
    row("int_to_float", out_dtype(int_to_float::run(&d)));
    row("to_bool", outb(to_bool::run(floats(&[0.0, -0.5, 2.0, 0.0], &d))));
    row("to_device", out(to_device::run(data([2, 3], &d), &Device::flex())));
    row("f16_roundtrip", out(f16_roundtrip::run(data([3, 4], &d))));
    row("bf16_roundtrip", out(bf16_roundtrip::run(data([3, 4], &d))));

    // ---- 与主机数据 ----
    let v: Vec<f32> = (0..6).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    row("from_list", out(from_list::run(v.clone(), &d)));
    row("from_numpy", out(from_numpy::run(v, &d)));
    row("tolist", json!({"v": host(tolist::run(data([2, 3], &d)))}));
    let nested = tolist_nested::run(data([2, 3], &d));
    row("tolist_nested", json!({"v": nested.into_iter().map(host).collect::<Vec<_>>()}));
    row("numpy_flat", json!({"v": host(numpy_flat::run(data([2, 3], &d)))}));
    row("item", scalar(item::run(data([3, 4], &d))));
    row("item_int", json!({"v": item_int::run(&d)}));
    row("device_default", out(device_default::run()));
    row("clone", out(clone::run(data([2, 3], &d))));
    row("new_zeros", out(new_zeros::run(data([2, 3], &d))));
    row("expand_as", out(expand_as::run(data([3, 1], &d), data([3, 4], &d))));
    row("add_inplace", out(add_inplace::run(data([2, 3], &d), data([2, 3], &d).mul_scalar(2.0))));
    row("mul_inplace", out(mul_inplace::run(data([2, 3], &d))));
    row("copy_inplace", out(copy_inplace::run(data([2, 3], &d), data([2, 3], &d).neg())));

    println!("{}", json!({"rows": Value::Object(rows)}));
}
