//! 学习率调度: the rows of experiments/reference/ref-4-training/lr_schedule.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// The lr of 12 optimizer steps: `next` is asked once per step.
fn lr_sequence(mut next: impl FnMut() -> f64) -> Value {
    json!({"lr": (0..12).map(|_| next()).collect::<Vec<f64>>()})
}

/// A scheduler row: the module's build(), asked for its lr at each of 12 steps.
fn sched_row(build: fn() -> ModuleLrScheduler, lr: fn(&mut ModuleLrScheduler) -> f64) -> Value {
    let mut sched = build();
    lr_sequence(|| lr(&mut sched))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
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
}

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
