//! 载入 PyTorch 的权重: the rows of experiments/reference/ref-5-store/load_pytorch.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

// How the zoo is loaded, for the topics that start from its linear layer.
pub(crate) use load_linear::load as load_linear;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let zoo = load_linear::load(ZOO, &ad);
        let x = data([2, 4], 0.0, &ad).require_grad();
        let y = load_linear::forward(&zoo, x.clone());
        let g = backward(&y);
        // burn keeps [in, out]: transpose the gradient back to PyTorch's [out, in]
        let dw = zoo.lin.weight.val().grad(&g).unwrap().transpose();
        row("load_linear", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": flat(dw), "d_bias": grad(zoo.lin.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let zoo = load_conv2d::load(ZOO, &ad);
        let x = data([2, 2, 4, 4], 0.0, &ad).require_grad();
        let y = load_conv2d::forward(&zoo, x.clone());
        let g = backward(&y);
        row("load_conv2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.conv.weight.val(), &g), "d_bias": grad(zoo.conv.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        let zoo = load_conv_transpose2d::load(ZOO, &ad);
        let x = data([1, 3, 3, 3], 0.0, &ad).require_grad();
        let y = load_conv_transpose2d::forward(&zoo, x.clone());
        let g = backward(&y);
        row("load_conv_transpose2d", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.convt.weight.val(), &g), "d_bias": grad(zoo.convt.bias.as_ref().unwrap().val(), &g)}));
    }
    {
        // Inference path: a device without autodiff
        let zoo = load_batchnorm_eval::load(ZOO, &d);
        let y = load_batchnorm_eval::forward(&zoo, data([2, 3, 4, 4], 0.0, &d) * 2.0);
        row("load_batchnorm_eval", json!({"y": flat(y), "running_mean": flat(zoo.bn.running_mean.value()),
            "running_var": flat(zoo.bn.running_var.value())}));
    }
    {
        let zoo = load_layernorm::load(ZOO, &ad);
        let x = data([2, 3, 4], 0.0, &ad).require_grad();
        let y = load_layernorm::forward(&zoo, x.clone());
        let g = backward(&y);
        row("load_layernorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.ln.gamma.val(), &g), "d_bias": grad(zoo.ln.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let zoo = load_groupnorm::load(ZOO, &ad);
        let x = data([2, 4, 3], 0.0, &ad).require_grad();
        let y = load_groupnorm::forward(&zoo, x.clone());
        let g = backward(&y);
        row("load_groupnorm", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g),
            "d_weight": grad(zoo.gn.gamma.as_ref().unwrap().val(), &g), "d_bias": grad(zoo.gn.beta.as_ref().unwrap().val(), &g)}));
    }
    {
        let zoo = load_embedding::load(ZOO, &ad);
        let ids = Tensor::<2, Int>::from_ints([[0, 4, 2], [1, 1, 3]], &ad);
        let y = load_embedding::forward(&zoo, ids);
        let g = backward(&y);
        row("load_embedding", json!({"y": flat(y), "d_weight": grad(zoo.emb.weight.val(), &g)}));
    }
    {
        let (_zoo, result) = load_lstm::load(ZOO, &d);
        let filled = result.applied.iter().filter(|p| p.starts_with("lstm.")).count();
        let missing = result.missing.iter().filter(|(p, _)| p.starts_with("lstm.")).count();
        let mut unused = result.unused.clone();
        unused.sort();
        row("load_lstm", json!({"filled": filled, "missing": missing, "unused": unused}));
    }
    {
        let lstm = load_lstm_split::load(ZOO, &ad);
        let x = data([2, 3, 3], 0.0, &ad).require_grad();
        let y = load_lstm_split::forward(&lstm, x.clone());
        let g = backward(&y);
        row("load_lstm_split", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g)}));
    }
    {
        let gru = load_gru_split::load(GRU_PT, &ad);
        let x = data([2, 3, 3], 0.0, &ad).require_grad();
        let y = load_gru_split::forward(&gru, x.clone());
        let g = backward(&y);
        row("load_gru_split", json!({"y": flat(y.clone()), "shape": y.dims(), "dx": grad(x, &g)}));
    }
}

const GRU_PT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/gru.pt");

mod load_linear {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    // 字段名对上 PyTorch 的属性名：zoo.pt 里的 lin.weight、lin.bias 载入 zoo.lin
    #[derive(Module, Debug)]
    pub struct Zoo {
        pub lin: Linear,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        let mut zoo = Zoo { lin: LinearConfig::new(4, 3).init(device) };
        // weight 从 PyTorch 的 [out, in] 转置成 burn 的 [in, out]。文件里别的层（conv、bn……）
        // 在 Zoo 里没有字段，只记在返回的 ApplyResult.unused 里，不算错
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, x: Tensor<2>) -> Tensor<2> {
        zoo.lin.forward(x)
    }
}

