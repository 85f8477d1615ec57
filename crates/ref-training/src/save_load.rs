//! 存取: the rows of experiments/reference/ref-4-training/save_load.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn f64s<const D: usize>(t: Tensor<D>) -> Value {
    json!(t.into_data().convert::<f64>().try_to_vec::<f64>().unwrap())
}

/// The same parameters in f64, not rounded to f32 (PyTorch: the values set on m.double()).
fn make_linear64(device: &Device) -> Linear {
    let w: Vec<f64> = (0..OUT * IN)
        .map(|k| 0.5 * ((k + 1) as f64).sin())
        .collect();
    let b: Vec<f64> = (0..OUT).map(|o| 0.5 * ((o + 1) as f64).cos()).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [OUT, IN]), (device, DType::F64)).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(
            TensorData::new(b, [OUT]),
            (device, DType::F64),
        ))),
    }
}

/// A fresh Linear(4, 3) with f64 parameters (PyTorch: nn.Linear(4, 3).double()).
fn fresh_linear64(device: &Device) -> Linear {
    let l = burn::nn::LinearConfig::new(IN, OUT).init(device);
    Linear {
        weight: Param::from_tensor(l.weight.val().cast(DType::F64)),
        bias: Some(Param::from_tensor(l.bias.unwrap().val().cast(DType::F64))),
    }
}

/// What a loaded Linear holds: its weight's dtype and its values (in f64, PyTorch's order).
fn loaded(lin: &Linear) -> Value {
    let bias = lin.bias.as_ref().unwrap().val();
    json!({"dtype": dtype_name(lin.weight.val().dtype()),
           "weight": f64s(lin.weight.val().transpose()), "bias": f64s(bias)})
}

fn dtype_name(t: DType) -> &'static str {
    match t {
        DType::F32 => "f32",
        DType::F64 => "f64",
        _ => "other",
    }
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row(
        "save_load_file",
        params(&save_load_file::run(make_linear(&d), "lin.bpk", &d)),
    );
    let c = config_roundtrip::run("train.json");
    row(
        "config_roundtrip",
        json!({"lr": c.lr, "batch_size": c.batch_size, "momentum": c.momentum}),
    );
    // A file written before `momentum` existed.
    std::fs::write("old.json", r#"{"lr": 0.05, "batch_size": 16}"#).unwrap();
    let loaded_old = match config_missing_default::load("old.json") {
        Ok(c) => format!("momentum = {}", c.momentum),
        Err(e) => format!("{e:?}"),
    };
    row("config_missing_default", json!({"loaded": loaded_old}));
    let c = config_missing_default_filled::load("old.json");
    row(
        "config_missing_default_filled",
        json!({"lr": c.lr, "batch_size": c.batch_size, "momentum": c.momentum}),
    );
    row(
        "save_load_bytes",
        params(&save_load_bytes::run(make_linear(&d), &d)),
    );
    let lin = save_keeps_dtype::run(make_linear64(&d), fresh_linear64(&d), "lin64.bpk");
    row("save_keeps_dtype", loaded(&lin));
    row(
        "load_f64_into_f32",
        loaded(&load_f64_into_f32::run(make_linear64(&d), &d)),
    );
    row(
        "load_f64_into_f32_cast",
        loaded(&load_f64_into_f32_cast::run(make_linear64(&d), &d)),
    );
    let no_bias = || Linear {
        weight: make_linear(&d).weight,
        bias: None,
    };
    row(
        "load_missing_key",
        json!({"error": load_missing_key::run(no_bias(), &d).is_err()}),
    );
    let fresh = load_partial::run(no_bias(), &d);
    row(
        "load_partial",
        json!({"weight": f32s(fresh.weight.val().transpose())}),
    );
    {
        // Two steps, the state through bytes into a new optimizer, a third step.
        let mut lin = make_linear(&Device::flex().autodiff());
        let mut optim = optimizer_resume::build();
        for t in 1..=2 {
            let grads = make_grads(&lin, t);
            lin = optimizer_resume::step(&mut optim, lin, grads);
        }
        let mut restored = optimizer_resume::resume(&optim);
        let grads = make_grads(&lin, 3);
        lin = optimizer_resume::step(&mut restored, lin, grads);
        row("optimizer_resume", params(&lin));
    }
}

mod save_load_file {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    pub fn run(m: Linear, path: &str, d: &Device) -> Linear {
        m.save_file(path).unwrap();
        LinearConfig::new(4, 3).init(d).load_file(path)
    }
}

