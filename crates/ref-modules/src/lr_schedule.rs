//! 学习率调度: the rows of experiments/reference/ref-8-modules/lr_schedule.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn lr_seq(mut step: impl FnMut() -> f64, n: usize) -> Value {
    json!({"lr": (0..n).map(|_| step()).collect::<Vec<f64>>()})
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    {
        let mut s = multistep_lr::build();
        row("multistep_lr", lr_seq(|| s.step().base(), 12));
        let mut s = lambda_lr::build();
        row("lambda_lr", lr_seq(|| s.step(), 12));
        let mut s = one_cycle_lr::OneCycleLr::new(0.1, 20, 0.25);
        row("one_cycle_lr", lr_seq(|| s.step(), 20));
        let mut s = reduce_lr_on_plateau::ReduceLrOnPlateau::new(0.1, 0.5, 1);
        let losses = [1.0, 0.9, 0.95, 0.96, 0.8, 0.85, 0.85, 0.79, 0.9, 0.9, 0.9, 0.9];
        let mut lr = Vec::new();
        for loss in losses {
            lr.push(s.lr);
            s.step(loss);
        }
        row("reduce_lr_on_plateau", json!({"lr": lr}));
        let mut s = cosine_warm_restarts::build();
        row("cosine_warm_restarts", lr_seq(|| s.step().base(), 12));
        let mut s = sequential_lr::build();
        row("sequential_lr", lr_seq(|| s.step().base(), 12));
        let mut s = noam_lr::build();
        row("noam_lr", lr_seq(|| s.step().base(), 12));
    }
}

mod multistep_lr {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::sequential::SequentialLrSchedulerConfig;
    use burn::lr_scheduler::LrSchedulerConfig;

    // milestones=[3, 7], gamma=0.1：三段常数学习率，在第 3、7 步换段
    pub fn build() -> ModuleLrScheduler {
        SequentialLrSchedulerConfig::new(
            vec![LrSchedulerConfig::Constant(0.1), LrSchedulerConfig::Constant(0.01), LrSchedulerConfig::Constant(0.001)],
            vec![3, 7],
        )
        .init()
        .unwrap()
    }
}

mod lambda_lr {
    use burn::lr_scheduler::{LrScheduler, LrSchedulerRecord};
    use std::sync::Arc;

    // 没有 LambdaLR：lr = base_lr · f(第几步)。实现 LrScheduler，就能交给
    // ModuleLrScheduler::new(..) 或 Learner
    #[derive(Clone)]
    pub struct LambdaLr {
        base_lr: f64,
        f: Arc<dyn Fn(usize) -> f64 + Send + Sync>,
        step: usize,
    }

    impl LambdaLr {
        pub fn new(base_lr: f64, f: impl Fn(usize) -> f64 + Send + Sync + 'static) -> Self {
            LambdaLr { base_lr, f: Arc::new(f), step: 0 }
        }
    }

    impl LrScheduler for LambdaLr {
        fn step(&mut self) -> f64 {
            let lr = self.base_lr * (self.f)(self.step);
            self.step += 1;
            lr
        }

        fn to_record(&self) -> LrSchedulerRecord {
            LrSchedulerRecord::new().with_scalar("step", self.step as u64)
        }

        fn load_record(&mut self, record: LrSchedulerRecord) {
            if let Some(step) = record.scalar::<u64>("step") {
                self.step = step as usize;
            }
        }
    }

    // 预热 3 步，再线性降到第 12 步为 0（transformers 的 get_linear_schedule_with_warmup）
    pub fn build() -> LambdaLr {
        LambdaLr::new(0.1, |s| {
            if s < 3 {
                s as f64 / 3.0
            } else {
                ((12.0 - s as f64) / (12.0 - 3.0)).max(0.0)
            }
        })
    }
}

mod one_cycle_lr {
    use burn::lr_scheduler::{LrScheduler, LrSchedulerRecord};
    use std::f64::consts::PI;

    // 没有 OneCycleLR：两段余弦，initial = max_lr / div_factor 升到 max_lr，
    // 再降到 initial / final_div_factor（three_phase=False，anneal_strategy='cos'）
    #[derive(Clone, Debug)]
    pub struct OneCycleLr {
        pub max_lr: f64,
        pub total_steps: usize,
        pub pct_start: f64,
        pub div_factor: f64,
        pub final_div_factor: f64,
        step: usize,
    }

