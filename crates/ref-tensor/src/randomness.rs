//! 随机数: the rows of experiments/reference/ref-1-tensor/randomness.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
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
    let p = randperm::run(10, &d);
    let v: Vec<i64> = p.to_data().try_to_vec_as::<i64>().unwrap();
    let mut sorted = v.clone();
    sorted.sort();
    row("randperm", json!({"sorted": sorted, "moved": v.iter().enumerate().any(|(i, &x)| x != i as i64),
        "shape": p.dims().to_vec()}));
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
}

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

mod randperm {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // n 个均匀随机数的 argsort 是 0..n 的一个随机排列
    pub fn run(n: usize, device: &Device) -> Tensor<1, Int> {
        Tensor::<1>::random([n], Distribution::Default, device).argsort(0)
    }
}