mod config_roundtrip {
    use burn::config::Config;

    #[derive(Config, Debug)]
    pub struct TrainConfig {
        pub lr: f64,
        pub batch_size: usize,
        #[config(default = 0.9)]
        pub momentum: f64,
    }

    pub fn run(path: &str) -> TrainConfig {
        let cfg = TrainConfig::new(0.05, 16);
        cfg.save(path).unwrap();
        TrainConfig::load(path).unwrap()
    }
}

mod config_missing_default {
    use burn::config::{Config, ConfigError};

    #[derive(Config, Debug)]
    pub struct TrainConfig {
        pub lr: f64,
        pub batch_size: usize,
        #[config(default = 0.9)]
        pub momentum: f64,
    }

    /// 文件里没有 momentum：#[config(default)] 只在 new() 里起作用，load 返回 Err
    pub fn load(path: &str) -> Result<TrainConfig, ConfigError> {
        TrainConfig::load(path)
    }
}

mod config_missing_default_filled {
    use burn::config::Config;

    #[derive(Config, Debug)]
    pub struct TrainConfig {
        pub lr: f64,
        pub batch_size: usize,
        #[config(default = 0.9)]
        pub momentum: f64,
    }

    /// Config::load 不补缺的字段：先用文件里的必填字段 new() 出一个带默认值的配置，
    /// 再把文件里有的字段盖上去，最后反序列化。
    pub fn load(path: &str) -> TrainConfig {
        let text = std::fs::read_to_string(path).unwrap();
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        let lr = file["lr"].as_f64().unwrap();
        let batch_size = file["batch_size"].as_u64().unwrap() as usize;
        let mut merged = serde_json::to_value(TrainConfig::new(lr, batch_size)).unwrap();
        for (key, value) in file.as_object().unwrap() {
            merged[key] = value.clone();
        }
        serde_json::from_value(merged).unwrap()
    }
}

mod save_load_bytes {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::ModuleRecord;

    pub fn run(m: Linear, d: &Device) -> Linear {
        let bytes = m.into_record().into_bytes().unwrap();
        LinearConfig::new(4, 3)
            .init(d)
            .load_record(ModuleRecord::from_bytes(bytes).unwrap())
    }
}

mod save_keeps_dtype {
    use burn::nn::Linear;
    use burn::prelude::*;

    /// m_f64、fresh_f64 的参数都是 f64：文件里存的也是 f64
    pub fn run(m_f64: Linear, fresh_f64: Linear, path: &str) -> Linear {
        m_f64.save_file(path).unwrap();
        fresh_f64.load_file(path)
    }
}

mod load_f64_into_f32 {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    /// 默认的 DTypePolicy::FromRecord：参数变成记录里的 f64
    pub fn run(m_f64: Linear, d: &Device) -> Linear {
        LinearConfig::new(4, 3)
            .init(d)
            .load_record(m_f64.into_record())
    }
}

mod load_f64_into_f32_cast {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    /// cast_to_module_dtype()：记录里的 f64 转成模块参数原来的 f32
    pub fn run(m_f64: Linear, d: &Device) -> Linear {
        let record = m_f64.into_record().cast_to_module_dtype();
        LinearConfig::new(4, 3).init(d).load_record(record)
    }
}

mod load_missing_key {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::RecordError;

    /// 记录里没有 bias：try_load_record 返回 Err（load_record 会 panic）
    pub fn run(without_bias: Linear, d: &Device) -> Result<Linear, RecordError> {
        LinearConfig::new(4, 3)
            .init(d)
            .try_load_record(without_bias.into_record())
    }
}

mod load_partial {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    /// 记录里没有 bias：allow_partial(true) 载入有的，bias 保持原样
    pub fn run(without_bias: Linear, d: &Device) -> Linear {
        let record = without_bias.into_record().allow_partial(true);
        LinearConfig::new(4, 3).init(d).load_record(record)
    }
}

mod optimizer_resume {
    use burn::nn::Linear;
    use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        AdamConfig::new().with_epsilon(1e-8).init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }

    /// optim.state_dict() 存成字节，一个新的优化器从字节里接着走
    pub fn resume(optim: &ModuleOptimizer) -> ModuleOptimizer {
        let bytes = optim.into_bytes().unwrap();
        build().from_bytes(bytes).unwrap()
    }
}
