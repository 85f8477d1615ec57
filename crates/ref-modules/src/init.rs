//! 初始化: the rows of experiments/reference/ref-8-modules/init.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// What apply(weights_init) did to a Conv2d and a BatchNorm: the conv weights' mean, std and
/// share beyond 0.04 (the tail that tells N(0, 0.02) from the default init), gamma's mean and
/// std, and whether beta is all zero.
fn init_stats(conv: &Conv2d, bn: &BatchNorm) -> Value {
    let (cm, cs, _) = stats(conv.weight.val());
    let (bm, bs, _) = stats(bn.gamma.val());
    let w = flat(conv.weight.val());
    let beyond = w.iter().filter(|v| v.abs() > 0.04).count() as f64 / w.len() as f64;
    json!({"conv_mean": cm, "conv_std": cs, "conv_beyond_2std": beyond, "bn_mean": bm, "bn_std": bs,
        "bn_bias_zero": flat(bn.beta.val()).iter().all(|&v| v == 0.0)})
}

fn stats<const D: usize>(t: Tensor<D>) -> (f64, f64, f64) {
    let v = flat(t);
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt(), v.iter().fold(0.0f64, |m, x| m.max(x.abs())))
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    {
        d.seed(0);
        let (mean, std, max_abs) = stats(init_trunc_normal::trunc_normal([1024, 64], 0.0, 1.0, -2.0, 2.0, &d));
        row("init_trunc_normal", json!({"mean": mean, "std": std, "max_abs": max_abs, "within_bound": max_abs <= 2.0}));
        d.seed(0);
        let (mean, std, _) = stats(init_trunc_normal_std::init(&d).val());
        row("init_trunc_normal_std", json!({"mean": mean, "std": std}));
        d.seed(0);
        let w = init_orthogonal::init(&d).val();
        row("init_orthogonal", json!({"gram": flat(w.clone().matmul(w.clone().transpose())), "shape": w.dims()}));
        d.seed(0);
        let (conv, bn) = module_apply_init::build(&d);
        row("module_apply_init", init_stats(&conv, &bn));
        d.seed(0);
        let net = module_map_init::build(&d);
        row("module_map_init", init_stats(&net.conv, &net.bn));
    }
}

mod init_trunc_normal {
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有截断正态：先抽正态，落在 [a, b] 外的位置重抽，直到都在里面
    pub fn trunc_normal<const D: usize>(shape: [usize; D], mean: f64, std: f64, a: f64, b: f64, d: &Device) -> Tensor<D> {
        let mut t = Tensor::<D>::random(shape, Distribution::Normal(mean, std), d);
        loop {
            let outside = t.clone().lower_elem(a).bool_or(t.clone().greater_elem(b));
            if !outside.clone().any().into_scalar::<bool>() {
                return t;
            }
            let redraw = Tensor::<D>::random(shape, Distribution::Normal(mean, std), d);
            t = t.mask_where(outside, redraw);
        }
    }
}

mod init_trunc_normal_std {
    use burn::module::Param;
    use burn::nn::Initializer;
    use burn::prelude::*;

    // a=-2、b=2 是绝对值，std=0.02 时截在 ±100σ，等于没截：就是正态
    pub fn init(d: &Device) -> Param<Tensor<2>> {
        Initializer::Normal { mean: 0.0, std: 0.02 }.init([1024, 64], d)
    }
}

mod init_orthogonal {
    use burn::module::Param;
    use burn::nn::Initializer;
    use burn::prelude::*;

    pub fn init(d: &Device) -> Param<Tensor<2>> {
        Initializer::Orthogonal { gain: 1.0 }.init([4, 6], d)
    }
}

mod module_apply_init {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Initializer};
    use burn::prelude::*;

    // 没有 model.apply(fn)：初始化写进各层的 Config；BatchNorm 的 gamma 没有
    // initializer 选项，直接换掉这个参数（beta 本来就是 0）
    pub fn build(d: &Device) -> (Conv2d, BatchNorm) {
        let conv = Conv2dConfig::new([64, 128], [4, 4])
            .with_bias(false)
            .with_initializer(Initializer::Normal { mean: 0.0, std: 0.02 })
            .init(d);
        let mut bn = BatchNormConfig::new(4096).init(d);
        bn.gamma = Initializer::Normal { mean: 1.0, std: 0.02 }.init([4096], d);
        (conv, bn)
    }
}

mod module_map_init {
    use burn::module::{ModuleMapper, Param};
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Initializer};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Net {
        pub conv: Conv2d,
        pub bn: BatchNorm,
    }

    /// model.apply(weights_init)：Module::map 把每个参数交给它。进入每个字段时 enter_module
    /// 收到字段名和它所在结构体的类型（"weight"、"Struct:Conv2d"），按这两样决定怎么初始化
    #[derive(Default)]
    pub struct WeightsInit {
        path: Vec<(String, String)>,
    }

    impl ModuleMapper for WeightsInit {
        fn enter_module(&mut self, name: &str, container_type: &str) {
            self.path.push((name.to_string(), container_type.to_string()));
        }

        fn exit_module(&mut self, _name: &str, _container_type: &str) {
            self.path.pop();
        }

        fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
            let init = match self.path.last().map(|(n, t)| (n.as_str(), t.as_str())) {
                Some(("weight", "Struct:Conv2d")) => Initializer::Normal { mean: 0.0, std: 0.02 },
                Some(("gamma", "Struct:BatchNorm")) => Initializer::Normal { mean: 1.0, std: 0.02 },
                Some(("beta", "Struct:BatchNorm")) => Initializer::Zeros,
                _ => return param,
            };
            let value = param.val();
            let fresh: Param<Tensor<D>> = init.init(value.dims(), &value.device());
            Param::initialized(param.id, fresh.val())
        }
    }

    pub fn build(d: &Device) -> Net {
        let net = Net {
            conv: Conv2dConfig::new([64, 128], [4, 4]).with_bias(false).init(d),
            bn: BatchNormConfig::new(4096).init(d),
        };
        net.map(&mut WeightsInit::default())
    }
}
