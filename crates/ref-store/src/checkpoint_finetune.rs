//! checkpoint 与微调: the rows of experiments/reference/ref-5-store/checkpoint_finetune.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

const CKPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ckpt.pt");

/// Tune's parameters as PyTorch names and lays them out (lin.weight [out, in]).
fn tune_params(ln: &burn::nn::LayerNorm, lin: &burn::nn::Linear) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("ln_weight".into(), json!(flat(ln.gamma.val())));
    m.insert("ln_bias".into(), json!(flat(ln.beta.as_ref().unwrap().val())));
    m.insert("lin_weight".into(), json!(flat(lin.weight.val().transpose())));
    m.insert("lin_bias".into(), json!(flat(lin.bias.as_ref().unwrap().val())));
    m
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
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
        let mut lin = load_pytorch::load_linear(ZOO, &ad).lin;
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
        let (m, x) = (small(&d), data([2, 2, 3, 5], 0.0, &d) * 2.0);
        save_load_state_dict::save(&m, "small.bpk");
        let mut back = export_pytorch::Small::init(&d);
        save_load_state_dict::load(&mut back, "small.bpk");
        let y = export_pytorch::small_forward(&back, x.clone());
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
}

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
