//! The torch → burn map, training rows: optimizers, their defaults, lr schedulers, init,
//! save/load and data loading; one `row` line per row of ref-4-training.yaml's table.
//! Optimizer rows: Linear(4, 3), weight element k (1-based, PyTorch's [out, in] order) 0.5·sin(k),
//! bias o 0.5·cos(o + 1); step t's gradients set directly: weight 0.1·cos(0.7·k + t), bias
//! 0.1·sin(o + 1 + 2t). The same numbers as experiments/reference/ref_training.py.
use burn::data::dataloader::batcher::Batcher;
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::data::dataset::{Dataset, InMemDataset};
use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
use burn::lr_scheduler::exponential::ExponentialLrSchedulerConfig;
use burn::lr_scheduler::linear::LinearLrSchedulerConfig;
use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
use burn::lr_scheduler::step::StepLrSchedulerConfig;
use burn::module::{Param, ParamGroup};
use burn::nn::{Initializer, Linear, LinearConfig};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{
    AdaGradConfig, AdamConfig, AdamWConfig, GradientsParams, LBFGSConfig, ModuleOptimizer,
    RmsPropConfig, SgdConfig,
};
use burn::prelude::*;
use burn::store::ModuleRecord;
use burn::tensor::{DType, Distribution};
use serde_json::{json, Map, Value};

const IN: usize = 4;
const OUT: usize = 3;
const STEPS: usize = 3;

fn f32s<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn make_linear(device: &Device) -> Linear {
    let w: Vec<f32> = (0..OUT * IN)
        .map(|k| (0.5 * ((k + 1) as f64).sin()) as f32)
        .collect();
    let b: Vec<f32> = (0..OUT)
        .map(|o| (0.5 * ((o + 1) as f64).cos()) as f32)
        .collect();
    Linear {
        // burn's Linear stores [in, out]: transpose PyTorch's [out, in].
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [OUT, IN]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(
            TensorData::new(b, [OUT]),
            device,
        ))),
    }
}

fn grad_values(t: usize) -> (Vec<f32>, Vec<f32>) {
    let gw = (0..OUT * IN)
        .map(|k| (0.1 * (0.7 * (k + 1) as f64 + t as f64).cos()) as f32)
        .collect();
    let gb = (0..OUT)
        .map(|o| (0.1 * ((o + 1 + 2 * t) as f64).sin()) as f32)
        .collect();
    (gw, gb)
}

/// Step t's gradients, keyed by the parameters' ids.
fn make_grads(lin: &Linear, t: usize) -> GradientsParams {
    let device = Device::flex();
    let (gw, gb) = grad_values(t);
    let mut grads = GradientsParams::new();
    grads.register(
        lin.weight.id,
        Tensor::<2>::from_data(TensorData::new(gw, [OUT, IN]), &device).transpose(),
    );
    grads.register(
        lin.bias.as_ref().unwrap().id,
        Tensor::<1>::from_data(TensorData::new(gb, [OUT]), &device),
    );
    grads
}

fn params(lin: &Linear) -> Value {
    let bias = lin.bias.as_ref().unwrap().val();
    json!({"weight": f32s(lin.weight.val().transpose()), "bias": f32s(bias)})
}

/// Params after each step, one lr for all parameters.
fn steps(mut optim: ModuleOptimizer, lr: f64) -> Value {
    steps_with(&mut optim, |_| lr.into())
}

/// Params after each step, the lr (one for all, or per group) asked for at each step.
fn steps_with(
    optim: &mut ModuleOptimizer,
    mut lr: impl FnMut(usize) -> burn::lr_scheduler::module_lr_scheduler::ModuleLearningRate,
) -> Value {
    let mut lin = make_linear(&Device::flex().autodiff());
    let mut out = Map::new();
    for t in 1..=STEPS {
        let grads = make_grads(&lin, t);
        lin = optim.step(lr(t), lin, grads);
        out.insert(format!("step{t}"), params(&lin));
    }
    Value::Object(out)
}