    impl OneCycleLr {
        pub fn new(max_lr: f64, total_steps: usize, pct_start: f64) -> Self {
            OneCycleLr { max_lr, total_steps, pct_start, div_factor: 25.0, final_div_factor: 1e4, step: 0 }
        }
    }

    fn anneal(start: f64, end: f64, pct: f64) -> f64 {
        end + (start - end) / 2.0 * ((PI * pct).cos() + 1.0)
    }

    impl LrScheduler for OneCycleLr {
        fn step(&mut self) -> f64 {
            let initial = self.max_lr / self.div_factor;
            let min = initial / self.final_div_factor;
            let up_end = self.pct_start * self.total_steps as f64 - 1.0;
            let down_end = self.total_steps as f64 - 1.0;
            let t = self.step as f64;
            self.step += 1;
            if t <= up_end {
                anneal(initial, self.max_lr, t / up_end)
            } else {
                anneal(self.max_lr, min, (t - up_end) / (down_end - up_end))
            }
        }

        fn to_record(&self) -> LrSchedulerRecord {
            LrSchedulerRecord::new().with_scalar("step", self.step as u64)
        }

        fn load_record(&mut self, record: LrSchedulerRecord) {
            if let Some(step) = record.scalar::<u64>("step") {
                self.step = step as usize;
            }
        }
    }
}

mod reduce_lr_on_plateau {
    use burn::optim::LearningRate;

    // 没有 ReduceLROnPlateau（LrScheduler::step 不收指标）：每个 epoch 用验证损失调一次 step，
    // 连续 patience 次没有变好（相对阈值 1e-4，mode='min'）就乘 factor
    #[derive(Clone, Debug)]
    pub struct ReduceLrOnPlateau {
        pub lr: LearningRate,
        pub factor: f64,
        pub patience: usize,
        pub threshold: f64,
        pub min_lr: f64,
        best: f64,
        bad_epochs: usize,
    }

    impl ReduceLrOnPlateau {
        pub fn new(lr: LearningRate, factor: f64, patience: usize) -> Self {
            ReduceLrOnPlateau { lr, factor, patience, threshold: 1e-4, min_lr: 0.0, best: f64::INFINITY, bad_epochs: 0 }
        }

        pub fn step(&mut self, metric: f64) -> LearningRate {
            if metric < self.best * (1.0 - self.threshold) {
                self.best = metric;
                self.bad_epochs = 0;
            } else {
                self.bad_epochs += 1;
            }
            if self.bad_epochs > self.patience {
                let new_lr = (self.lr * self.factor).max(self.min_lr);
                if self.lr - new_lr > 1e-8 {
                    self.lr = new_lr;
                }
                self.bad_epochs = 0;
            }
            self.lr
        }
    }
}

mod cosine_warm_restarts {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::sequential::SequentialLrSchedulerConfig;

    // T_0=4, T_mult=2：周期 4、8、16 步，每个周期从头走一遍余弦；里程碑是周期的累计长度
    pub fn build() -> ModuleLrScheduler {
        let cycle = |n| CosineAnnealingLrSchedulerConfig::new(0.1, n).with_min_lr(0.001).into();
        SequentialLrSchedulerConfig::new(vec![cycle(4), cycle(8), cycle(16)], vec![4, 12])
            .init()
            .unwrap()
    }
}

mod sequential_lr {
    use burn::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
    use burn::lr_scheduler::linear::LinearLrSchedulerConfig;
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::sequential::SequentialLrSchedulerConfig;

    // 预热：LinearLR(start_factor=0.1, total_iters=3)；第 3 步起：CosineAnnealingLR(T_max=9)
    pub fn build() -> ModuleLrScheduler {
        SequentialLrSchedulerConfig::new(
            vec![
                LinearLrSchedulerConfig::new(0.01, 0.1, 3).into(),
                CosineAnnealingLrSchedulerConfig::new(0.1, 9).with_min_lr(0.001).into(),
            ],
            vec![3],
        )
        .init()
        .unwrap()
    }
}

mod noam_lr {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::lr_scheduler::noam::NoamLrSchedulerConfig;

    // factor · d_model^-0.5 · min(t^-0.5, t · warmup^-1.5)，t 从 1 起
    pub fn build() -> ModuleLrScheduler {
        NoamLrSchedulerConfig::new(1.0).with_warmup_steps(4).with_model_size(16).init().unwrap()
    }
}
