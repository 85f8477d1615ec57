//! 组合模块与参数: the rows of experiments/reference/ref-8-modules/containers.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let mut m = sequential::Mlp::new(&ad);
        m.fc1 = linear_at(8, 4, 10.0, Some(20.0), &d, &ad);
        m.fc2 = linear_at(3, 8, 30.0, Some(40.0), &d, &ad);
        let x = input(data([2, 4], 0.0, &d) * 2.0, &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("sequential", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": linear_dw(&m.fc1, &g)}));
    }
    {
        let mut m = module_dict::Blocks::new(&ad);
        m.enc = linear_at(3, 4, 10.0, Some(20.0), &d, &ad);
        m.head = linear_at(2, 3, 30.0, Some(40.0), &d, &ad);
        let x = input(data([2, 4], 0.0, &d) * 2.0, &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("module_dict", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": linear_dw(&m.enc, &g)}));
    }
    {
        let mut m = module_list::Stack::new(&ad);
        for (i, l) in m.layers.iter_mut().enumerate() {
            *l = linear_at(4, 4, 10.0 + 20.0 * i as f64, Some(20.0 + 20.0 * i as f64), &d, &ad);
        }
        let x = input(data([2, 4], 0.0, &d) * 2.0, &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("module_list", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "dw": linear_dw(&m.layers[1], &g)}));
    }
    {
        let mut m = parameter::PosEmb::new(&ad);
        m.pos = param(data([1, 3, 4], 10.0, &d), &ad);
        let x = input(data([2, 3, 4], 0.0, &d), &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("parameter", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "grad_pos": grad(&m.pos.val(), &g), "num_params": m.num_params()}));
    }
    {
        let mut m = register_buffer::Masked::new(&ad);
        m.lin = linear_at(4, 4, 10.0, Some(20.0), &d, &ad);
        let x = input(data([2, 3, 4], 0.0, &d), &ad);
        let y = m.forward(x.clone());
        let g = backward(&y);
        row("register_buffer", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(&x, &g),
            "num_params": m.num_params()}));
    }
    {
        let mut m = weight_tying::TiedLm::new(&ad);
        m.emb.weight = param(data([5, 4], 10.0, &d), &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 2, 4], [2, 1, 3]], &ad);
        let y = m.forward(ids);
        let g = backward(&y);
        row("weight_tying", json!({"y": flat(y.clone()), "shape": y.dims(), "dw": grad(&m.emb.weight.val(), &g),
            "num_params": m.num_params()}));
    }
}

mod sequential {
    use burn::nn::{Linear, LinearConfig, Relu};
    use burn::prelude::*;

    // nn.Sequential 就是一个 Module 结构体，forward 里按顺序调用
    #[derive(Module, Debug)]
    pub struct Mlp {
        pub fc1: Linear,
        pub act: Relu,
        pub fc2: Linear,
    }

    impl Mlp {
        pub fn new(d: &Device) -> Self {
            Mlp {
                fc1: LinearConfig::new(4, 8).init(d),
                act: Relu::new(),
                fc2: LinearConfig::new(8, 3).init(d),
            }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            let x = self.fc1.forward(x);
            let x = self.act.forward(x);
            self.fc2.forward(x)
        }
    }
}

mod module_list {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::tensor::activation::relu;

    // nn.ModuleList ↔ Vec<Linear>：参数名是 layers.0.weight、layers.1.weight……
    #[derive(Module, Debug)]
    pub struct Stack {
        pub layers: Vec<Linear>,
    }

    impl Stack {
        pub fn new(d: &Device) -> Self {
            Stack { layers: (0..3).map(|_| LinearConfig::new(4, 4).init(d)).collect() }
        }

        pub fn forward(&self, mut x: Tensor<2>) -> Tensor<2> {
            for layer in &self.layers {
                x = relu(layer.forward(x));
            }
            x
        }
    }
}

mod parameter {
    use burn::module::Param;
    use burn::prelude::*;

    // nn.Parameter ↔ Param<Tensor<D>>：可学的位置编码
    #[derive(Module, Debug)]
    pub struct PosEmb {
        pub pos: Param<Tensor<3>>,
    }

    impl PosEmb {
        pub fn new(d: &Device) -> Self {
            PosEmb { pos: Param::from_tensor(Tensor::zeros([1, 3, 4], d)) }
        }

        pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
            x + self.pos.val()
        }
    }
}

mod register_buffer {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    // 普通的 Tensor 字段：不是参数、不求梯度、不进记录（into_record / save_file），
    // 相当于 persistent=False 的 buffer；要存进文件的状态用 RunningState<Tensor<D>>
    #[derive(Module, Debug)]
    pub struct Masked {
        pub lin: Linear,
        pub mask: Tensor<2>,
    }

    impl Masked {
        pub fn new(d: &Device) -> Self {
            Masked { lin: LinearConfig::new(4, 4).init(d), mask: Tensor::ones([3, 3], d).tril(0) }
        }

        pub fn forward(&self, x: Tensor<3>) -> Tensor<3> {
            let h = self.lin.forward(x);
            h.clone().matmul(h.swap_dims(1, 2)) * self.mask.clone().unsqueeze()
        }
    }
}

mod weight_tying {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;

    // head.weight = emb.weight：不另建 Linear，直接用 Embedding 的 weight 乘回去，
    // 两处的梯度都落在这一个参数上
    #[derive(Module, Debug)]
    pub struct TiedLm {
        pub emb: Embedding,
    }

    impl TiedLm {
        pub fn new(d: &Device) -> Self {
            TiedLm { emb: EmbeddingConfig::new(5, 4).init(d) }
        }

        pub fn forward(&self, ids: Tensor<2, Int>) -> Tensor<3> {
            let h = self.emb.forward(ids); // [batch, seq, d_model]
            h.matmul(self.emb.weight.val().transpose().unsqueeze()) // W: [vocab, d_model]
        }
    }
}

mod module_dict {
    use burn::nn::{Linear, LinearConfig, Relu};
    use burn::prelude::*;

    // nn.ModuleDict 的每个键写成一个字段：参数名 enc.weight、head.bias 就是 PyTorch 的键名
    #[derive(Module, Debug)]
    pub struct Blocks {
        pub enc: Linear,
        pub head: Linear,
    }

    impl Blocks {
        pub fn new(d: &Device) -> Self {
            Self { enc: LinearConfig::new(4, 3).init(d), head: LinearConfig::new(3, 2).init(d) }
        }

        // m[name]：按名字取出模块
        pub fn get(&self, name: &str) -> &Linear {
            match name {
                "enc" => &self.enc,
                "head" => &self.head,
                _ => panic!("no module named {name}"),
            }
        }

        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            let h = Relu::new().forward(self.get("enc").forward(x));
            self.get("head").forward(h)
        }
    }
}
