//! The torch → burn map, rows for PyTorch files, checkpoints, fine-tuning and mixed precision:
//! one inline module per row of ref-5-store.yaml's table, named by the row's id (the page shows
//! its body); main() builds the inputs, calls the module and prints the JSON. Reads data/zoo.pt
//! and data/ckpt.pt (saved by PyTorch); writes its files into the working directory (or, with
//! `export DIR`, the export of `Small` into DIR: that is how make_store_weights.py makes the copy
//! PyTorch loads). Inputs: element k of a tensor with phase p is 0.5·sin(k + 1 + p), rounded to
//! f32 once; gradients come from L = sum(y · G).
use std::path::Path;

use burn::module::{Param, RunningState};
use burn::optim::{AdamConfig, GradientsParams, SgdConfig};
use burn::prelude::*;
use burn::store::{bridge, ModuleSnapshot, ModuleStore, PytorchStore, SafetensorsStore};
use burn::tensor::{DType, Gradients};
use serde_json::{json, Map, Value};

const ZOO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/zoo.pt");
const CKPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ckpt.pt");

// ---- 载入 PyTorch 的权重：每行一个只含那一层的模型，字段名就是 zoo.pt 里的属性名

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

// ---- 导出给 PyTorch

mod export_keys {
    use burn::prelude::*;
    use burn::store::{BurnToPyTorchAdapter, ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 存成 PyTorch 的名字和排列：Linear 的 weight 转回 [out, in]，gamma/beta → weight/bias
        let mut store = SafetensorsStore::from_file(path)
            .with_to_adapter(BurnToPyTorchAdapter)
            .overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod export_forward {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{
        BatchNorm, BatchNormConfig, LayerNorm, LayerNormConfig, Linear, LinearConfig,
        PaddingConfig2d,
    };
    use burn::prelude::*;

    // PyTorch 的 Small 一个属性对一个字段：导出文件里的键名就是这些字段名
    #[derive(Module, Debug)]
    pub struct Small {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub ln: LayerNorm,
        pub lin: Linear,
    }

    impl Small {
        pub fn init(device: &Device) -> Self {
            Small {
                conv: Conv2dConfig::new([2, 3], [3, 3])
                    .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                    .init(device),
                bn: BatchNormConfig::new(3).init(device),
                ln: LayerNormConfig::new(5).init(device),
                lin: LinearConfig::new(5, 2).init(device),
            }
        }

        pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
            self.lin.forward(self.ln.forward(self.bn.forward(self.conv.forward(x))))
        }
    }

    /// small.eval()(x)：导出之前的模型，和 PyTorch 载入导出文件之后的前向相同
    pub fn run(small: &Small, x: Tensor<4>) -> Tensor<4> {
        small.valid().forward(x)
    }
}

mod export_no_adapter {
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 不加适配器：文件里是 burn 自己的名字和排列
        let mut store = SafetensorsStore::from_file(path).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod save_twice_bytes {
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 文件头的 __metadata__ 带着 format、producer、version
        let mut store = SafetensorsStore::from_file(path).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod save_twice_clear_metadata {
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, SafetensorsStore};

    pub fn save<M: Module>(model: &M, path: &str) {
        // 不写 __metadata__：同一个模型每次存出的字节相同
        let mut store = SafetensorsStore::from_file(path).clear_metadata().overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

// ---- 混合精度

mod half_dtypes {
    use burn::prelude::*;
    use burn::store::{
        BurnToPyTorchAdapter, HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot,
        SafetensorsStore,
    };

    pub fn save<M: Module>(model: &M, path: &str) {
        // HalfPrecisionAdapter::new() 默认不转 BatchNorm：它的四个张量留在 f32
        let adapter = BurnToPyTorchAdapter.chain(HalfPrecisionAdapter::new());
        let mut store = SafetensorsStore::from_file(path).with_to_adapter(adapter).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod half_dtypes_all {
    use burn::prelude::*;
    use burn::store::{
        BurnToPyTorchAdapter, HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot,
        SafetensorsStore,
    };

    pub fn save<M: Module>(model: &M, path: &str) {
        // model.half() 把所有浮点张量都转成 f16：BatchNorm 要自己加进去
        let adapter = BurnToPyTorchAdapter.chain(HalfPrecisionAdapter::new().with_module("BatchNorm"));
        let mut store = SafetensorsStore::from_file(path).with_to_adapter(adapter).overwrite(true);
        model.save_into(&mut store).expect("save safetensors");
    }
}

mod half_roundtrip {
    use burn::prelude::*;
    use burn::store::{
        HalfPrecisionAdapter, ModuleAdapter, ModuleSnapshot, PyTorchToBurnAdapter,
        SafetensorsStore,
    };

    pub fn load<M: Module>(model: &mut M, path: &str) {
        // 存的时候用的同一个 HalfPrecisionAdapter，反方向：f16 读回 f32
        let adapter = PyTorchToBurnAdapter.chain(HalfPrecisionAdapter::new());
        let mut store = SafetensorsStore::from_file(path).with_from_adapter(adapter);
        model.load_from(&mut store).expect("load safetensors");
    }
}

mod autocast_linear {
    use burn::nn::Linear;
    use burn::prelude::*;
    use burn::tensor::DType;

    /// burn 没有 autocast：操作数舍入成 bf16，在 f32 里乘加，结果再舍入成 bf16
    pub fn run(lin: &Linear, x: Tensor<2>) -> Tensor<2> {
        let bf16 = |t: Tensor<2>| t.cast(DType::BF16).cast(DType::F32);
        let w = bf16(lin.weight.val());
        let b = bf16(lin.bias.as_ref().unwrap().val().unsqueeze());
        (bf16(x).matmul(w) + b).cast(DType::BF16)
    }
}

mod grad_scaler {
    use burn::nn::Linear;
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    /// f32 训练不需要 GradScaler：它把 loss 放大、梯度缩回去，一步的结果就是普通的一步
    pub fn step(lin: Linear, x: Tensor<2>) -> Linear {
        let loss = lin.forward(x).powi_scalar(2).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &lin);
        let mut optim = SgdConfig::new().init();
        optim.step(0.1, lin, grads)
    }
}

// ---- checkpoint 与微调

mod checkpoint_resume {
    use burn::nn::Linear;
    use burn::optim::ModuleOptimizer;
    use burn::store::burn_pack::Reader;
    use burn::store::{BurnpackStore, ModuleSnapshot};

    /// torch.save({"model": …, "optimizer": …, "epoch": …})：模型存一个 burnpack 文件，
    /// epoch 写进它的元数据；优化器的状态另存一个文件
    pub fn save(model: &Linear, optim: &ModuleOptimizer, epoch: usize) {
        let mut store = BurnpackStore::from_file("resume_model.bpk")
            .metadata("epoch", epoch.to_string())
            .overwrite(true);
        model.save_into(&mut store).expect("save model");
        optim.save("resume_optim.bpk").expect("save optimizer");
    }

    /// 新建的模型和优化器从 checkpoint 接着训练。优化器的状态按参数的 ParamId 存；
    /// burnpack 文件也存着 ParamId，load_from 把它还给新模型的参数，两边才对得上
    pub fn load(mut model: Linear, optim: ModuleOptimizer) -> (Linear, ModuleOptimizer, usize) {
        model.load_from(&mut BurnpackStore::from_file("resume_model.bpk")).expect("load model");
        let optim = optim.load("resume_optim.bpk").expect("load optimizer");
        let reader = Reader::from_file("resume_model.bpk").expect("read resume_model.bpk");
        let epoch = reader.metadata()["epoch"].parse().expect("epoch");
        (model, optim, epoch)
    }
}

mod save_load_state_dict {
    use burn::prelude::*;
    use burn::store::{BurnpackStore, ModuleSnapshot};

    /// torch.save(model.state_dict(), path)：burn 自己的格式 burnpack
    pub fn save<M: Module>(model: &M, path: &str) {
        let mut store = BurnpackStore::from_file(path).overwrite(true);
        model.save_into(&mut store).expect("save burnpack");
    }

    /// model.load_state_dict(torch.load(path))
    pub fn load<M: Module>(model: &mut M, path: &str) {
        model.load_from(&mut BurnpackStore::from_file(path)).expect("load burnpack");
    }
}

mod checkpoint_keys {
    use burn::store::{ModuleStore, PytorchStore};

    /// {k: (v.dtype, v.shape) for k, v in torch.load(path).items()}：不建模型，直接看文件
    pub fn list(path: &str) -> Vec<(String, String, Vec<usize>)> {
        let mut store = PytorchStore::from_file(path);
        let tensors = store.get_all_tensors().expect("read checkpoint");
        tensors
            .iter()
            .map(|(name, t)| (name.clone(), format!("{:?}", t.dtype), t.shape.to_vec()))
            .collect()
    }
}

mod load_checkpoint_dict {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Net {
        pub lin: Linear,
    }

    /// ckpt.pt 是 torch.save({"epoch": …, "model": model.state_dict(), "optimizer": …})，
    /// 模型套着 nn.DataParallel 存，键是 module.lin.weight、module.lin.bias
    pub fn load(path: &str, device: &Device) -> Net {
        let mut net = Net { lin: LinearConfig::new(4, 3).init(device) };
        let mut store = PytorchStore::from_file(path)
            .with_top_level_key("model") // ckpt["model"]
            .with_key_remapping(r"^module\.", ""); // 去掉 DataParallel / DDP 加的前缀
        net.load_from(&mut store).expect("load ckpt.pt");
        net
    }
}

mod load_checkpoint_epoch {
    use burn::store::pytorch_reader::{PickleValue, PytorchReader};

    /// ckpt["epoch"] 和 ckpt["optimizer"]["param_groups"][0]["lr"]：checkpoint 里不是张量的值
    pub fn read(path: &str) -> (i64, f64) {
        let PickleValue::Dict(ckpt) = PytorchReader::read_pickle_data(path, None).expect("read ckpt.pt")
        else {
            panic!("ckpt.pt: not a dict");
        };
        let PickleValue::Int(epoch) = ckpt["epoch"] else { panic!("epoch: not an int") };
        let PickleValue::Dict(optimizer) = &ckpt["optimizer"] else { panic!("optimizer: not a dict") };
        let PickleValue::List(groups) = &optimizer["param_groups"] else { panic!("param_groups") };
        let PickleValue::Dict(group) = &groups[0] else { panic!("param_groups[0]") };
        let PickleValue::Float(lr) = group["lr"] else { panic!("lr: not a float") };
        (epoch, lr)
    }
}

mod load_optimizer_state {
    use burn::module::ParamId;
    use burn::nn::Linear;
    use burn::optim::ModuleOptimizer;
    use burn::prelude::*;
    use burn::store::burn_pack::{Scalar, Writer};
    use burn::store::{bridge, ModuleStore, PytorchStore};

    /// PyTorch 的 Adam 状态换成 burn 的 Adam 状态。PyTorch 按参数在 model.parameters() 里的
    /// 序号 i 存 state.{i}.exp_avg、exp_avg_sq、step；burn 按参数的 ParamId 存
    /// {id}.momentum.moment_1、moment_2、time，外加参数的阶数 {id}.__rank。
    /// 按 burn 的名字打包成 burnpack，交给 ModuleOptimizer::from_bytes
    pub fn load(optim: ModuleOptimizer, lin: &Linear, path: &str) -> ModuleOptimizer {
        let mut store = PytorchStore::from_file(path).with_top_level_key("optimizer");
        let mut read = |name: String| -> TensorData {
            let tensor = store.get_tensor(&name).expect("read ckpt.pt").expect("no such tensor");
            bridge::to_data(tensor).expect("tensor data")
        };
        let device = lin.weight.device();
        // model.parameters() 的顺序：lin.weight（PyTorch 的 [out, in]，burn 里要转置）、lin.bias
        let params: [(ParamId, usize); 2] = [(lin.weight.id, 2), (lin.bias.as_ref().unwrap().id, 1)];
        let mut tensors = Vec::new();
        let mut scalars = Vec::new();
        for (i, (id, rank)) in params.into_iter().enumerate() {
            let prefix = id.val().to_string();
            for (torch_name, burn_name) in [("exp_avg", "moment_1"), ("exp_avg_sq", "moment_2")] {
                let mut data = read(format!("state.{i}.{torch_name}"));
                if rank == 2 {
                    data = Tensor::<2>::from_data(data, &device).transpose().into_data();
                }
                let name = format!("{prefix}.momentum.{burn_name}");
                tensors.push(bridge::from_data(data, name, Some(id.val())));
            }
            let step = read(format!("state.{i}.step")).try_to_vec::<f32>().unwrap()[0];
            scalars.push((format!("{prefix}.momentum.time"), Scalar::from(step as usize)));
            scalars.push((format!("{prefix}.__rank"), Scalar::from(rank)));
        }
        let mut writer = Writer::new(tensors);
        for (key, value) in scalars {
            writer = writer.with_scalar(&key, value);
        }
        let bytes = writer.into_bytes().expect("pack optimizer state");
        optim.from_bytes(bytes).expect("load optimizer state")
    }
}

mod load_map_location {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct Zoo {
        pub lin: Linear,
    }

    /// torch.load(path, map_location=device)：burn 没有这个参数。文件里的张量载入到它要填的
    /// 参数所在的设备上，模型建在哪个设备，权重就到哪
    pub fn load(path: &str, device: &Device) -> Zoo {
        let mut zoo = Zoo { lin: LinearConfig::new(4, 3).init(device) };
        zoo.load_from(&mut PytorchStore::from_file(path)).expect("load zoo.pt");
        zoo
    }

    /// 载入之后再换设备：model.to(device)
    pub fn to(zoo: Zoo, device: &Device) -> Zoo {
        zoo.to_device(device)
    }
}

mod load_remap_keys {
    use burn::nn::{LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    // 文件里叫 ln.*、lin.*，这里的字段叫 norm、fc
    #[derive(Module, Debug)]
    pub struct Renamed {
        pub norm: LayerNorm,
        pub fc: Linear,
    }

    impl Renamed {
        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.fc.forward(self.norm.forward(x))
        }
    }

    pub fn load(path: &str, device: &Device) -> Renamed {
        let mut net = Renamed {
            norm: LayerNormConfig::new(4).init(device),
            fc: LinearConfig::new(4, 3).init(device),
        };
        // 按正则改文件里的键名，再和字段匹配
        let mut store = PytorchStore::from_file(path)
            .with_key_remapping(r"^ln\.", "norm.")
            .with_key_remapping(r"^lin\.", "fc.");
        net.load_from(&mut store).expect("load zoo.pt");
        net
    }
}

mod load_subset {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
    use burn::prelude::*;
    use burn::store::{ApplyResult, ModuleSnapshot, PytorchStore};

    // 预训练的骨干 conv、bn，加一个新的 5 类分类头 lin
    #[derive(Module, Debug)]
    pub struct FineTune {
        pub conv: Conv2d,
        pub bn: BatchNorm,
        pub lin: Linear,
    }

    pub fn build(device: &Device) -> FineTune {
        FineTune {
            conv: Conv2dConfig::new([2, 3], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .init(device),
            bn: BatchNormConfig::new(3).init(device),
            lin: LinearConfig::new(3, 5).init(device),
        }
    }

    /// 只载入路径匹配正则的参数：文件里的 lin 是 3 类的头，形状也不对，留给 lin 自己的初始化。
    /// 没载入的参数在 ApplyResult.skipped 里
    pub fn load(model: &mut FineTune, path: &str) -> ApplyResult {
        let mut store = PytorchStore::from_file(path).with_regex(r"^(conv|bn)\.");
        model.load_from(&mut store).expect("load zoo.pt")
    }

    pub fn features(model: &FineTune, x: Tensor<4>) -> Tensor<4> {
        let model = model.valid();
        model.bn.forward(model.conv.forward(x))
    }
}

mod load_strict_false {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ApplyResult, ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct WithExtra {
        pub lin: Linear,
        pub extra: Linear,
    }

    /// load_state_dict(sd, strict=False)：文件里没有的参数（extra）保持初始化，不报错。
    /// result.missing、result.unused 就是 PyTorch 的 missing_keys、unexpected_keys
    pub fn load(path: &str, device: &Device) -> (WithExtra, ApplyResult) {
        let mut model = WithExtra {
            lin: LinearConfig::new(4, 3).init(device),
            extra: LinearConfig::new(3, 2).init(device),
        };
        let mut store = PytorchStore::from_file(path).allow_partial(true);
        let result = model.load_from(&mut store).expect("load zoo.pt");
        (model, result)
    }
}

mod load_strict_unexpected {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore, PytorchStoreError};

    #[derive(Module, Debug)]
    pub struct JustLin {
        pub lin: Linear,
    }

    pub fn load(path: &str, device: &Device) -> Result<JustLin, PytorchStoreError> {
        let mut model = JustLin { lin: LinearConfig::new(4, 3).init(device) };
        // 文件里多出来的键（conv、bn……）不算错：load_from 照样返回 Ok
        model.load_from(&mut PytorchStore::from_file(path))?;
        Ok(model)
    }
}

mod load_strict_unexpected_check {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore};

    #[derive(Module, Debug)]
    pub struct JustLin {
        pub lin: Linear,
    }

    pub fn load(path: &str, device: &Device) -> Result<JustLin, String> {
        let mut model = JustLin { lin: LinearConfig::new(4, 3).init(device) };
        let result = model
            .load_from(&mut PytorchStore::from_file(path))
            .map_err(|e| e.to_string())?;
        // strict=True 还要求文件里没有多余的键：burn 不查，自己看 result.unused
        if !result.unused.is_empty() {
            return Err(format!("Unexpected key(s): {}", result.unused.join(", ")));
        }
        Ok(model)
    }
}

mod load_shape_mismatch {
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;
    use burn::store::{ModuleSnapshot, PytorchStore, PytorchStoreError};

    #[derive(Module, Debug)]
    pub struct JustLin {
        pub lin: Linear,
    }

    pub fn load(path: &str, device: &Device) -> Result<JustLin, PytorchStoreError> {
        // 文件里的 lin 是 Linear(4, 3)：形状不符是错误（validate 默认开着），load_from 返回 Err
        let mut model = JustLin { lin: LinearConfig::new(4, 5).init(device) };
        model.load_from(&mut PytorchStore::from_file(path))?;
        Ok(model)
    }
}

mod freeze_module {
    use burn::nn::{LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Tune {
        pub ln: LayerNorm,
        pub lin: Linear,
    }

    impl Tune {
        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.lin.forward(self.ln.forward(x))
        }
    }

    pub fn build(device: &Device) -> Tune {
        Tune { ln: LayerNormConfig::new(4).init(device), lin: LinearConfig::new(4, 3).init(device) }
    }

    /// model.ln.requires_grad_(False)：ln 的参数不再求梯度，优化器也就不动它们
    pub fn freeze(model: Tune) -> Tune {
        Tune { ln: model.ln.no_grad(), ..model }
    }
}

mod freeze_param {
    use burn::nn::{LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Tune {
        pub ln: LayerNorm,
        pub lin: Linear,
    }

    impl Tune {
        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.lin.forward(self.ln.forward(x))
        }
    }

    pub fn build(device: &Device) -> Tune {
        Tune { ln: LayerNormConfig::new(4).init(device), lin: LinearConfig::new(4, 3).init(device) }
    }

    /// model.lin.bias.requires_grad_(False)：单个参数用 Param::set_require_grad
    pub fn freeze_bias(mut model: Tune) -> Tune {
        model.lin.bias = model.lin.bias.map(|bias| bias.set_require_grad(false));
        model
    }
}

mod freeze_batchnorm {
    use burn::nn::conv::{Conv2d, Conv2dConfig};
    use burn::nn::{BatchNorm, BatchNormConfig, PaddingConfig2d};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Backbone {
        pub conv: Conv2d,
        pub bn: BatchNorm,
    }

    impl Backbone {
        pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
            self.bn.forward(self.conv.forward(x))
        }
    }

    pub fn build(device: &Device) -> Backbone {
        Backbone {
            conv: Conv2dConfig::new([2, 3], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .init(device),
            bn: BatchNormConfig::new(3).init(device),
        }
    }

    /// model.bn.eval() 加 model.bn.requires_grad_(False)：freeze() 两件事一起做，
    /// BatchNorm 在训练中也用 running_mean、running_var 前向，不更新它们，gamma、beta 不求梯度
    pub fn freeze_bn(model: Backbone) -> Backbone {
        Backbone { bn: model.bn.freeze(), ..model }
    }
}

mod finetune_lr_groups {
    use burn::lr_scheduler::module_lr_scheduler::ModuleLrScheduler;
    use burn::module::ParamGroup;
    use burn::nn::{LayerNorm, LayerNormConfig, Linear, LinearConfig};
    use burn::optim::{GradientsParams, SgdConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Tune {
        pub ln: LayerNorm,
        pub lin: Linear,
    }

    impl Tune {
        pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
            self.lin.forward(self.ln.forward(x))
        }
    }

    pub fn build(device: &Device) -> Tune {
        Tune { ln: LayerNormConfig::new(4).init(device), lin: LinearConfig::new(4, 3).init(device) }
    }

    /// SGD([{"params": model.ln.parameters(), "lr": 0.01}, {"params": model.lin.parameters()}],
    /// lr=0.1)：学习率按参数组给，ParamGroup 按 ParamId 选出 ln 的参数
    pub fn step(model: Tune, x: Tensor<2>) -> Tune {
        let mut lr = ModuleLrScheduler::new(0.1)
            .with_group(ParamGroup::ids_from_module(model.ln.clone()), 0.01);
        let loss = model.forward(x).powi_scalar(2).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        let mut optim = SgdConfig::new().init();
        optim.step(lr.step(), model, grads)
    }
}

// ---- helpers: inputs, outputs, the harness around the modules

fn data<const D: usize>(shape: [usize; D], phase: f64, device: &Device) -> Tensor<D> {
    let n: usize = shape.iter().product();
    let v: Vec<f32> = (0..n).map(|k| (0.5 * ((k + 1) as f64 + phase).sin()) as f32).collect();
    Tensor::<1>::from_floats(v.as_slice(), device).reshape(shape)
}

fn flat<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    let t = t.cast(DType::F32);
    t.into_data().try_to_vec::<f32>().unwrap().into_iter().map(f64::from).collect()
}

fn fnv(raw: &[u8]) -> String {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in raw {
        h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}")
}

/// Small with deterministic weights in burn's own layout (Linear [in, out]).
fn small(device: &Device) -> export_forward::Small {
    let mut m = export_forward::Small::init(device);
    let p = |shape: [usize; 1], phase| Param::from_tensor(data(shape, phase, device));
    m.conv.weight = Param::from_tensor(data([3, 2, 3, 3], 10.0, device));
    m.conv.bias = Some(p([3], 20.0));
    m.bn.gamma = Param::from_tensor(data([3], 30.0, device).add_scalar(1.0));
    m.bn.beta = p([3], 40.0);
    m.bn.running_mean = RunningState::new(data([3], 50.0, device));
    m.bn.running_var = RunningState::new(data([3], 60.0, device).add_scalar(1.0));
    m.ln.gamma = Param::from_tensor(data([5], 70.0, device).add_scalar(1.0));
    m.ln.beta = Some(p([5], 80.0));
    m.lin.weight = Param::from_tensor(data([5, 2], 90.0, device));
    m.lin.bias = Some(p([2], 100.0));
    m
}

/// FNV of the tensor bytes after the header: the header's __metadata__ comes out in a
/// different order from save to save (see save_twice_bytes).
fn payload_fnv(raw: &[u8]) -> String {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    fnv(&raw[8 + n..])
}

/// Saves `m` twenty times with `save`: are all the files byte for byte the same?
fn saved_twenty_times(save: impl Fn(&str)) -> bool {
    let files: Vec<Vec<u8>> = (0..20)
        .map(|i| {
            let path = format!("twice{i}.safetensors");
            save(&path);
            std::fs::read(&path).unwrap()
        })
        .collect();
    files.iter().all(|f| f == &files[0])
}

/// The safetensors header: {name: [dtype, shape]} (the first 8 bytes are its length).
fn header(raw: &[u8]) -> Value {
    let n = u64::from_le_bytes(raw[..8].try_into().unwrap()) as usize;
    let head: Map<String, Value> = serde_json::from_slice(&raw[8..8 + n]).unwrap();
    let mut out = Map::new();
    for (k, v) in head {
        if k != "__metadata__" {
            out.insert(k, json!([v["dtype"], v["shape"]]));
        }
    }
    Value::Object(out)
}

/// The header as sorted "name dtype shape" lines (shape as 5x2), like expected_keys() in
/// ref_store.py: two files with other names still line up entry by entry.
fn header_lines(raw: &[u8]) -> Vec<String> {
    header(raw).as_object().unwrap().iter()
        .map(|(k, v)| {
            let shape: Vec<String> = v[1].as_array().unwrap().iter().map(|d| d.to_string()).collect();
            format!("{k} {} {}", v[0].as_str().unwrap(), shape.join("x"))
        })
        .collect()
}

/// A half-precision file as PyTorch's `model.half().state_dict()` shows it: each tensor's
/// dtype and its values (read back as f32).
fn half_file(path: &str) -> Value {
    let mut store = SafetensorsStore::from_file(path);
    let mut dtypes = Map::new();
    let mut values = Map::new();
    for (name, t) in store.get_all_tensors().unwrap() {
        let dtype = match t.dtype {
            DType::F16 => "float16",
            DType::F32 => "float32",
            _ => "other",
        };
        dtypes.insert(name.clone(), json!(dtype));
        let v: Vec<f64> = bridge::to_data(t).unwrap().convert::<f32>().try_to_vec::<f32>().unwrap()
            .into_iter().map(f64::from).collect();
        values.insert(name.clone(), json!(v));
    }
    json!({"dtypes": dtypes, "values": values})
}

fn backward<const D: usize>(y: &Tensor<D>) -> Gradients {
    (y.clone() * data(y.dims(), 50.0, &y.device())).sum().backward()
}

fn grad<const D: usize>(t: Tensor<D>, g: &Gradients) -> Vec<f64> {
    flat(t.grad(g).expect("no gradient"))
}

fn torch_dtype(d: DType) -> &'static str {
    match d {
        DType::F32 => "float32",
        DType::F16 => "float16",
        DType::BF16 => "bfloat16",
        _ => "other",
    }
}

/// Tune's parameters as PyTorch names and lays them out (lin.weight [out, in]).
fn tune_params(ln: &burn::nn::LayerNorm, lin: &burn::nn::Linear) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("ln_weight".into(), json!(flat(ln.gamma.val())));
    m.insert("ln_bias".into(), json!(flat(ln.beta.as_ref().unwrap().val())));
    m.insert("lin_weight".into(), json!(flat(lin.weight.val().transpose())));
    m.insert("lin_bias".into(), json!(flat(lin.bias.as_ref().unwrap().val())));
    m
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d = Device::flex();
    if args.get(1).map(String::as_str) == Some("export") {
        // make_store_weights.py: the copy PyTorch reads
        let dir = Path::new(&args[2]);
        export_keys::save(&small(&d), dir.join("small_export.safetensors").to_str().unwrap());
        return;
    }
    let ad = Device::flex().autodiff();
    let mut rows = Map::new();
    let mut row = |name: &str, v: Value| {
        rows.insert(name.to_string(), v);
    };