mod load_conv2d {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::PaddingConfig2d;
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub conv: Conv2d,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        // nn.Conv2d(2, 3, 3, padding=1)
        let conv = Conv2dConfig::new([2, 3], [3, 3])
            .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
            .init(device);
        let mut zoo = Zoo { conv };
        // weight 两边都是 [out, in, k, k]，原样载入
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, x: Tensor<4>) -> Tensor<4> {
        zoo.conv.forward(x)
    }
}

mod load_conv_transpose2d {
    use burn::nn::conv::{ConvTranspose2d, ConvTranspose2dConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub convt: ConvTranspose2d,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        // nn.ConvTranspose2d(3, 2, 3, stride=2)
        let convt = ConvTranspose2dConfig::new([3, 2], [3, 3]).with_stride([2, 2]).init(device);
        let mut zoo = Zoo { convt };
        // weight 两边都是 [in, out, k, k]，原样载入
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, x: Tensor<4>) -> Tensor<4> {
        zoo.convt.forward(x)
    }
}

mod load_batchnorm_eval {
    use burn::nn::{BatchNorm, BatchNormConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub bn: BatchNorm,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        let mut zoo = Zoo { bn: BatchNormConfig::new(3).init(device) };
        // weight、bias → gamma、beta；running_mean、running_var 原样载入；
        // num_batches_tracked 在 burn 里没有对应，留在 unused 里
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, x: Tensor<4>) -> Tensor<4> {
        // bn.eval()：valid() 关掉训练行为，用文件里的 running_mean、running_var
        zoo.bn.valid().forward(x)
    }
}

mod load_layernorm {
    use burn::nn::{LayerNorm, LayerNormConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub ln: LayerNorm,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        let mut zoo = Zoo { ln: LayerNormConfig::new(4).init(device) };
        // ln.weight → ln.gamma，ln.bias → ln.beta
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, x: Tensor<3>) -> Tensor<3> {
        zoo.ln.forward(x)
    }
}

mod load_groupnorm {
    use burn::nn::{GroupNorm, GroupNormConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub gn: GroupNorm,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        // nn.GroupNorm(2, 4)
        let mut zoo = Zoo { gn: GroupNormConfig::new(2, 4).init(device) };
        // gn.weight → gn.gamma，gn.bias → gn.beta
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, x: Tensor<3>) -> Tensor<3> {
        zoo.gn.forward(x)
    }
}

mod load_embedding {
    use burn::nn::{Embedding, EmbeddingConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub emb: Embedding,
    }

    pub fn load(path: &str, device: &Device) -> Zoo {
        let mut zoo = Zoo { emb: EmbeddingConfig::new(5, 3).init(device) };
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    pub fn forward(zoo: &Zoo, ids: Tensor<2, Int>) -> Tensor<3> {
        zoo.emb.forward(ids)
    }
}

mod load_lstm {
    use burn::nn::conv::{Conv2d, Conv2dConfig, ConvTranspose2d, ConvTranspose2dConfig};
    use burn::nn::{
        BatchNorm, BatchNormConfig, Embedding, EmbeddingConfig, GroupNorm, GroupNormConfig,
        LayerNorm, LayerNormConfig, Linear, LinearConfig, Lstm, LstmConfig, PaddingConfig2d,
    };
    use burn::prelude::*;
    use burn::store::{ApplyResult, ModuleSnapshot, PytorchStore};

    // PyTorch 的 Zoo，一个字段对一个属性
    #[derive(Module, Debug)]
    pub struct Zoo {
        pub lin: Linear,
        pub conv: Conv2d,
        pub convt: ConvTranspose2d,
        pub bn: BatchNorm,
        pub ln: LayerNorm,
        pub gn: GroupNorm,
        pub emb: Embedding,
        pub lstm: Lstm,
    }

    pub fn load(path: &str, device: &Device) -> (Zoo, ApplyResult) {
        let mut zoo = Zoo {
            lin: LinearConfig::new(4, 3).init(device),
            conv: Conv2dConfig::new([2, 3], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .init(device),
            convt: ConvTranspose2dConfig::new([3, 2], [3, 3]).with_stride([2, 2]).init(device),
            bn: BatchNormConfig::new(3).init(device),
            ln: LayerNormConfig::new(4).init(device),
            gn: GroupNormConfig::new(2, 4).init(device),
            emb: EmbeddingConfig::new(5, 3).init(device),
            lstm: LstmConfig::new(3, 4, true).init(device),
        };
        // lstm 的参数在文件里一个也找不到（weight_ih_l0 等四个张量叠着 i、f、g、o 四个门）：
        // 不加 allow_partial(true)，load_from 返回错误；加了，lstm 保持随机初始化
        let mut store = PytorchStore::from_file(path).allow_partial(true);
        let result = zoo.load_from(&mut store).expect("load zoo.pt");
        (zoo, result)
    }
}

mod load_lstm_split {
    use burn::module::Param;
    use burn::nn::{GateController, Linear, LinearConfig, Lstm, LstmConfig};
    use burn::prelude::*;
    use burn::store::{bridge, ModuleStore, PytorchStore};

