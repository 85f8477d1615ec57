//! The torch → burn map, training rows: optimizers, their defaults, lr schedulers, init,
//! save/load and data loading. Each row of ref-4-training.yaml is one inline module below, named
//! by the row id: the burn code the page shows. The helpers and main() around them build the
//! inputs (PyTorch's numbers), call the modules and print `{"rows": {<id>: {...}}}`.
//! Optimizer rows: Linear(4, 3), weight element k (1-based, PyTorch's [out, in] order) 0.5·sin(k),
//! bias o 0.5·cos(o + 1); step t's gradients set directly: weight 0.1·cos(0.7·k + t), bias
//! 0.1·sin(o + 1 + 2t). The same numbers as experiments/reference/ref_training.py.
use burn::data::dataloader::DataLoader;
use burn::data::dataset::InMemDataset;
use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
use burn::module::Param;
use burn::nn::Linear;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::tensor::DType;
use serde_json::{json, Map, Value};

const IN: usize = 4;
const OUT: usize = 3;
const STEPS: usize = 3;

fn f32s<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn f64s<const D: usize>(t: Tensor<D>) -> Value {
    json!(t.into_data().convert::<f64>().try_to_vec::<f64>().unwrap())
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

/// What a loaded Linear holds: its weight's dtype and its values (in f64, PyTorch's order).
fn loaded(lin: &Linear) -> Value {
    let bias = lin.bias.as_ref().unwrap().val();
    json!({"dtype": dtype_name(lin.weight.val().dtype()),
           "weight": f64s(lin.weight.val().transpose()), "bias": f64s(bias)})
}

/// Params after each of the steps; `step` is the row's optimizer step.
fn run_steps(mut step: impl FnMut(Linear, GradientsParams) -> Linear) -> Value {
    let mut lin = make_linear(&Device::flex().autodiff());
    let mut out = Map::new();
    for t in 1..=STEPS {
        let grads = make_grads(&lin, t);
        lin = step(lin, grads);
        out.insert(format!("step{t}"), params(&lin));
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

/// The lr of 12 optimizer steps: `next` is asked once per step.
fn lr_sequence(mut next: impl FnMut() -> f64) -> Value {
    json!({"lr": (0..12).map(|_| next()).collect::<Vec<f64>>()})
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

/// The draws of a random init row, seeded like PyTorch's side (torch.manual_seed(0)).
fn init_draw(run: fn(&Device) -> Tensor<2>, bound: Option<f64>) -> Value {
    let device = Device::flex();
    device.seed(0);
    draws_stats(run(&device), bound)
}

fn dtype_name(t: DType) -> &'static str {
    match t {
        DType::F32 => "f32",
        DType::F64 => "f64",
        _ => "other",
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

/// Whether `f` panics; the panic message is not printed.
fn panics(f: impl FnOnce() + std::panic::UnwindSafe) -> bool {
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(f).is_err();
    let _ = std::panic::take_hook();
    r
}

/// A missing weight decay (None) is PyTorch's weight_decay=0.
fn or_zero(v: Option<f64>) -> f64 {
    v.unwrap_or(0.0)
}

// ---- 优化器 ----

mod sgd {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};

    pub fn build() -> ModuleOptimizer {
        SgdConfig::new().init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod sgd_momentum {
    use burn::nn::Linear;
    use burn::optim::momentum::MomentumConfig;
    use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};

    pub fn build() -> ModuleOptimizer {
        // PyTorch 的 dampening 默认 0；MomentumConfig::new() 的默认是 0.1
        let momentum = MomentumConfig::new().with_momentum(0.9).with_dampening(0.0);
        SgdConfig::new().with_momentum(Some(momentum)).init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod sgd_momentum_burn_default {
    use burn::nn::Linear;
    use burn::optim::momentum::MomentumConfig;
    use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};

    pub fn build() -> ModuleOptimizer {
        // MomentumConfig::new()：momentum 0.9，dampening 0.1
        SgdConfig::new()
            .with_momentum(Some(MomentumConfig::new()))
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod sgd_nesterov {
    use burn::nn::Linear;
    use burn::optim::momentum::MomentumConfig;
    use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};

    pub fn build() -> ModuleOptimizer {
        let momentum = MomentumConfig::new()
            .with_momentum(0.9)
            .with_dampening(0.0)
            .with_nesterov(true);
        SgdConfig::new().with_momentum(Some(momentum)).init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod sgd_weight_decay {
    use burn::nn::Linear;
    use burn::optim::decay::WeightDecayConfig;
    use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};

    pub fn build() -> ModuleOptimizer {
        SgdConfig::new()
            .with_weight_decay(Some(WeightDecayConfig::new(0.01)))
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod adam {
    use burn::nn::Linear;
    use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        // PyTorch 的 eps 默认 1e-8，AdamConfig::new() 的是 1e-5
        AdamConfig::new().with_epsilon(1e-8).init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

mod adam_l2 {
    use burn::nn::Linear;
    use burn::optim::decay::WeightDecayConfig;
    use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        // Adam 的 weight_decay 是 L2：加进梯度，再走 Adam
        AdamConfig::new()
            .with_epsilon(1e-8)
            .with_weight_decay(Some(WeightDecayConfig::new(0.01)))
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

mod adam_amsgrad {
    use burn::nn::Linear;
    use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        AdamConfig::new()
            .with_epsilon(1e-8)
            .with_amsgrad(true)
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

mod adamw {
    use burn::nn::Linear;
    use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        // PyTorch 的默认值 eps 1e-8、weight_decay 0.01；AdamWConfig::new() 的是 1e-5、1e-4
        AdamWConfig::new()
            .with_epsilon(1e-8)
            .with_weight_decay(0.01)
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

mod rmsprop {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, ModuleOptimizer, RmsPropConfig};

    pub fn build() -> ModuleOptimizer {
        // PyTorch 默认不带动量、eps 1e-8；RmsPropConfig::new() 的 momentum 0.9、epsilon 1e-5
        RmsPropConfig::new()
            .with_momentum(0.0)
            .with_epsilon(1e-8)
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

mod rmsprop_centered_momentum {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, ModuleOptimizer, RmsPropConfig};

    pub fn build() -> ModuleOptimizer {
        RmsPropConfig::new()
            .with_epsilon(1e-8)
            .with_momentum(0.9)
            .with_centered(true)
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

mod adagrad {
    use burn::nn::Linear;
    use burn::optim::{AdaGradConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        // PyTorch 的 eps 默认 1e-10，AdaGradConfig::new() 的是 1e-5
        AdaGradConfig::new().with_epsilon(1e-10).init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod adagrad_lr_decay {
    use burn::nn::Linear;
    use burn::optim::{AdaGradConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        AdaGradConfig::new()
            .with_epsilon(1e-10)
            .with_lr_decay(0.1)
            .init()
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.1, model, grads)
    }
}

mod adadelta {
    use burn::nn::Linear;
    use burn::optim::{
        GradientsParams, LearningRate, ModuleOptimizer, Optimizer, RecordState, StateSink,
        StateSource,
    };
    use burn::prelude::*;

    /// burn 0.22.1 没有 Adadelta：按 torch.optim.Adadelta 的更新式写一个 Optimizer，
    /// 交给 ModuleOptimizer，用法就和 burn 自带的优化器一样（step、存取状态）。
    #[derive(Clone)]
    pub struct Adadelta {
        pub rho: f64,
        pub eps: f64,
    }

    /// 每个参数的状态：梯度平方、更新量平方各自的滑动平均。
    #[derive(Clone)]
    pub struct AdadeltaState<const D: usize> {
        pub square_avg: Tensor<D>,
        pub acc_delta: Tensor<D>,
    }

    // 状态存进 optim.into_bytes() / 从 from_bytes() 读回时用的两个张量名
    impl<const D: usize> RecordState for AdadeltaState<D> {
        fn state_flatten(&self, prefix: &str, out: &mut StateSink) {
            out.push_tensor(prefix, "square_avg", self.square_avg.to_data());
            out.push_tensor(prefix, "acc_delta", self.acc_delta.to_data());
        }

        fn state_unflatten(prefix: &str, src: &mut StateSource, device: &Device) -> Option<Self> {
            Some(Self {
                square_avg: Tensor::from_data(src.take_tensor(prefix, "square_avg")?, device),
                acc_delta: Tensor::from_data(src.take_tensor(prefix, "acc_delta")?, device),
            })
        }
    }

    impl Optimizer for Adadelta {
        type State<const D: usize> = AdadeltaState<D>;

        fn step<const D: usize>(
            &self,
            lr: LearningRate,
            tensor: Tensor<D>,
            grad: Tensor<D>,
            state: Option<Self::State<D>>,
        ) -> (Tensor<D>, Option<Self::State<D>>) {
            let (square_avg, acc_delta) = match state {
                Some(s) => (s.square_avg, s.acc_delta),
                None => (grad.zeros_like(), grad.zeros_like()),
            };
            // sq = ρ·sq + (1-ρ)·g²；delta = √(acc+ε) / √(sq+ε) · g；acc = ρ·acc + (1-ρ)·delta²
            let square_avg =
                square_avg.mul_scalar(self.rho) + grad.clone().square().mul_scalar(1.0 - self.rho);
            let std = square_avg.clone().add_scalar(self.eps).sqrt();
            let delta = acc_delta
                .clone()
                .add_scalar(self.eps)
                .sqrt()
                .div(std)
                .mul(grad);
            let acc_delta =
                acc_delta.mul_scalar(self.rho) + delta.clone().square().mul_scalar(1.0 - self.rho);
            let state = AdadeltaState {
                square_avg,
                acc_delta,
            };
            (tensor - delta.mul_scalar(lr), Some(state))
        }

        fn to_device<const D: usize>(state: Self::State<D>, device: &Device) -> Self::State<D> {
            AdadeltaState {
                square_avg: state.square_avg.to_device(device),
                acc_delta: state.acc_delta.to_device(device),
            }
        }
    }

    pub fn build() -> ModuleOptimizer {
        // PyTorch 的默认值：rho 0.9，eps 1e-6
        ModuleOptimizer::from(Adadelta {
            rho: 0.9,
            eps: 1e-6,
        })
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        // Adadelta(p) 的 lr 默认 1.0
        optim.step(1.0, model, grads)
    }
}

mod lbfgs {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, LBFGSConfig};
    use burn::prelude::*;

    /// 一次 step(closure)：closure 算损失和梯度，LBFGS 在一步里调用它多次。
    pub fn run(model: Linear, x: Tensor<2>, y: Tensor<2>) -> Linear {
        let mut optim = LBFGSConfig::new().init();
        let closure = |m: Linear| {
            let loss = (m.forward(x.clone()) - y.clone()).square().mean();
            let grads = GradientsParams::from_grads(loss.backward(), &m);
            (loss.into_scalar::<f64>(), grads)
        };
        let (model, _loss) = optim.step(0.5, model, closure);
        model
    }
}

mod lbfgs_returned_loss {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, LBFGSConfig};
    use burn::prelude::*;

    /// step 返回的损失：这一步走完之后的。
    pub fn run(model: Linear, x: Tensor<2>, y: Tensor<2>) -> f64 {
        let mut optim = LBFGSConfig::new().init();
        let closure = |m: Linear| {
            let loss = (m.forward(x.clone()) - y.clone()).square().mean();
            let grads = GradientsParams::from_grads(loss.backward(), &m);
            (loss.into_scalar::<f64>(), grads)
        };
        let (_model, loss) = optim.step(0.5, model, closure);
        loss
    }
}

mod lbfgs_loss_before_step {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, LBFGSConfig};
    use burn::prelude::*;

    /// PyTorch 的 loss = optim.step(closure)：第一次调用 closure 的损失（这一步之前的）。
    pub fn run(model: Linear, x: Tensor<2>, y: Tensor<2>) -> (Linear, f64) {
        let mut optim = LBFGSConfig::new().init();
        let mut first_loss = None;
        let closure = |m: Linear| {
            let loss = (m.forward(x.clone()) - y.clone()).square().mean();
            let grads = GradientsParams::from_grads(loss.backward(), &m);
            let loss = loss.into_scalar::<f64>();
            // burn 的 step 返回走完之后的损失：自己记下第一次的
            first_loss.get_or_insert(loss);
            (loss, grads)
        };
        let (model, _loss_after) = optim.step(0.5, model, closure);
        (model, first_loss.unwrap())
    }
}

mod param_groups_lr {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::module::ParamGroup;
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, ModuleOptimizer, SgdConfig};

    pub fn build() -> (ModuleOptimizer, ModuleLrScheduler) {
        let optim = SgdConfig::new().init();
        // 学习率按参数分组：bias 0.01，其余 0.1
        let lr = ModuleLrScheduler::new(0.1).with_group(ParamGroup::from_path("bias"), 0.01);
        (optim, lr)
    }

    pub fn step(
        optim: &mut ModuleOptimizer,
        lr: &mut ModuleLrScheduler,
        model: Linear,
        grads: GradientsParams,
    ) -> Linear {
        optim.step(lr.step(), model, grads)
    }
}

mod param_groups_optim {
    use burn::module::ParamGroup;
    use burn::nn::Linear;
    use burn::optim::decay::WeightDecayConfig;
    use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};

    pub fn build() -> ModuleOptimizer {
        let adam = AdamConfig::new().with_epsilon(1e-8);
        // weight 这一组用带 weight_decay 0.1 的 Adam，其余参数用 adam
        adam.init().with_group(
            ParamGroup::from_path("weight"),
            adam.clone()
                .with_weight_decay(Some(WeightDecayConfig::new(0.1)))
                .build(),
            None,
        )
    }

    pub fn step(optim: &mut ModuleOptimizer, model: Linear, grads: GradientsParams) -> Linear {
        optim.step(0.01, model, grads)
    }
}

// ---- 优化器默认值 ----

mod default_lr {
    use burn::module::Param;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    /// burn 没有默认学习率：step 的第一个参数就是学习率，每一步都要给。
    /// 这里给的是 PyTorch 的默认值 1e-3。
    pub fn step(p: Param<Tensor<1>>, grads: GradientsParams) -> Param<Tensor<1>> {
        SgdConfig::new().init().step(1e-3, p, grads)
    }
}

mod default_sgd_momentum {
    use burn::optim::momentum::MomentumConfig;

    /// MomentumConfig 的字段是公开的：直接读 new() 的值。
    pub fn run() -> (f64, f64, bool) {
        let c = MomentumConfig::new();
        (c.momentum, c.dampening, c.nesterov)
    }
}

mod default_adam_betas {
    use burn::optim::AdamConfig;

    /// AdamConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    /// weight_decay 是 Option，None 就是不做权重衰减。
    pub fn run() -> (f64, f64, bool, Option<f64>) {
        let c = serde_json::to_value(AdamConfig::new()).unwrap();
        (
            c["beta_1"].as_f64().unwrap(),
            c["beta_2"].as_f64().unwrap(),
            c["amsgrad"].as_bool().unwrap(),
            c["weight_decay"]["penalty"].as_f64(),
        )
    }
}

mod default_adam_eps {
    use burn::optim::AdamConfig;

    /// AdamConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(AdamConfig::new()).unwrap();
        c["epsilon"].as_f64().unwrap()
    }
}

mod default_adamw_weight_decay {
    use burn::optim::AdamWConfig;

    /// AdamWConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(AdamWConfig::new()).unwrap();
        c["weight_decay"].as_f64().unwrap()
    }
}

mod default_adamw_eps {
    use burn::optim::AdamWConfig;

    /// AdamWConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(AdamWConfig::new()).unwrap();
        c["epsilon"].as_f64().unwrap()
    }
}

mod default_rmsprop_alpha {
    use burn::optim::RmsPropConfig;

    /// RmsPropConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> (f64, bool) {
        let c = serde_json::to_value(RmsPropConfig::new()).unwrap();
        (
            c["alpha"].as_f64().unwrap(),
            c["centered"].as_bool().unwrap(),
        )
    }
}

mod default_rmsprop_momentum {
    use burn::optim::RmsPropConfig;

    /// RmsPropConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(RmsPropConfig::new()).unwrap();
        c["momentum"].as_f64().unwrap()
    }
}

mod default_rmsprop_eps {
    use burn::optim::RmsPropConfig;

    /// RmsPropConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(RmsPropConfig::new()).unwrap();
        c["epsilon"].as_f64().unwrap()
    }
}

mod default_adagrad {
    use burn::optim::AdaGradConfig;

    /// AdaGradConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(AdaGradConfig::new()).unwrap();
        c["lr_decay"].as_f64().unwrap()
    }
}

mod default_adagrad_eps {
    use burn::optim::AdaGradConfig;

    /// AdaGradConfig 的字段是私有的、没有 getter：从 new() 的序列化里读。
    pub fn run() -> f64 {
        let c = serde_json::to_value(AdaGradConfig::new()).unwrap();
        c["epsilon"].as_f64().unwrap()
    }
}

mod default_lbfgs {
    use burn::optim::{LBFGSConfig, LineSearchFn};

    /// LBFGSConfig 的字段是公开的：直接读 new() 的值。
    pub fn run() -> (usize, usize, f64, f64, LineSearchFn) {
        let c = LBFGSConfig::new();
        (
            c.max_iter,
            c.history_size,
            c.tolerance_grad,
            c.tolerance_change,
            c.line_search_fn,
        )
    }
}

// ---- 学习率调度 ----

mod step_lr {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::step::StepLrSchedulerConfig;

    pub fn build() -> ModuleLrScheduler {
        // 初始学习率 0.1（PyTorch 取优化器的 lr），每 3 步乘 gamma（默认 0.1）
        StepLrSchedulerConfig::new(0.1, 3).init().unwrap()
    }

    /// 每个优化步之前调一次：返回这一步用的学习率（第一次返回初始值）。
    pub fn lr(sched: &mut ModuleLrScheduler) -> f64 {
        sched.step().base()
    }
}

mod cosine_lr {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;

    pub fn build() -> ModuleLrScheduler {
        CosineAnnealingLrSchedulerConfig::new(0.1, 10)
            .with_min_lr(0.001)
            .init()
            .unwrap()
    }

    /// 每个优化步之前调一次：返回这一步用的学习率（第一次返回初始值）。
    pub fn lr(sched: &mut ModuleLrScheduler) -> f64 {
        sched.step().base()
    }
}

mod linear_warmup_lr {
    use burn::lr_scheduler::linear::LinearLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;

    pub fn build() -> ModuleLrScheduler {
        // 给的是学习率本身：从 0.1·0.1 = 0.01 线性升到 0.1，用 5 步
        LinearLrSchedulerConfig::new(0.01, 0.1, 5).init().unwrap()
    }

    /// 每个优化步之前调一次：返回这一步用的学习率（第一次返回初始值）。
    pub fn lr(sched: &mut ModuleLrScheduler) -> f64 {
        sched.step().base()
    }
}

mod exponential_lr {
    use burn::lr_scheduler::exponential::ExponentialLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;

    pub fn build() -> ModuleLrScheduler {
        ExponentialLrSchedulerConfig::new(0.1, 0.9).init().unwrap()
    }

    /// 每个优化步之前调一次：返回这一步用的学习率（第一次返回初始值）。
    pub fn lr(sched: &mut ModuleLrScheduler) -> f64 {
        sched.step().base()
    }
}

mod scheduler_lr_above_one {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;

    /// 初始学习率 2.0：init() 返回 Err（只收 (0, 1] 里的值）。
    pub fn build() -> Result<ModuleLrScheduler, String> {
        CosineAnnealingLrSchedulerConfig::new(2.0, 10).init()
    }
}

mod cosine_lr_above_one {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;

    /// init() 只收 (0, 1] 里的初始学习率：调度 1.0，每一步的学习率乘 2.0。
    /// 余弦调度对初始学习率是线性的（min_lr 为 0 时），乘出来就是初始 2.0 的调度。
    pub fn build() -> ModuleLrScheduler {
        CosineAnnealingLrSchedulerConfig::new(1.0, 10)
            .init()
            .unwrap()
    }

    pub fn lr(sched: &mut ModuleLrScheduler) -> f64 {
        2.0 * sched.step().base()
    }
}

// ---- 初始化 ----

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

// ---- 存取 ----

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

// ---- 数据加载 ----

mod dataset_len_get {
    use burn::data::dataset::{Dataset, InMemDataset};

    pub fn run(items: Vec<i64>) -> (usize, i64) {
        let ds = InMemDataset::new(items);
        (ds.len(), ds.get(3).unwrap())
    }
}

mod batches {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// PyTorch 的默认 collate：把一批整数摞成一个张量
    #[derive(Clone)]
    pub struct ValueBatcher;

    impl Batcher<i64, Tensor<1, Int>> for ValueBatcher {
        fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
            let n = items.len();
            Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
        }
    }

    pub fn build(ds: InMemDataset<i64>, d: &Device) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(ValueBatcher)
            .batch_size(4)
            .set_device(d.clone())
            .build(ds)
    }
}

mod drop_last {
    use burn::data::dataloader::DataLoader;
    use burn::prelude::*;

    /// DataLoaderBuilder 没有 drop_last：跳过不满 batch_size 的批
    pub fn run(loader: &dyn DataLoader<Tensor<1, Int>>, batch_size: usize) -> Vec<Tensor<1, Int>> {
        loader
            .iter()
            .map(|b| b.unwrap())
            .filter(|b| b.dims()[0] == batch_size)
            .collect()
    }
}

mod shuffle_order {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .shuffle(3)
            .set_device(d.clone())
            .build(ds)
    }
}

mod shuffle_order_given {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// burn 的发生器排不出 PyTorch 的顺序：把 PyTorch 这个 epoch 取到的下标顺序带过来，
    /// SelectionDataset 按它取，不再 shuffle
    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        order: Vec<usize>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        let ds = SelectionDataset::from_indices_checked(ds, order);
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .set_device(d.clone())
            .build(ds)
    }
}

mod shuffle_permutation {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// 每次 iter() 是一个 epoch，重新打乱一次
    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .shuffle(3)
            .set_device(d.clone())
            .build(ds)
    }
}