    // ---- 载入 PyTorch 的权重 ----
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

    // ---- 导出给 PyTorch ----
    let m = small(&d);
    export_keys::save(&m, "small_export.safetensors");
    let exported = std::fs::read("small_export.safetensors").unwrap();
    row("export_keys", json!({"tensors": header_lines(&exported)}));
    let x = data([2, 2, 3, 5], 0.0, &d) * 2.0;
    row("export_forward", json!({"payload_fnv": payload_fnv(&exported), "y": flat(export_forward::run(&m, x.clone()))}));
    export_no_adapter::save(&m, "small_naive.safetensors");
    row("export_no_adapter", json!({"tensors": header_lines(&std::fs::read("small_naive.safetensors").unwrap())}));
    row("save_twice_bytes", json!({"identical": saved_twenty_times(|p| save_twice_bytes::save(&m, p))}));
    row("save_twice_clear_metadata",
        json!({"identical": saved_twenty_times(|p| save_twice_clear_metadata::save(&m, p))}));

    // ---- 混合精度 ----
    half_dtypes::save(&m, "small_half.safetensors");
    row("half_dtypes", half_file("small_half.safetensors"));
    half_dtypes_all::save(&m, "small_half_all.safetensors");
    row("half_dtypes_all", half_file("small_half_all.safetensors"));
    {
        let mut back = export_forward::Small::init(&d);
        half_roundtrip::load(&mut back, "small_half.safetensors");
        row("half_roundtrip", json!({"conv.weight": flat(back.conv.weight.val()),
            "lin.weight": flat(back.lin.weight.val().transpose()), "ln.weight": flat(back.ln.gamma.val())}));
    }
    {
        let lin = load_linear::load(ZOO, &d).lin;
        let y = autocast_linear::run(&lin, data([2, 4], 0.0, &d) * 2.0);
        row("autocast_linear", json!({"dtype": torch_dtype(y.dtype()), "y": flat(y)}));
    }
    {
        let lin = grad_scaler::step(load_linear::load(ZOO, &ad).lin, data([2, 4], 0.0, &ad));
        row("grad_scaler", json!({"weight": flat(lin.weight.val().transpose()), "bias": flat(lin.bias.unwrap().val())}));
    }

