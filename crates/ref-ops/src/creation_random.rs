//! 创建与随机: the rows of experiments/reference/ref-7-ops/creation_random.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const LABELS: [i64; 5] = [2, 0, 3, 1, 2];

const W4: [f32; 12] = [0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1, 0.25, 0.25, 0.25, 0.25];

pub fn rows(row: &mut impl FnMut(&str, Value)) {
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