mod shuffle_same_seed {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// 同一个种子建两次：两个 loader 的每个 epoch 顺序相同
    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .shuffle(3)
            .set_device(d.clone())
            .build(ds)
    }
}

/// An optimizer row: the module's build() and step(), run through the fixed gradients.
fn optim_row(
    build: fn() -> ModuleOptimizer,
    step: fn(&mut ModuleOptimizer, Linear, GradientsParams) -> Linear,
) -> Value {
    let mut optim = build();
    run_steps(|m, g| step(&mut optim, m, g))
}

/// A scheduler row: the module's build(), asked for its lr at each of 12 steps.
fn sched_row(build: fn() -> ModuleLrScheduler, lr: fn(&mut ModuleLrScheduler) -> f64) -> Value {
    let mut sched = build();
    lr_sequence(|| lr(&mut sched))
}

fn main() {
    let d = Device::flex();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // 优化器
    row("sgd", optim_row(sgd::build, sgd::step));
    row(
        "sgd_momentum",
        optim_row(sgd_momentum::build, sgd_momentum::step),
    );
    row(
        "sgd_momentum_burn_default",
        optim_row(
            sgd_momentum_burn_default::build,
            sgd_momentum_burn_default::step,
        ),
    );
    row(
        "sgd_nesterov",
        optim_row(sgd_nesterov::build, sgd_nesterov::step),
    );
    row(
        "sgd_weight_decay",
        optim_row(sgd_weight_decay::build, sgd_weight_decay::step),
    );
    row("adam", optim_row(adam::build, adam::step));
    row("adam_l2", optim_row(adam_l2::build, adam_l2::step));
    row(
        "adam_amsgrad",
        optim_row(adam_amsgrad::build, adam_amsgrad::step),
    );
    row("adamw", optim_row(adamw::build, adamw::step));
    row("rmsprop", optim_row(rmsprop::build, rmsprop::step));
    row(
        "rmsprop_centered_momentum",
        optim_row(
            rmsprop_centered_momentum::build,
            rmsprop_centered_momentum::step,
        ),
    );
    row("adagrad", optim_row(adagrad::build, adagrad::step));
    row(
        "adagrad_lr_decay",
        optim_row(adagrad_lr_decay::build, adagrad_lr_decay::step),
    );
    row("adadelta", optim_row(adadelta::build, adadelta::step));
    row(
        "param_groups_optim",
        optim_row(param_groups_optim::build, param_groups_optim::step),
    );
    {
        let ad = Device::flex().autodiff();
        let (x, y) = regression(&ad);
        let lin = lbfgs::run(make_linear(&ad), x.clone(), y.clone());
        row("lbfgs", params(&lin));
        let loss = lbfgs_returned_loss::run(make_linear(&ad), x.clone(), y.clone());
        row("lbfgs_returned_loss", json!({"loss": loss}));
        let (_, loss) = lbfgs_loss_before_step::run(make_linear(&ad), x, y);
        row("lbfgs_loss_before_step", json!({"loss": loss}));
    }
    {
        let (mut optim, mut lr) = param_groups_lr::build();
        row(
            "param_groups_lr",
            run_steps(|m, g| param_groups_lr::step(&mut optim, &mut lr, m, g)),
        );
    }

    // 优化器默认值
    {
        // SGD's default lr, as the step it takes: from 0 with gradient 1, the param becomes -lr.
        let device = Device::flex().autodiff();
        let p = Param::from_tensor(Tensor::<1>::zeros([1], &device));
        let mut grads = GradientsParams::new();
        grads.register(p.id, Tensor::<1>::ones([1], &Device::flex()));
        let p = default_lr::step(p, grads);
        row("default_lr", json!({"param": f32s(p.val())}));
    }
    let (momentum, dampening, nesterov) = default_sgd_momentum::run();
    row(
        "default_sgd_momentum",
        json!({"momentum": momentum, "dampening": dampening, "nesterov": nesterov}),
    );
    let (beta_1, beta_2, amsgrad, weight_decay) = default_adam_betas::run();
    row(
        "default_adam_betas",
        json!({"beta_1": beta_1, "beta_2": beta_2, "amsgrad": amsgrad,
               "weight_decay": or_zero(weight_decay)}),
    );
    row("default_adam_eps", json!({"eps": default_adam_eps::run()}));
    row(
        "default_adamw_weight_decay",
        json!({"weight_decay": default_adamw_weight_decay::run()}),
    );
    row(
        "default_adamw_eps",
        json!({"eps": default_adamw_eps::run()}),
    );
    let (alpha, centered) = default_rmsprop_alpha::run();
    row(
        "default_rmsprop_alpha",
        json!({"alpha": alpha, "centered": centered}),
    );
    row(
        "default_rmsprop_momentum",
        json!({"momentum": default_rmsprop_momentum::run()}),
    );
    row(
        "default_rmsprop_eps",
        json!({"eps": default_rmsprop_eps::run()}),
    );
    row(
        "default_adagrad",
        json!({"lr_decay": default_adagrad::run()}),
    );
    row(
        "default_adagrad_eps",
        json!({"eps": default_adagrad_eps::run()}),
    );
    let (max_iter, history_size, tolerance_grad, tolerance_change, line_search) =
        default_lbfgs::run();
    row(
        "default_lbfgs",
        json!({"max_iter": max_iter, "history_size": history_size,
               "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
               "line_search": format!("{line_search:?}")}),
    );

    // 学习率调度
    row("step_lr", sched_row(step_lr::build, step_lr::lr));
    row("cosine_lr", sched_row(cosine_lr::build, cosine_lr::lr));
    row(
        "linear_warmup_lr",
        sched_row(linear_warmup_lr::build, linear_warmup_lr::lr),
    );
    row(
        "exponential_lr",
        sched_row(exponential_lr::build, exponential_lr::lr),
    );
    row(
        "cosine_lr_above_one",
        sched_row(cosine_lr_above_one::build, cosine_lr_above_one::lr),
    );
    row(
        "scheduler_lr_above_one",
        json!({"accepted": scheduler_lr_above_one::build().is_ok()}),
    );

    // 初始化
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

    // 存取
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

    // 数据加载
    let (len, item3) = dataset_len_get::run((0..10).collect());
    row("dataset_len_get", json!({"len": len, "item3": item3}));
    let loader = batches::build(dataset(), &d);
    let all: Vec<Vec<i64>> = loader.iter().map(|b| ints(b.unwrap())).collect();
    row("batches", json!({"batches": all}));
    let full: Vec<Vec<i64>> = drop_last::run(loader.as_ref(), 4)
        .into_iter()
        .map(ints)
        .collect();
    row("drop_last", json!({"batches": full}));
    let loader = shuffle_order::build(batches::ValueBatcher, dataset(), &d);
    row(
        "shuffle_order",
        json!({"order": epochs(loader.as_ref(), 1)[0]}),
    );
    // PyTorch's first epoch: DataLoader(ds, 4, shuffle=True,
    // generator=torch.Generator().manual_seed(3)), as ref_training.py's shuffle_order prints it.
    let torch_order = vec![7, 4, 2, 9, 1, 5, 0, 8, 6, 3];
    let loader = shuffle_order_given::build(batches::ValueBatcher, dataset(), torch_order, &d);
    row(
        "shuffle_order_given",
        json!({"order": epochs(loader.as_ref(), 1)[0]}),
    );
    let loader = shuffle_permutation::build(batches::ValueBatcher, dataset(), &d);
    let es = epochs(loader.as_ref(), 5);
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
    let one = shuffle_same_seed::build(batches::ValueBatcher, dataset(), &d);
    let two = shuffle_same_seed::build(batches::ValueBatcher, dataset(), &d);
    row(
        "shuffle_same_seed",
        json!({"same_order": epochs(one.as_ref(), 3) == epochs(two.as_ref(), 3)}),
    );

    println!("{}", json!({"rows": Value::Object(rows)}));
}
