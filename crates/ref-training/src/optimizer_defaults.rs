//! 优化器默认值: the rows of experiments/reference/ref-4-training/optimizer_defaults.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// A missing weight decay (None) is PyTorch's weight_decay=0.
fn or_zero(v: Option<f64>) -> f64 {
    v.unwrap_or(0.0)
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
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
}

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