/// Adadelta, written out (burn 0.22.1 has none): torch.optim.Adadelta's update, rho 0.9,
/// eps 1e-6, lr 1.0.
fn adadelta() -> Value {
    let d = Device::flex();
    let (rho, eps, lr) = (0.9, 1e-6, 1.0);
    let w: Vec<f32> = (0..OUT * IN)
        .map(|k| (0.5 * ((k + 1) as f64).sin()) as f32)
        .collect();
    let b: Vec<f32> = (0..OUT)
        .map(|o| (0.5 * ((o + 1) as f64).cos()) as f32)
        .collect();
    let mut p = [
        Tensor::<1>::from_data(TensorData::new(w, [OUT * IN]), &d),
        Tensor::<1>::from_data(TensorData::new(b, [OUT]), &d),
    ];
    let mut sq: Vec<Tensor<1>> = p.iter().map(Tensor::zeros_like).collect();
    let mut acc: Vec<Tensor<1>> = p.iter().map(Tensor::zeros_like).collect();
    let mut out = Map::new();
    for t in 1..=STEPS {
        let (gw, gb) = grad_values(t);
        let g = [
            Tensor::<1>::from_data(TensorData::new(gw, [OUT * IN]), &d),
            Tensor::<1>::from_data(TensorData::new(gb, [OUT]), &d),
        ];
        for i in 0..2 {
            sq[i] = sq[i].clone().mul_scalar(rho) + g[i].clone().square().mul_scalar(1.0 - rho);
            let std = sq[i].clone().add_scalar(eps).sqrt();
            let delta = acc[i]
                .clone()
                .add_scalar(eps)
                .sqrt()
                .div(std)
                .mul(g[i].clone());
            acc[i] = acc[i].clone().mul_scalar(rho) + delta.clone().square().mul_scalar(1.0 - rho);
            p[i] = p[i].clone() - delta.mul_scalar(lr);
        }
        out.insert(
            format!("step{t}"),
            json!({"weight": f32s(p[0].clone()), "bias": f32s(p[1].clone())}),
        );
    }
    Value::Object(out)
}

fn regression(device: &Device) -> (Tensor<2>, Tensor<2>) {
    let x: Vec<f32> = (0..8 * IN)
        .map(|i| (0.5 * (0.3 * (i / IN) as f64 + 0.1 * (i % IN) as f64).sin()) as f32)
        .collect();
    let y: Vec<f32> = (0..8 * OUT)
        .map(|i| (0.5 * (0.2 * (i / OUT) as f64 + 0.5 * (i % OUT) as f64).cos()) as f32)
        .collect();
    (
        Tensor::<2>::from_data(TensorData::new(x, [8, IN]), device),
        Tensor::<2>::from_data(TensorData::new(y, [8, OUT]), device),
    )
}

/// One LBFGS step (lr 0.5, no line search): the params and what step returns.
fn lbfgs() -> (Linear, f64) {
    let device = Device::flex().autodiff();
    let (x, y) = regression(&device);
    let mut optim = LBFGSConfig::new().init();
    let closure = |m: Linear| {
        let loss = (m.forward(x.clone()) - y.clone()).square().mean();
        let grads = GradientsParams::from_grads(loss.backward(), &m);
        (loss.into_scalar::<f64>(), grads)
    };
    optim.step(0.5, make_linear(&device), closure)
}

fn config(c: impl burn::serde::Serialize) -> Value {
    serde_json::to_value(c).unwrap()
}

/// The lr of 12 optimizer steps: each step asks the scheduler for its lr.
fn lr_sequence(mut sched: ModuleLrScheduler) -> Value {
    json!({"lr": (0..12).map(|_| sched.step().base()).collect::<Vec<f64>>()})
}

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

/// A weight as burn's Linear holds it: [in, out], with the fans given.
fn init_draw(init: Initializer, bound: Option<f64>) -> Value {
    let device = Device::flex();
    device.seed(0);
    let p: Param<Tensor<2>> =
        init.init_with([FAN_IN, FAN_OUT], Some(FAN_IN), Some(FAN_OUT), &device);
    draws_stats(p.val(), bound)
}

