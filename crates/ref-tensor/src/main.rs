//! The torch → burn map, tensor rows: one function per row of ref-1-tensor.yaml's table.
//! Most rows print {"v": the values, flattened, "shape": the shape}, some add keys; the inputs
//! are the same numbers as the PyTorch script's: X[k] = 0.5·sin(k + 1), in f64, rounded to f32
//! once. NaN and ±inf travel as "nan", "inf", "-inf" (serde_json would write null).
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, softmax};
use burn::tensor::{DType, Distribution, IndexingUpdateOp, IntDType};
use serde_json::{json, Map, Value};

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

const HALVES: [f32; 8] = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -2.7, 2.7];
const WITH_NAN: [f32; 4] = [0.3, f32::NAN, 0.9, -0.2];

// Two [2, 4] tensors equal except at two places, for the comparison rows.
fn pair(d: &Device) -> (Tensor<2>, Tensor<2>) {
    let a = data([2, 4], d);
    let b = a.clone().slice_fill(s![0, 1], 0.0).slice_fill(s![1, 2], 1.0);
    (a, b)
}

fn main() {
    let d = Device::flex();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 创建 ----
    row("from_data", out_dtype(Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &d)));
    row("zeros", out_dtype(Tensor::<2>::zeros([2, 3], &d)));
    row("ones", out_dtype(Tensor::<2>::ones([2, 3], &d)));
    row("full", out(Tensor::<2>::full([2, 3], 7.0, &d)));
    row("arange_int", outi(Tensor::<1, Int>::arange(0..5, &d)));
    row("arange_dtype", json!({"dtype": dtype_name(Tensor::<1, Int>::arange(0..5, &d).dtype())}));
    let t = Tensor::<1, Int>::arange(0..5, (&d, DType::I64));
    row("arange_i64", json!({"v": iv(&t), "dtype": dtype_name(t.dtype())}));
    row("arange_step", outi(Tensor::<1, Int>::arange_step(0..10, 3, &d)));
    // No float arange: integers, then scale.
    row("arange_float", out_dtype(Tensor::<1, Int>::arange(0..4, &d).float() * 0.25));
    row("linspace", out(Tensor::<1, Int>::arange(0..5, &d).float() / 4.0));
    row("eye", out(Tensor::<2>::eye(3, &d)));
    row("zeros_like", out(data([2, 3], &d).zeros_like()));
    row("ones_like", out(data([2, 3], &d).ones_like()));
    row("full_like", out(data([2, 3], &d).full_like(-1.5)));
    let e = Tensor::<2>::empty([2, 3], &d);
    row("empty", json!({"shape": e.dims().to_vec(), "dtype": dtype_name(e.dtype())}));

    // ---- 随机数 ----
    d.seed(42);
    let a = Tensor::<1>::random([1000], Distribution::Default, &d);
    d.seed(42);
    let b = Tensor::<1>::random([1000], Distribution::Default, &d);
    let same = a.clone().equal(b).all().into_scalar::<bool>();
    row("seed_repeat", json!({"same_seed_equal": same, "shape": a.dims().to_vec()}));
    d.seed(42);
    row("seed_values", out(Tensor::<1>::random([4], Distribution::Default, &d)));
    d.seed(0);
    let t = Tensor::<1>::random([10000], Distribution::Default, &d);
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    row("rand", json!({
        "min_ge_0": v.iter().all(|&x| x >= 0.0), "max_lt_1": v.iter().all(|&x| x < 1.0),
        "mean": v.iter().sum::<f64>() / v.len() as f64, "shape": t.dims().to_vec(),
        "dtype": dtype_name(t.dtype())}));
    let t = Tensor::<1>::random([10000], Distribution::Normal(0.0, 1.0), &d);
    let v: Vec<f64> = t.to_data().try_to_vec_as::<f64>().unwrap();
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let std = (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt();
    row("randn", json!({"mean": mean, "std": std, "shape": t.dims().to_vec(),
                        "dtype": dtype_name(t.dtype())}));
    let t = Tensor::<1, Int>::random([1000], Distribution::Uniform(0.0, 10.0), &d);
    let v: Vec<i64> = t.to_data().try_to_vec_as::<i64>().unwrap();
    row("randint", json!({"min": v.iter().min(), "max": v.iter().max(), "shape": t.dims().to_vec()}));
    let t = data([2, 3], &d).random_like(Distribution::Normal(0.0, 1.0));
    row("randn_like", json!({"shape": t.dims().to_vec(), "dtype": dtype_name(t.dtype())}));

    // ---- 形状 ----
    row("reshape", out(data([3, 4], &d).reshape([2, 6])));
    row("reshape_infer", out(data([3, 4], &d).reshape([-1, 6])));
    row("view", out(data([3, 4], &d).reshape([2, 6])));
    row("permute", out(data([2, 3, 4], &d).permute([2, 0, 1])));
    row("t_2d", out(data([2, 3], &d).t()));
    row("transpose_01", out(data([2, 3, 4], &d).swap_dims(0, 1)));
    row("mt_3d", out(data([2, 3, 4], &d).transpose()));
    row("squeeze", out(data([1, 3, 1, 4], &d).squeeze::<2>()));
    row("squeeze_dim", out(data([1, 3, 4], &d).squeeze_dim::<2>(0)));
    row("unsqueeze", out(data([3, 4], &d).unsqueeze_dim::<3>(1)));
    row("unsqueeze_neg", out(data([3, 4], &d).unsqueeze_dim::<3>(-1)));
    row("expand", out(data([3, 1], &d).expand([3, 4])));
    row("repeat", out(data([2, 2], &d).repeat(&[2, 3])));
    row("repeat_dim", out(data([2, 2], &d).repeat_dim(0, 3)));
    // No repeat_interleave: a new axis after dim 0, repeated, merged back.
    row("repeat_interleave",
        out(data([2, 2], &d).unsqueeze_dim::<3>(1).repeat_dim(1, 2).reshape([4, 2])));
    row("cat", out(Tensor::cat(vec![data([2, 3], &d), data([2, 3], &d) * 2.0], 1)));
    row("stack", out(Tensor::stack::<3>(vec![data([2, 3], &d), data([2, 3], &d) * 2.0], 0)));
    row("split", parts(data([2, 5], &d).split(2, 1)));
    row("split_sizes", parts(data([2, 5], &d).split_with_sizes(vec![1, 4], 1)));
    row("chunk", parts(data([2, 7], &d).chunk(3, 1)));
    // 6 into 4 chunks: burn's chunk narrows past the end and panics; catch it to say so.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let got = std::panic::catch_unwind(|| data([2, 6], &Device::flex()).chunk(4, 1).len());
    std::panic::set_hook(hook);
    row("chunk_uneven", json!({"panics": got.is_err(), "n_chunks": got.unwrap_or(0)}));
    row("flatten", out(data([2, 3, 4], &d).flatten::<1>(0, 2)));
    row("flatten_from", out(data([2, 3, 4], &d).flatten::<2>(1, 2)));
    row("narrow", out(data([3, 5], &d).narrow(1, 1, 2)));
    row("slice_range", out(data([3, 5], &d).slice(s![.., 1..3])));
    row("slice_neg", out(data([3, 5], &d).slice(s![.., -2..])));
    row("slice_step", out(data([3, 5], &d).slice(s![.., ..;2])));
    row("flip", out(data([3, 4], &d).flip([0])));
    row("roll", out(data([3, 4], &d).roll_dim(1, 1)));

    // ---- 索引与掩码 ----
    let gidx = ints(vec![0, 2, 1, 1, 3, 0], [3, 2], &d);
    row("gather", out(data([3, 4], &d).gather(1, gidx)));
    let sidx = ints(vec![0, 2, 1, 3, 3, 0], [3, 2], &d);
    row("scatter", out(Tensor::<2>::zeros([3, 4], &d)
        .scatter(1, sidx, data([3, 2], &d), IndexingUpdateOp::Assign)));
    let didx = ints(vec![1, 1, 0, 2], [2, 2], &d);
    let src = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &d);
    row("scatter_add", out(Tensor::<2>::zeros([2, 3], &d)
        .scatter(1, didx, src, IndexingUpdateOp::Add)));
    row("index_select", out(data([4, 3], &d).select(0, ints(vec![2, 0, 2], [3], &d))));
    row("index_add", out(Tensor::<2>::zeros([4, 3], &d)
        .select_assign(0, ints(vec![0, 2, 0], [3], &d), data([3, 3], &d), IndexingUpdateOp::Add)));
    let x = data([3, 4], &d);
    row("masked_fill", out(x.clone().mask_fill(x.clone().greater_elem(0.0), 0.0)));
    row("masked_select", out(x.clone().mask_select(x.clone().greater_elem(0.0))));
    // torch.where(cond, a, b) = b.mask_where(cond, a): the tensor kept where cond is false comes first.
    let (a, b) = (data([3, 4], &d), data([3, 4], &d) * 10.0);
    row("where", out(b.mask_where(a.clone().greater_elem(0.0), a)));
    row("tril", out(data([4, 4], &d).tril(0)));
    row("triu", out(data([4, 4], &d).triu(1)));
    row("nonzero", outi(data([3, 4], &d).greater_elem(0.2).argwhere()));
    let nz = data([3, 4], &d).greater_elem(0.2).nonzero();
    row("nonzero_tuple", json!({"v": nz.iter().map(iv).collect::<Vec<_>>(),
                                "shape": nz.iter().map(|t| t.dims().to_vec()).collect::<Vec<_>>()}));
    row("take", out(data([3, 4], &d).flatten::<1>(0, 1)
        .take::<1, 1>(0, ints(vec![0, 5, 11], [3], &d))));

    // ---- 逐元素运算 ----
    row("add_broadcast", out(data([3, 1], &d) + data([1, 4], &d)));
    row("add_rank", out(data([3, 4], &d) + data([4], &d).unsqueeze::<2>()));
    row("arith_scalar", out((data([3, 4], &d) - 1.0) * 3.0 / 2.0));
    row("pow_int", out(data([3, 4], &d).powi_scalar(3)));
    row("pow_float", out(data([3, 4], &d).abs().powf_scalar(0.5)));
    row("pow_neg_base", out(floats(&[-0.5, -2.0, 3.0], &d).powf_scalar(3.0)));
    row("sqrt", out(data([3, 4], &d).abs().sqrt()));
    row("exp", out(data([3, 4], &d).exp()));
    row("log", out(data([3, 4], &d).abs().log()));
    row("log1p", out(data([3, 4], &d).log1p()));
    row("abs", out(data([3, 4], &d).abs()));
    row("neg", out(-data([3, 4], &d)));
    row("sign", out(floats(&[-0.5, 0.0, 2.0, -3.0], &d).sign()));
    row("clamp", out(data([3, 4], &d).clamp(-0.2, 0.3)));
    row("floor", out(floats(&HALVES, &d).floor()));
    row("ceil", out(floats(&HALVES, &d).ceil()));
    row("round", out(floats(&HALVES, &d).round()));
    row("trunc", out(floats(&HALVES, &d).trunc()));
    row("remainder", out(data([3, 4], &d).remainder_scalar(0.3)));
    row("remainder_neg", out(data([3, 4], &d).remainder_scalar(-0.3)));
    row("fmod", out(data([3, 4], &d).fmod_scalar(0.3)));
    row("reciprocal", out(data([3, 4], &d).recip()));
    let x = data([3, 4], &d);
    row("sin_cos", json!({"sin": fv(&x.clone().sin()), "cos": fv(&x.cos())}));
    row("tanh", out(data([3, 4], &d).tanh()));
    row("erf", out(data([3, 4], &d).erf()));

    // ---- 比较 ----
    let (a, b) = pair(&d);
    row("eq", outb(a.clone().equal(b.clone())));
    row("ne", outb(a.clone().not_equal(b.clone())));
    row("gt", outb(a.clone().greater(b.clone())));
    row("ge", outb(a.clone().greater_equal(b.clone())));
    row("lt", outb(a.clone().lower(b.clone())));
    row("le", outb(a.lower_equal(b)));
    row("gt_scalar", outb(data([3, 4], &d).greater_elem(0.0)));
    let special = floats(&[1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY], &d);
    row("isnan", outb(special.clone().is_nan()));
    row("isinf", outb(special.is_inf()));
    let m = data([3, 4], &d).greater_elem(0.0);
    row("any_all", json!({"any": m.clone().any().into_scalar::<bool>(),
                          "all": m.all().into_scalar::<bool>()}));
    row("any_dim", outb(data([3, 4], &d).greater_elem(0.4).any_dim(1)));
    row("maximum", out(data([3, 4], &d).max_pair(data([3, 4], &d).flip([0]))));
    row("minimum", out(data([3, 4], &d).min_pair(data([3, 4], &d).flip([0]))));
    row("maximum_nan", out(floats(&WITH_NAN, &d).max_pair(Tensor::<1>::zeros([4], &d))));
    row("max_nan", json!({"max": num(f64::from(floats(&WITH_NAN, &d).max().into_scalar::<f32>()))}));
    row("min_nan", json!({"min": num(f64::from(floats(&WITH_NAN, &d).min().into_scalar::<f32>()))}));
    row("argmax_nan", json!({"argmax": floats(&WITH_NAN, &d).argmax(0).into_scalar::<i64>()}));

    // ---- 归约 ----
    // Shapes as text ("[3, 1]"), so that the table shows them as they print.
    let t = data([3, 4], &d).sum();
    row("sum_all", json!({"v": fv(&t), "shape": format!("{:?}", t.dims())}));
    row("mean_all", json!({"v": f64::from(data([3, 4], &d).mean().into_scalar::<f32>())}));
    // burn keeps the reduced dimension: [3, 1]; squeeze it to get torch's [3].
    row("sum_dim", out(data([3, 4], &d).sum_dim(1).squeeze_dim::<1>(1)));
    row("sum_dim_shape", json!({"shape": format!("{:?}", data([3, 4], &d).sum_dim(1).dims())}));
    row("argmax_dim_shape", json!({"shape": format!("{:?}", data([3, 4], &d).argmax(1).dims())}));
    row("sum_keepdim", out(data([3, 4], &d).sum_dim(1)));
    row("sum_neg_dim", out(data([3, 4], &d).sum_dim(-1)));
    row("mean_dim", out(data([3, 4], &d).mean_dim(0)));
    let (values, indices) = data([3, 4], &d).max_dim_with_indices(1);
    row("max_dim", json!({"values": fv(&values), "indices": iv(&indices),
                          "shape": values.dims().to_vec()}));
    row("argmax_ties", json!({"argmax": floats(&[1.0, 3.0, 3.0, 2.0], &d).argmax(0).into_scalar::<i64>()}));
    row("argmin_ties", json!({"argmin": floats(&[2.0, 1.0, 1.0, 3.0], &d).argmin(0).into_scalar::<i64>()}));
    row("min_dim", out(data([3, 4], &d).min_dim(0)));
    row("var_default", out(data([3, 4], &d).var(1).squeeze_dim::<1>(1)));
    row("var_unbiased0", out(data([3, 4], &d).var_bias(1)));
    row("std", out(data([3, 4], &d).var(1).sqrt()));
    row("prod", json!({"v": f64::from(data([3, 4], &d).prod().into_scalar::<f32>())}));
    row("prod_dim", out(data([3, 4], &d).prod_dim(1)));
    // burn-linalg (vector_norm) is not in this crate's features: the norms by hand.
    row("norm_l2", json!({"v": f64::from(data([3, 4], &d).square().sum().sqrt().into_scalar::<f32>())}));
    row("norm_l1", json!({"v": f64::from(data([3, 4], &d).abs().sum().into_scalar::<f32>())}));
    row("cumsum", out(data([3, 4], &d).cumsum(1)));
    row("cumprod", out(data([3, 4], &d).cumprod(1)));
    let x = data([3, 4], &d);
    let mx = x.clone().max_dim(1);
    row("logsumexp", out(mx.clone() + (x - mx).exp().sum_dim(1).log()));
    row("softmax", out(softmax(data([3, 4], &d), 1)));
    row("softmax_neg_dim", out(softmax(data([2, 3, 4], &d), -1)));
    row("log_softmax", out(log_softmax(data([3, 4], &d), 1)));
    let (values, indices) = data([3, 4], &d).sort_with_indices(1);
    row("sort", json!({"values": fv(&values), "indices": iv(&indices)}));
    let (values, indices) = data([3, 4], &d).topk_with_indices(2, 1);
    row("topk", json!({"values": fv(&values), "indices": iv(&indices)}));

    // ---- 矩阵乘 ----
    row("matmul_2d", out(data([3, 4], &d).matmul(data([4, 2], &d))));
    row("bmm", out(data([2, 3, 4], &d).matmul(data([2, 4, 5], &d))));
    row("matmul_bcast", out(data([2, 3, 4], &d).matmul(data([1, 4, 5], &d))));
    row("matmul_3d_2d", out(data([2, 3, 4], &d).matmul(data([4, 5], &d).unsqueeze::<3>())));
    row("matvec", out(data([3, 4], &d).matmul(data([4], &d).unsqueeze_dim::<2>(1)).squeeze_dim::<1>(1)));
    row("outer", out(data([3], &d).unsqueeze_dim::<2>(1) * data([4], &d).unsqueeze_dim::<2>(0)));
    row("dot", json!({"v": f64::from(data([4], &d).dot(data([4], &d) * 2.0).into_scalar::<f32>())}));

    // ---- dtype 与设备 ----
    row("to_double", out_dtype(data([2, 3], &d).cast(DType::F64)));
    let l = floats(&HALVES, &d).int();
    row("to_long", json!({"v": iv(&l), "shape": l.dims().to_vec(), "dtype": dtype_name(l.dtype())}));
    let l = floats(&HALVES, &d).cast(IntDType::I64);
    row("to_long_i64", json!({"v": iv(&l), "shape": l.dims().to_vec(), "dtype": dtype_name(l.dtype())}));
    row("int_to_float", out_dtype(Tensor::<1, Int>::arange(0..4, &d).float()));
    row("to_bool", outb(floats(&[0.0, -0.5, 2.0, 0.0], &d).bool()));
    row("to_device", out(data([2, 3], &d).to_device(&Device::flex())));
    row("f16_roundtrip", out(data([3, 4], &d).cast(DType::F16).cast(DType::F32)));
    row("bf16_roundtrip", out(data([3, 4], &d).cast(DType::BF16).cast(DType::F32)));

    // ---- 与主机数据 ----
    let v: Vec<f32> = (0..6).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    row("from_list", out(Tensor::<2>::from_data(TensorData::new(v.clone(), [2, 3]), &d)));
    row("from_numpy", out(Tensor::<2>::from_data(TensorData::new(v, [2, 3]), &d)));
    let host: Vec<f32> = data([2, 3], &d).to_data().try_to_vec::<f32>().unwrap();
    row("tolist", json!({"v": host.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()}));
    let td = data([2, 3], &d).to_data();
    let sl: &[f32] = td.as_slice::<f32>().unwrap();
    row("numpy_flat", json!({"v": sl.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()}));
    row("item", json!({"v": f64::from(data([3, 4], &d).sum().into_scalar::<f32>())}));
    row("item_int", json!({"v": Tensor::<1, Int>::arange(0..5, &d).sum().into_scalar::<i64>()}));

    println!("{}", json!({"rows": Value::Object(rows)}));
}
