//! 训练与推理模式: the rows of experiments/reference/ref-8-modules/train_eval.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    row("num_params", json!({"v": num_params::count(&num_params::Cnn::new(&d))}));
    row("num_params_trainable", json!({"v": num_params_trainable::run(&ad)}));
    {
        let mut m = model_eval::Model::new(&ad);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &ad);
        m.bn.gamma = param(data([8], 30.0, &d), &ad);
        m.bn.beta = param(data([8], 40.0, &d), &ad);
        m.bn.running_mean = RunningState::new(data([8], 60.0, &d));
        m.bn.running_var = RunningState::new(data([8], 70.0, &d).abs().add_scalar(0.5));
        m.fc2 = linear_at(3, 8, 80.0, Some(90.0), &d, &ad);
        let y = model_eval::predict(&m, data([4, 4], 0.0, &d) * 2.0);
        row("model_eval", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        ad.seed(0);
        let mut m = model_train_toggle::Model::new(&ad);
        m.fc = linear_at(8, 4, 10.0, Some(20.0), &d, &ad);
        let x = leaf(data([8, 4], 0.0, &d) * 2.0, &ad);
        let (y_eval, y_train) = model_train_toggle::toggle(m, x);
        let (e, t) = (flat(y_eval.clone()), flat(y_train));
        let drops = t.iter().any(|&v| v == 0.0);
        let scaled = t.iter().zip(&e).filter(|(v, _)| **v != 0.0).all(|(v, u)| (v - 2.0 * u).abs() <= 1e-6);
        row("model_train_toggle", json!({"y_eval": e, "train_drops": drops, "train_kept_scaled": scaled}));
    }
}

mod num_params {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Cnn {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub fc: Linear,
    }

    impl Cnn {
        pub fn new(d: &Device) -> Self {
            Cnn {
                conv: Conv2dConfig::new([3, 8], [3, 3]).init(d),
                bn: BatchNormConfig::new(8).init(d),
                fc: LinearConfig::new(8, 10).init(d),
            }
        }
    }

    pub fn count(m: &Cnn) -> usize {
        m.num_params()
    }
}

mod num_params_trainable {
    use burn::module::{ModuleVisitor, Param};
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Cnn {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub fc: Linear,
    }

    impl Cnn {
        pub fn new(d: &Device) -> Self {
            Cnn {
                conv: Conv2dConfig::new([3, 8], [3, 3]).init(d),
                bn: BatchNormConfig::new(8).init(d),
                fc: LinearConfig::new(8, 10).init(d),
            }
        }
    }

    // 只数要梯度的张量：模块在 autodiff 设备上时，BatchNorm 的 running_mean、running_var
    // 和冻结的参数都不要梯度
    struct Trainable(usize);

    impl ModuleVisitor for Trainable {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let t = param.val();
            if t.is_require_grad() {
                self.0 += t.shape().num_elements();
            }
        }
    }

    pub fn count(m: &Cnn) -> usize {
        let mut v = Trainable(0);
        m.visit(&mut v);
        v.0
    }

    // d 是 autodiff 设备；返回冻结 conv 之前、之后的个数
    pub fn run(d: &Device) -> [usize; 2] {
        let m = Cnn::new(d);
        let before = count(&m);
        let m = Cnn { conv: m.conv.no_grad(), ..m };
        [before, count(&m)]
    }
}

mod model_eval {
    use burn::nn::{BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Model {
        pub fc1: Linear,
        pub drop: Dropout,
        pub bn: BatchNorm,
        pub fc2: Linear,
    }

    impl Model {
        pub fn new(d: &Device) -> Self {
            Model {
                fc1: LinearConfig::new(4, 8).init(d),
                drop: DropoutConfig::new(0.5).init(),
                bn: BatchNormConfig::new(8).init(d),
                fc2: LinearConfig::new(8, 3).init(d),
            }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.bn.forward(self.drop.forward(self.fc1.forward(x))))
        }
    }

    // model.eval(); model(x)：valid() 返回一份没有 autodiff 的副本，Dropout 不丢、
    // BatchNorm 用 running 统计量；输入放在不带 autodiff 的设备上
    pub fn predict(model: &Model, x: Tensor<2>) -> Tensor<2> {
        model.valid().forward(x.without_autodiff())
    }
}

mod model_train_toggle {
    use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Model {
        pub fc: Linear,
        pub drop: Dropout,
    }

    impl Model {
        pub fn new(d: &Device) -> Self {
            Model { fc: LinearConfig::new(4, 8).init(d), drop: DropoutConfig::new(0.5).init() }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.drop.forward(self.fc.forward(x))
        }
    }

    // eval() ↔ valid()：返回副本，原来的模型不变；train() 把副本送回 autodiff 设备，
    // Dropout 重新生效。x 在 autodiff 设备上
    pub fn toggle(model: Model, x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let eval = model.valid();
        let y_eval = eval.forward(x.clone().without_autodiff());
        let train = eval.train();
        let y_train = train.forward(x);
        (y_eval, y_train)
    }
}