    fn read<const D: usize>(store: &mut PytorchStore, name: &str, device: &Device) -> Tensor<D> {
        let tensor = store.get_tensor(name).expect("read zoo.pt").expect(name);
        Tensor::from_data(bridge::to_data(tensor).expect(name), device)
    }

    // PyTorch 的 weight [out, in] 和 bias → burn 的 Linear（weight 是 [in, out]）
    fn linear(weight: Tensor<2>, bias: Tensor<1>) -> Linear {
        let [d_output, d_input] = weight.dims();
        let mut lin = LinearConfig::new(d_input, d_output).init(&weight.device());
        lin.weight = Param::from_tensor(weight.transpose());
        lin.bias = Some(Param::from_tensor(bias));
        lin
    }

    /// PyTorch 把四个门按 i、f、g、o 的顺序叠在 weight_ih_l0 [4h, in]、weight_hh_l0 [4h, h]、
    /// bias_ih_l0、bias_hh_l0 里；burn 的 Lstm 每个门一个 GateController：按行切成四块装进去
    pub fn load(path: &str, device: &Device) -> Lstm {
        let mut store = PytorchStore::from_file(path);
        let w_ih: Tensor<2> = read(&mut store, "lstm.weight_ih_l0", device);
        let w_hh: Tensor<2> = read(&mut store, "lstm.weight_hh_l0", device);
        let b_ih: Tensor<1> = read(&mut store, "lstm.bias_ih_l0", device);
        let b_hh: Tensor<1> = read(&mut store, "lstm.bias_hh_l0", device);
        let [four_h, d_input] = w_ih.dims();
        let h = four_h / 4;
        let gate = |g: usize| GateController {
            input_transform: linear(w_ih.clone().narrow(0, g * h, h), b_ih.clone().narrow(0, g * h, h)),
            hidden_transform: linear(w_hh.clone().narrow(0, g * h, h), b_hh.clone().narrow(0, g * h, h)),
        };
        // nn.LSTM(3, 4, batch_first=True)
        let mut lstm = LstmConfig::new(d_input, h, true).init(device);
        lstm.input_gate = gate(0);
        lstm.forget_gate = Some(gate(1));
        lstm.cell_gate = gate(2);
        lstm.output_gate = gate(3);
        lstm
    }

    pub fn forward(lstm: &Lstm, x: Tensor<3>) -> Tensor<3> {
        let (y, _state) = lstm.forward(x, None);
        y
    }
}

mod load_gru_split {
    use burn::module::Param;
    use burn::nn::{GateController, Gru, GruConfig, Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{bridge, ModuleStore, PytorchStore};

    fn read<const D: usize>(store: &mut PytorchStore, name: &str, device: &Device) -> Tensor<D> {
        let tensor = store.get_tensor(name).expect("read gru.pt").expect(name);
        Tensor::from_data(bridge::to_data(tensor).expect(name), device)
    }

    // PyTorch 的 weight [out, in] 和 bias → burn 的 Linear（weight 是 [in, out]）
    fn linear(weight: Tensor<2>, bias: Tensor<1>) -> Linear {
        let [d_output, d_input] = weight.dims();
        let mut lin = LinearConfig::new(d_input, d_output).init(&weight.device());
        lin.weight = Param::from_tensor(weight.transpose());
        lin.bias = Some(Param::from_tensor(bias));
        lin
    }

    /// PyTorch 把三个门按 r、z、n 的顺序叠在 weight_ih_l0 [3h, in]、weight_hh_l0 [3h, h]、
    /// bias_ih_l0、bias_hh_l0 里；burn 的 Gru 每个门一个 GateController：按行切成三块装进去
    pub fn load(path: &str, device: &Device) -> Gru {
        let mut store = PytorchStore::from_file(path);
        let w_ih: Tensor<2> = read(&mut store, "gru.weight_ih_l0", device);
        let w_hh: Tensor<2> = read(&mut store, "gru.weight_hh_l0", device);
        let b_ih: Tensor<1> = read(&mut store, "gru.bias_ih_l0", device);
        let b_hh: Tensor<1> = read(&mut store, "gru.bias_hh_l0", device);
        let [three_h, d_input] = w_ih.dims();
        let h = three_h / 3;
        let gate = |g: usize| GateController {
            input_transform: linear(w_ih.clone().narrow(0, g * h, h), b_ih.clone().narrow(0, g * h, h)),
            hidden_transform: linear(w_hh.clone().narrow(0, g * h, h), b_hh.clone().narrow(0, g * h, h)),
        };
        // nn.GRU(3, 4, batch_first=True)；reset_after 默认 true，和 PyTorch 的 n 门一样
        let mut gru = GruConfig::new(d_input, h, true).init(device);
        gru.reset_gate = gate(0);
        gru.update_gate = gate(1);
        gru.new_gate = gate(2);
        gru
    }

    pub fn forward(gru: &Gru, x: Tensor<3>) -> Tensor<3> {
        gru.forward(x, None)
    }
}