fn dtype_name(t: DType) -> &'static str {
    match t {
        DType::F32 => "f32",
        DType::F64 => "f64",
        _ => "other",
    }
}

fn linear_f64(device: &Device) -> Linear {
    let l = make_linear(device);
    Linear {
        weight: Param::from_tensor(l.weight.val().cast(DType::F64)),
        bias: Some(Param::from_tensor(l.bias.unwrap().val().cast(DType::F64))),
    }
}

#[derive(Clone)]
struct ValueBatcher;

impl Batcher<i64, Tensor<1, Int>> for ValueBatcher {
    fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
        let n = items.len();
        Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
    }
}

fn dataset() -> InMemDataset<i64> {
    InMemDataset::new((0..10).collect())
}

fn ints(t: Tensor<1, Int>) -> Vec<i64> {
    t.into_data().try_into_vec_as::<i64>().unwrap()
}

fn epochs(loader: &dyn DataLoader<Tensor<1, Int>>, n: usize) -> Vec<Vec<i64>> {
    (0..n)
        .map(|_| loader.iter().flat_map(|b| ints(b.unwrap())).collect())
        .collect()
}

fn shuffled(seed: u64) -> std::sync::Arc<dyn DataLoader<Tensor<1, Int>>> {
    DataLoaderBuilder::new(ValueBatcher)
        .batch_size(4)
        .shuffle(seed)
        .set_device(Device::flex())
        .build(dataset())
}

/// Whether `f` panics; the panic message is not printed.
fn panics(f: impl FnOnce() + std::panic::UnwindSafe) -> bool {
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(f).is_err();
    let _ = std::panic::take_hook();
    r
}

/// What a training script keeps in its config file (PyTorch: a dataclass written as JSON).
#[derive(Config, Debug)]
struct TrainConfig {
    lr: f64,
    batch_size: usize,
    #[config(default = 0.9)]
    momentum: f64,
}

fn config_json(c: &TrainConfig) -> Value {
    json!({"lr": c.lr, "batch_size": c.batch_size, "momentum": c.momentum})
}