    // ---- checkpoint 与微调 ----
    {
        // Two epochs of Adam (PyTorch's eps), a checkpoint, then a fresh model and optimizer.
        let adam = || AdamConfig::new().with_epsilon(1e-8).init();
        let x = data([2, 4], 0.0, &ad);
        let step = |optim: &mut burn::optim::ModuleOptimizer, lin: burn::nn::Linear| {
            let loss = lin.forward(x.clone()).powi_scalar(2).mean();
            let grads = GradientsParams::from_grads(loss.backward(), &lin);
            optim.step(0.01, lin, grads)
        };
        let mut optim = adam();
        let mut lin = load_linear::load(ZOO, &ad).lin;
        for _epoch in 0..2 {
            lin = step(&mut optim, lin);
        }
        checkpoint_resume::save(&lin, &optim, 2);
        let fresh = burn::nn::LinearConfig::new(4, 3).init(&ad);
        let (lin, mut optim, epoch) = checkpoint_resume::load(fresh, adam());
        let lin = step(&mut optim, lin);
        row("checkpoint_resume", json!({"epoch": epoch, "weight": flat(lin.weight.val().transpose()),
            "bias": flat(lin.bias.unwrap().val())}));
    }
    {
        save_load_state_dict::save(&m, "small.bpk");
        let mut back = export_forward::Small::init(&d);
        save_load_state_dict::load(&mut back, "small.bpk");
        let y = export_forward::run(&back, x.clone());
        row("save_load_state_dict", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        let mut lines: Vec<String> = checkpoint_keys::list(ZOO).into_iter()
            .map(|(name, dtype, shape)| {
                let shape: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                format!("{name} {dtype} {}", shape.join("x"))
            })
            .collect();
        lines.sort();
        row("checkpoint_keys", json!({"tensors": lines}));
    }
    {
        let net = load_checkpoint_dict::load(CKPT, &d);
        let y = net.lin.forward(data([2, 4], 0.0, &d));
        row("load_checkpoint_dict", json!({"y": flat(y), "weight": flat(net.lin.weight.val().transpose()),
            "bias": flat(net.lin.bias.unwrap().val())}));
    }
    {
        let (epoch, lr) = load_checkpoint_epoch::read(CKPT);
        row("load_checkpoint_epoch", json!({"epoch": epoch, "lr": lr}));
    }
    {
        // ckpt.pt was saved after 3 Adam steps on this x: one more, with PyTorch's state.
        let net = load_checkpoint_dict::load(CKPT, &ad);
        let mut optim = load_optimizer_state::load(AdamConfig::new().with_epsilon(1e-8).init(), &net.lin, CKPT);
        let x = data([2, 4], 0.0, &ad);
        let loss = net.lin.forward(x).powi_scalar(2).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &net.lin);
        let lin = optim.step(0.01, net.lin, grads);
        row("load_optimizer_state", json!({"weight": flat(lin.weight.val().transpose()),
            "bias": flat(lin.bias.unwrap().val())}));
    }
    {
        let zoo = load_map_location::to(load_map_location::load(ZOO, &d), &d);
        let y = zoo.lin.forward(data([2, 4], 0.0, &d));
        row("load_map_location", json!({"y": flat(y), "on_device": zoo.lin.weight.device() == d}));
    }
    {
        let net = load_remap_keys::load(ZOO, &d);
        let y = net.forward(data([2, 4], 0.0, &d));
        row("load_remap_keys", json!({"y": flat(y.clone()), "shape": y.dims()}));
    }
    {
        let mut model = load_subset::build(&d);
        let result = load_subset::load(&mut model, ZOO);
        let y = load_subset::features(&model, data([2, 2, 4, 4], 0.0, &d));
        let mut not_loaded = result.skipped.clone();
        not_loaded.sort();
        row("load_subset", json!({"y": flat(y), "not_loaded": not_loaded}));
    }
    {
        let (model, result) = load_strict_false::load(ZOO, &d);
        let mut missing: Vec<String> = result.missing.iter().map(|(p, _)| p.clone()).collect();
        missing.sort();
        let mut unexpected = result.unused.clone();
        unexpected.sort();
        row("load_strict_false", json!({"missing": missing, "unexpected": unexpected,
            "weight": flat(model.lin.weight.val().transpose())}));
    }
    row("load_strict_unexpected", json!({"error": load_strict_unexpected::load(ZOO, &d).is_err()}));
    row("load_strict_unexpected_check", json!({"error": match load_strict_unexpected_check::load(ZOO, &d) {
        Ok(_) => false,
        Err(e) => e.contains("Unexpected key(s)"),
    }}));
    {
        let (error, keys) = match load_shape_mismatch::load(ZOO, &d) {
            Ok(_) => (false, vec![]),
            Err(e) => {
                let msg = e.to_string();
                (true, ["lin.bias", "lin.weight"].into_iter().filter(|k| msg.contains(k)).collect())
            }
        };
        row("load_shape_mismatch", json!({"error": error, "keys": keys}));
    }
    let x = data([2, 4], 0.0, &ad);
    {
        let mut model = freeze_module::build(&ad);
        model.load_from(&mut PytorchStore::from_file(ZOO)).unwrap();
        let model = freeze_module::freeze(model);
        let loss = model.forward(x.clone()).powi_scalar(2).mean();
        let g = loss.backward();
        let ln_has_grad = model.ln.gamma.val().grad(&g).is_some();
        let grads = GradientsParams::from_grads(g, &model);
        let model = SgdConfig::new().init().step(0.1, model, grads);
        let mut out = tune_params(&model.ln, &model.lin);
        out.insert("ln_has_grad".into(), json!(ln_has_grad));
        row("freeze_module", Value::Object(out));
    }
    {
        let mut model = freeze_param::build(&ad);
        model.load_from(&mut PytorchStore::from_file(ZOO)).unwrap();
        let model = freeze_param::freeze_bias(model);
        let loss = model.forward(x.clone()).powi_scalar(2).mean();
        let g = loss.backward();
        let bias_has_grad = model.lin.bias.as_ref().unwrap().val().grad(&g).is_some();
        let grads = GradientsParams::from_grads(g, &model);
        let model = SgdConfig::new().init().step(0.1, model, grads);
        let mut out = tune_params(&model.ln, &model.lin);
        out.insert("bias_has_grad".into(), json!(bias_has_grad));
        row("freeze_param", Value::Object(out));
    }
    {
        let mut model = freeze_batchnorm::build(&ad);
        model.load_from(&mut PytorchStore::from_file(ZOO)).unwrap();
        let model = freeze_batchnorm::freeze_bn(model);
        let y = model.forward(data([2, 2, 4, 4], 0.0, &ad));
        let grads = GradientsParams::from_grads(y.clone().powi_scalar(2).mean().backward(), &model);
        let model = SgdConfig::new().init().step(0.1, model, grads);
        row("freeze_batchnorm", json!({"y": flat(y), "conv_weight": flat(model.conv.weight.val()),
            "bn_weight": flat(model.bn.gamma.val()), "running_mean": flat(model.bn.running_mean.value()),
            "running_var": flat(model.bn.running_var.value())}));
    }
    {
        let mut model = finetune_lr_groups::build(&ad);
        model.load_from(&mut PytorchStore::from_file(ZOO)).unwrap();
        let model = finetune_lr_groups::step(model, x.clone());
        row("finetune_lr_groups", Value::Object(tune_params(&model.ln, &model.lin)));
    }

    println!("{}", serde_json::to_string(&json!({"rows": rows})).unwrap());
}
