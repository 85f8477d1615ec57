//! 初始化: the rows of experiments/reference/ref-4-training/init.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// Bounds and moments of many draws (65536), in f64.
fn draws_stats(t: Tensor<2>, bound: Option<f64>) -> Value {
    let v: Vec<f64> = t
        .into_data()
        .convert::<f32>()
        .try_to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect();
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    let max_abs = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut out = json!({"mean": mean, "std": var.sqrt()});
    if let Some(b) = bound {
        out["max_abs"] = json!(max_abs);
        out["within_bound"] = json!(max_abs <= b);
    }
    out
}

const FAN_IN: usize = 64;

const FAN_OUT: usize = 1024;

/// The draws of a random init row, seeded like PyTorch's side (torch.manual_seed(0)).
fn init_draw(run: fn(&Device) -> Tensor<2>, bound: Option<f64>) -> Value {
    let device = Device::flex();
    device.seed(0);
    draws_stats(run(&device), bound)
}

/// Whether `f` panics; the panic message is not printed.
fn panics(f: impl FnOnce() + std::panic::UnwindSafe) -> bool {
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(f).is_err();
    let _ = std::panic::take_hook();
    r
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let exact = |t: Tensor<2>| json!({"v": f32s(t), "shape": [2, 3]});
    let (relu, leaky_relu, tanh, _xavier) = calculate_gain::run(0.2);
    row("calculate_gain", json!({"relu": relu, "leaky_relu": leaky_relu, "tanh": tanh}));
    row("init_zeros", exact(init_zeros::run(&d)));
    row("init_ones", exact(init_ones::run(&d)));
    row("init_constant", exact(init_constant::run(&d)));
    row("init_uniform", init_draw(init_uniform::run, Some(0.3)));
    row("init_normal", init_draw(init_normal::run, None));
    // The bounds as PyTorch computes them: gain·√(6 / (fan_in + fan_out)), gain·√(3 / fan_in).
    let xavier_bound = (6.0 / (FAN_IN + FAN_OUT) as f64).sqrt();
    row(
        "init_xavier_uniform",
        init_draw(init_xavier_uniform::run, Some(xavier_bound)),
    );
    row(
        "init_xavier_normal",
        init_draw(init_xavier_normal::run, None),
    );
    let kaiming_bound = 2f64.sqrt() * (3.0 / FAN_IN as f64).sqrt();
    row(
        "init_kaiming_uniform",
        init_draw(init_kaiming_uniform::run, Some(kaiming_bound)),
    );
    row(
        "init_kaiming_normal",
        init_draw(init_kaiming_normal::run, None),
    );
    let dk = d.clone();
    let failed = panics(move || {
        let _ = init_kaiming_fan_from_shape::run(&dk);
    });
    row("init_kaiming_fan_from_shape", json!({"ok": !failed}));
    {
        d.seed(0);
        let lin = init_linear_default::build(&d);
        let bound = 1.0 / (FAN_IN as f64).sqrt();
        let w = draws_stats(lin.weight.val(), Some(bound));
        let b = draws_stats(lin.bias.unwrap().val().unsqueeze::<2>(), Some(bound));
        row(
            "init_linear_default",
            json!({"weight_max_abs": w["max_abs"], "weight_within_bound": w["within_bound"],
                   "bias_within_bound": b["within_bound"], "weight_std": w["std"]}),
        );
    }
    let (a, b) = init_seed_repeat::run(&d);
    row(
        "init_seed_repeat",
        json!({"same_draws": a.equal(b).all().into_scalar::<bool>()}),
    );
}

mod calculate_gain {
    use burn::nn::Initializer;

    // 没有 calculate_gain：按 PyTorch 的表写出要用的那一项，算出的数就是 Initializer 的 gain
    // （xavier_uniform_(w, gain=g) 是 XavierUniform { gain: g }）
    pub fn run(negative_slope: f64) -> (f64, f64, f64, Initializer) {
        let relu = 2f64.sqrt();
        let leaky_relu = (2.0 / (1.0 + negative_slope.powi(2))).sqrt();
        let tanh = 5.0 / 3.0;
        (relu, leaky_relu, tanh, Initializer::XavierUniform { gain: tanh })
    }
}

mod init_zeros {
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Initializer::Zeros.init([2, 3], d).val()
    }
}

mod init_ones {
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Initializer::Ones.init([2, 3], d).val()
    }
}

mod init_constant {
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        Initializer::Constant { value: 0.25 }.init([2, 3], d).val()
    }
}

mod init_uniform {
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::Uniform {
            min: -0.3,
            max: 0.3,
        };
        init.init([64, 1024], d).val()
    }
}

mod init_normal {
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::Normal {
            mean: 1.0,
            std: 2.0,
        };
        init.init([64, 1024], d).val()
    }
}

mod init_xavier_uniform {
    use burn::nn::Initializer;
    use burn::prelude::*;

    /// 权重按 burn 的 Linear 存成 [in, out] = [64, 1024]；fan 要自己传
    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::XavierUniform { gain: 1.0 };
        init.init_with([64, 1024], Some(64), Some(1024), d).val()
    }
}

mod init_xavier_normal {
    use burn::nn::Initializer;
    use burn::prelude::*;

    /// 权重按 burn 的 Linear 存成 [in, out] = [64, 1024]；fan 要自己传
    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::XavierNormal { gain: 1.0 };
        init.init_with([64, 1024], Some(64), Some(1024), d).val()
    }
}

mod init_kaiming_uniform {
    use burn::nn::Initializer;
    use burn::prelude::*;

    /// PyTorch 的默认 a=0、leaky_relu：gain = √2。fan 要自己传
    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::KaimingUniform {
            gain: 2f64.sqrt(),
            fan_out_only: false,
        };
        init.init_with([64, 1024], Some(64), Some(1024), d).val()
    }
}

mod init_kaiming_normal {
    use burn::nn::Initializer;
    use burn::prelude::*;

    /// PyTorch 的默认 a=0、leaky_relu：gain = √2。fan 要自己传
    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::KaimingNormal {
            gain: 2f64.sqrt(),
            fan_out_only: false,
        };
        init.init_with([64, 1024], Some(64), Some(1024), d).val()
    }
}

mod init_kaiming_fan_from_shape {
    use burn::nn::Initializer;
    use burn::prelude::*;

    /// init 不从形状读 fan：参数是惰性的，第一次 val() 时 panic
    pub fn run(d: &Device) -> Tensor<2> {
        let init = Initializer::KaimingUniform {
            gain: 2f64.sqrt(),
            fan_out_only: false,
        };
        init.init([64, 1024], d).val()
    }
}

mod init_linear_default {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Linear {
        LinearConfig::new(64, 1024).init(d)
    }
}

mod init_seed_repeat {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    pub fn run(d: &Device) -> (Tensor<2>, Tensor<2>) {
        d.seed(7);
        let a = Tensor::<2>::random([4, 4], Distribution::Default, d);
        d.seed(7);
        let b = Tensor::<2>::random([4, 4], Distribution::Default, d);
        (a, b)
    }
}