fn main() {
    let d = Device::flex();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };
    let no_damp = || MomentumConfig::new().with_dampening(0.0);

    // 优化器
    row("sgd", steps(SgdConfig::new().init(), 0.1));
    row(
        "sgd_momentum",
        steps(SgdConfig::new().with_momentum(Some(no_damp())).init(), 0.1),
    );
    // MomentumConfig::new() as it comes: dampening 0.1
    row(
        "sgd_momentum_burn_default",
        steps(
            SgdConfig::new()
                .with_momentum(Some(MomentumConfig::new()))
                .init(),
            0.1,
        ),
    );
    row(
        "sgd_nesterov",
        steps(
            SgdConfig::new()
                .with_momentum(Some(no_damp().with_nesterov(true)))
                .init(),
            0.1,
        ),
    );
    row(
        "sgd_weight_decay",
        steps(
            SgdConfig::new()
                .with_weight_decay(Some(WeightDecayConfig::new(0.01)))
                .init(),
            0.1,
        ),
    );
    let adam = AdamConfig::new().with_epsilon(1e-8);
    row("adam", steps(adam.init(), 0.01));
    row(
        "adam_l2",
        steps(
            adam.clone()
                .with_weight_decay(Some(WeightDecayConfig::new(0.01)))
                .init(),
            0.01,
        ),
    );
    row(
        "adam_amsgrad",
        steps(adam.clone().with_amsgrad(true).init(), 0.01),
    );
    row(
        "adamw",
        steps(
            AdamWConfig::new()
                .with_epsilon(1e-8)
                .with_weight_decay(0.01)
                .init(),
            0.01,
        ),
    );
    let rms = RmsPropConfig::new().with_momentum(0.0).with_epsilon(1e-8);
    row("rmsprop", steps(rms.init(), 0.01));
    row(
        "rmsprop_centered_momentum",
        steps(
            rms.clone().with_momentum(0.9).with_centered(true).init(),
            0.01,
        ),
    );
    let adagrad = AdaGradConfig::new().with_epsilon(1e-10);
    row("adagrad", steps(adagrad.init(), 0.1));
    row(
        "adagrad_lr_decay",
        steps(adagrad.clone().with_lr_decay(0.1).init(), 0.1),
    );
    row("adadelta", adadelta());
    let (lin, returned) = lbfgs();
    row("lbfgs", params(&lin));
    row("lbfgs_returned_loss", json!({"loss": returned}));
    // Per-group lr: the bias at 0.01, everything else at 0.1.
    let mut policy = ModuleLrScheduler::new(0.1).with_group(ParamGroup::from_path("bias"), 0.01);
    row(
        "param_groups_lr",
        steps_with(&mut SgdConfig::new().init(), |_| policy.step()),
    );
    // Per-group optimizer: weight decay on the weight only.
    let mut grouped = adam.init().with_group(
        ParamGroup::from_path("weight"),
        adam.clone()
            .with_weight_decay(Some(WeightDecayConfig::new(0.1)))
            .build(),
        None,
    );
    row(
        "param_groups_optim",
        steps_with(&mut grouped, |_| 0.01.into()),
    );

    // 优化器默认值: as the configs serialise themselves; a missing weight decay is 0.0.
    {
        // No default lr: the step gets one; 1e-3 is PyTorch's.
        let device = Device::flex().autodiff();
        let p = Param::from_tensor(Tensor::<1>::zeros([1], &device));
        let mut grads = GradientsParams::new();
        grads.register(p.id, Tensor::<1>::ones([1], &Device::flex()));
        let p = SgdConfig::new().init().step(1e-3, p, grads);
        row("default_lr", json!({"param": f32s(p.val())}));
    }
    let m = config(MomentumConfig::new());
    row(
        "default_sgd_momentum",
        json!({"momentum": m["momentum"], "dampening": m["dampening"], "nesterov": m["nesterov"]}),
    );
    let a = config(AdamConfig::new());
    let wd = |v: &Value| if v.is_null() { json!(0.0) } else { v.clone() };
    row(
        "default_adam_betas",
        json!({"beta_1": a["beta_1"], "beta_2": a["beta_2"], "amsgrad": a["amsgrad"],
               "weight_decay": wd(&a["weight_decay"])}),
    );
    row("default_adam_eps", json!({"eps": a["epsilon"]}));
    let aw = config(AdamWConfig::new());
    row(
        "default_adamw_weight_decay",
        json!({"weight_decay": aw["weight_decay"]}),
    );
    row("default_adamw_eps", json!({"eps": aw["epsilon"]}));
    let r = config(RmsPropConfig::new());
    row(
        "default_rmsprop_alpha",
        json!({"alpha": r["alpha"], "centered": r["centered"]}),
    );
    row(
        "default_rmsprop_momentum",
        json!({"momentum": r["momentum"]}),
    );
    row("default_rmsprop_eps", json!({"eps": r["epsilon"]}));
    let g = config(AdaGradConfig::new());
    row("default_adagrad", json!({"lr_decay": g["lr_decay"]}));
    row("default_adagrad_eps", json!({"eps": g["epsilon"]}));
    let l = LBFGSConfig::new();
    row(
        "default_lbfgs",
        json!({"max_iter": l.max_iter, "history_size": l.history_size,
               "tolerance_grad": l.tolerance_grad, "tolerance_change": l.tolerance_change,
               "line_search": format!("{:?}", l.line_search_fn)}),
    );

    // 学习率调度
    row(
        "step_lr",
        lr_sequence(StepLrSchedulerConfig::new(0.1, 3).init().unwrap()),
    );
    row(
        "cosine_lr",
        lr_sequence(
            CosineAnnealingLrSchedulerConfig::new(0.1, 10)
                .with_min_lr(0.001)
                .init()
                .unwrap(),
        ),
    );
    row(
        "linear_warmup_lr",
        lr_sequence(LinearLrSchedulerConfig::new(0.01, 0.1, 5).init().unwrap()),
    );
    row(
        "exponential_lr",
        lr_sequence(ExponentialLrSchedulerConfig::new(0.1, 0.9).init().unwrap()),
    );
    row(
        "scheduler_lr_above_one",
        json!({"accepted": CosineAnnealingLrSchedulerConfig::new(2.0, 10).init().is_ok()}),
    );

    // 初始化
    let exact = |init: Initializer| {
        let t: Tensor<2> = init.init([2, 3], &d).val();
        json!({"v": f32s(t), "shape": [2, 3]})
    };
    row("init_zeros", exact(Initializer::Zeros));
    row("init_ones", exact(Initializer::Ones));
    row(
        "init_constant",
        exact(Initializer::Constant { value: 0.25 }),
    );
    row(
        "init_uniform",
        init_draw(
            Initializer::Uniform {
                min: -0.3,
                max: 0.3,
            },
            Some(0.3),
        ),
    );
    row(
        "init_normal",
        init_draw(
            Initializer::Normal {
                mean: 1.0,
                std: 2.0,
            },
            None,
        ),
    );
    // The bounds as PyTorch computes them: gain·√(6 / (fan_in + fan_out)), gain·√(3 / fan_in).
    let xavier_bound = (6.0 / (FAN_IN + FAN_OUT) as f64).sqrt();
    row(
        "init_xavier_uniform",
        init_draw(Initializer::XavierUniform { gain: 1.0 }, Some(xavier_bound)),
    );
    row(
        "init_xavier_normal",
        init_draw(Initializer::XavierNormal { gain: 1.0 }, None),
    );
    let kaiming = Initializer::KaimingUniform {
        gain: 2f64.sqrt(),
        fan_out_only: false,
    };
    let kaiming_bound = 2f64.sqrt() * (3.0 / FAN_IN as f64).sqrt();
    row(
        "init_kaiming_uniform",
        init_draw(kaiming.clone(), Some(kaiming_bound)),
    );
    row(
        "init_kaiming_normal",
        init_draw(
            Initializer::KaimingNormal {
                gain: 2f64.sqrt(),
                fan_out_only: false,
            },
            None,
        ),
    );
    // init() without fans: the draw happens lazily, at the first val().
    let dk = d.clone();
    let failed = panics(move || {
        let p: Param<Tensor<2>> = kaiming.init([FAN_IN, FAN_OUT], &dk);
        let _ = p.val();
    });
    row("init_kaiming_fan_from_shape", json!({"ok": !failed}));
    {
        d.seed(0);
        let lin = LinearConfig::new(FAN_IN, FAN_OUT).init(&d);
        let bound = 1.0 / (FAN_IN as f64).sqrt();
        let w = draws_stats(lin.weight.val(), Some(bound));
        let b = draws_stats(lin.bias.unwrap().val().unsqueeze::<2>(), Some(bound));
        row(
            "init_linear_default",
            json!({"weight_max_abs": w["max_abs"], "weight_within_bound": w["within_bound"],
                   "bias_within_bound": b["within_bound"], "weight_std": w["std"]}),
        );
    }
    {
        d.seed(7);
        let a = Tensor::<2>::random([4, 4], Distribution::Default, &d);
        d.seed(7);
        let b = Tensor::<2>::random([4, 4], Distribution::Default, &d);
        row(
            "init_seed_repeat",
            json!({"same_draws": a.equal(b).all().into_scalar::<bool>()}),
        );
    }

    // 存取
    make_linear(&d).save_file("lin.bpk").unwrap();
    let fresh = LinearConfig::new(IN, OUT).init(&d).load_file("lin.bpk");
    row("save_load_file", params(&fresh));
    let cfg = TrainConfig::new(0.05, 16);
    cfg.save("train.json").unwrap();
    row("config_roundtrip", config_json(&TrainConfig::load("train.json").unwrap()));
    // A file written before `momentum` existed: #[config(default)] fills it in.
    std::fs::write("old.json", r#"{"lr": 0.05, "batch_size": 16}"#).unwrap();
    row("config_missing_default", match TrainConfig::load("old.json") {
        Ok(c) => json!({"loaded": format!("momentum = {}", c.momentum)}),
        Err(e) => json!({"loaded": format!("{e:?}")}),
    });
    let bytes = make_linear(&d).into_record().into_bytes().unwrap();
    let fresh = LinearConfig::new(IN, OUT)
        .init(&d)
        .load_record(ModuleRecord::from_bytes(bytes).unwrap());
    row("save_load_bytes", params(&fresh));
    linear_f64(&d).save_file("lin64.bpk").unwrap();
    let fresh = linear_f64(&d).load_file("lin64.bpk");
    row(
        "save_keeps_dtype",
        json!({"dtype": dtype_name(fresh.weight.val().dtype())}),
    );
    let fresh = LinearConfig::new(IN, OUT)
        .init(&d)
        .load_record(linear_f64(&d).into_record());
    row(
        "load_f64_into_f32",
        json!({"dtype": dtype_name(fresh.weight.val().dtype())}),
    );
    let fresh = LinearConfig::new(IN, OUT)
        .init(&d)
        .load_record(linear_f64(&d).into_record().cast_to_module_dtype());
    row(
        "load_f64_into_f32_cast",
        json!({"dtype": dtype_name(fresh.weight.val().dtype())}),
    );
    let no_bias = || Linear {
        weight: make_linear(&d).weight,
        bias: None,
    };
    let r = LinearConfig::new(IN, OUT)
        .init(&d)
        .try_load_record(no_bias().into_record());
    row("load_missing_key", json!({"error": r.is_err()}));
    let fresh = LinearConfig::new(IN, OUT)
        .init(&d)
        .load_record(no_bias().into_record().allow_partial(true));
    row(
        "load_partial",
        json!({"weight": f32s(fresh.weight.val().transpose())}),
    );
    {
        let mut lin = make_linear(&Device::flex().autodiff());
        let mut optim = adam.init();
        for t in 1..=2 {
            let grads = make_grads(&lin, t);
            lin = optim.step(0.01, lin, grads);
        }
        let bytes = optim.into_bytes().unwrap();
        let mut restored = adam.init().from_bytes(bytes).unwrap();
        let grads = make_grads(&lin, 3);
        lin = restored.step(0.01, lin, grads);
        row("optimizer_resume", params(&lin));
    }

    // 数据加载
    let ds = dataset();
    row(
        "dataset_len_get",
        json!({"len": ds.len(), "item3": ds.get(3).unwrap()}),
    );
    let loader = DataLoaderBuilder::new(ValueBatcher)
        .batch_size(4)
        .set_device(Device::flex())
        .build(dataset());
    let all: Vec<Vec<i64>> = loader.iter().map(|b| ints(b.unwrap())).collect();
    row("batches", json!({"batches": all}));
    // No drop_last: skip the short batch.
    let full: Vec<Vec<i64>> = loader
        .iter()
        .map(|b| b.unwrap())
        .filter(|b| b.dims()[0] == 4)
        .map(ints)
        .collect();
    row("drop_last", json!({"batches": full}));
    row(
        "shuffle_order",
        json!({"order": epochs(shuffled(3).as_ref(), 1)[0]}),
    );
    let es = epochs(shuffled(3).as_ref(), 5);
    let sorted = |e: &Vec<i64>| {
        let mut e = e.clone();
        e.sort();
        e
    };
    row(
        "shuffle_permutation",
        json!({"every_epoch_permutation": es.iter().all(|e| sorted(e) == (0..10).collect::<Vec<_>>()),
               "order_changes_every_epoch": es.windows(2).all(|w| w[0] != w[1])}),
    );
    row(
        "shuffle_same_seed",
        json!({"same_order": epochs(shuffled(3).as_ref(), 3) == epochs(shuffled(3).as_ref(), 3)}),
    );

    println!("{}", json!({"rows": Value::Object(rows)}));
}
