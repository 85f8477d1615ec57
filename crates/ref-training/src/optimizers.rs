//! 优化器: the rows of experiments/reference/ref-4-training/optimizers.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const STEPS: usize = 3;

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

/// An optimizer row: the module's build() and step(), run through the fixed gradients.
fn optim_row(
    build: fn() -> ModuleOptimizer,
    step: fn(&mut ModuleOptimizer, Linear, GradientsParams) -> Linear,
) -> Value {
    let mut optim = build();
    run_steps(|m, g| step(&mut optim, m, g))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
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
}

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
