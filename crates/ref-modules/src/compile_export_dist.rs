//! 编译、导出与分布式: the rows of experiments/reference/ref-8-modules/compile_export_dist.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let (x, t) = regression(&ad);
        let mut optim = burn::optim::SgdConfig::new().init();
        let mut m = linear_at(3, 4, 10.0, Some(20.0), &d, &ad);
        for _ in 0..2 {
            m = ddp::step(m, &mut optim, x.clone(), t.clone(), 2);
        }
        let (w, b) = linear_params(&m);
        row("ddp", json!({"w": w, "b": b}));
    }
    {
        let x = data([2, 4], 0.0, &d) * 2.0;
        let mut m = torch_compile::Mlp::new(&d);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &d);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &d);
        let y = m.forward(x.clone());
        row("torch_compile", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut m = jit_script::Mlp::new(&d);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &d);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &d);
        let y = m.forward(x.clone());
        row("jit_script", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut m = onnx_export::Mlp::new(&d);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &d);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &d);
        let y = m.forward(x);
        row("onnx_export", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
}

mod ddp {
    use burn::nn::loss::{MseLoss, Reduction};
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, ModuleOptimizer, MultiGradientsParams};
    use burn::prelude::*;

    // 多设备训练交给 burn-train（ExecutionStrategy::ddp / multi）。底下是这一步：各份副本
    // 算自己那一份批次的梯度，step_multi 把它们加起来走一步。DDP 的 all-reduce 取平均，
    // 所以每份的 loss 先除以副本数。这里两份都在同一个设备上
    pub fn step(model: Linear, optim: &mut ModuleOptimizer, x: Tensor<2>, target: Tensor<2>, world: usize) -> Linear {
        let shard = x.dims()[0] / world;
        let mut grads = Vec::new();
        for rank in 0..world {
            let xs = x.clone().narrow(0, rank * shard, shard);
            let ts = target.clone().narrow(0, rank * shard, shard);
            let loss = MseLoss::new().forward(model.forward(xs), ts, Reduction::Mean).div_scalar(world as f64);
            grads.push((GradientsParams::from_grads(loss.backward(), &model), x.device()));
        }
        optim.step_multi(0.1, model, MultiGradientsParams { grads })
    }
}

mod torch_compile {
    use burn::nn::{Gelu, Linear, LinearConfig};
    use burn::prelude::*;

    // 没有 compile()：forward 本来就是编译好的 Rust；wgpu、cuda 等 CubeCL 后端默认带
    // fusion，运行时把相邻的逐元素运算融合成一个内核
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Gelu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp { fc1: LinearConfig::new(4, 8).init(d), act: Gelu::new(), fc2: LinearConfig::new(8, 3).init(d) }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.act.forward(self.fc1.forward(x)))
        }
    }
}

mod jit_script {
    use burn::nn::{Gelu, Linear, LinearConfig};
    use burn::prelude::*;

    // 没有 TorchScript：模型就是 Rust 代码，cargo build 出的可执行文件直接部署，
    // 权重用 save_file / load_file 存取
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Gelu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp { fc1: LinearConfig::new(4, 8).init(d), act: Gelu::new(), fc2: LinearConfig::new(8, 3).init(d) }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.act.forward(self.fc1.forward(x)))
        }
    }
}

mod onnx_export {
    use burn::nn::{Gelu, Linear, LinearConfig};
    use burn::prelude::*;

    // 没有导出 ONNX：burn-onnx 只把 .onnx 转成 burn 代码（导入）。burn 的模型部署时
    // 就用这份前向，权重存成 burnpack（save_file）
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Gelu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp { fc1: LinearConfig::new(4, 8).init(d), act: Gelu::new(), fc2: LinearConfig::new(8, 3).init(d) }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc2.forward(self.act.forward(self.fc1.forward(x)))
        }
    }
}
