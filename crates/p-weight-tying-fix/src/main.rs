//! weight_tying.py, fixed: no lm_head module. The output projection multiplies by the
//! embedding's own weight, so one Param is used twice and gets one summed gradient.
use burn::module::Param;
use burn::nn::loss::CrossEntropyLossConfig;
use burn::nn::Embedding;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::json;

const V: usize = 16;
const D: usize = 8;
const T: usize = 12;
const STEPS: usize = 5;
const LR: f64 = 0.5;

// region: model
#[derive(Module, Debug)]
struct TinyLm {
    wte: Embedding, // the only parameter; lm_head is wte.weight transposed
}

impl TinyLm {
    fn forward(&self, idx: Tensor<2, Int>) -> Tensor<3> {
        let h = self.wte.forward(idx); // [B, T, D]
        let w = self.lm_head_weight(); // [V, D], the same Param again
        h.matmul(w.transpose().unsqueeze::<3>()) // [B, T, V]
    }

    /// The lm_head weight as PyTorch stores it, [V, D]: the embedding itself.
    fn lm_head_weight(&self) -> Tensor<2> {
        self.wte.weight.val()
    }
}
// endregion: model

fn main() {
    let device = Device::flex().autodiff();
    // element k (1-based) of wte [V, D] is 0.5·sin(k), f64 rounded to f32 once
    let w: Vec<f32> = (0..V * D).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    let mut model = TinyLm {
        wte: Embedding {
            weight: Param::from_tensor(Tensor::<2>::from_data(TensorData::new(w, [V, D]), &device)),
        },
    };
    let tokens: Vec<i64> = (0..=T as i64).map(|t| (5 * t + 3) % V as i64).collect();
    let x = Tensor::<2, Int>::from_data(TensorData::new(tokens[..T].to_vec(), [1, T]), &device);
    let y = Tensor::<1, Int>::from_data(TensorData::new(tokens[1..].to_vec(), [T]), &device);
    let loss_fn = CrossEntropyLossConfig::new().init(&device);

    let mut optim = SgdConfig::new().init();
    let mut losses = vec![];
    for _step in 0..STEPS {
        let loss = loss_fn.forward(model.forward(x.clone()).reshape([T, V]), y.clone());
        losses.push(f64::from(loss.clone().into_scalar::<f32>()));
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(LR, model, grads);
    }
    losses.push(f64::from(
        loss_fn.forward(model.forward(x).reshape([T, V]), y).into_scalar::<f32>(),
    ));

    // region: check
    assert_eq!(model.num_params(), V * D, "the tied weight must be counted once");
    let tie_gap = (model.wte.weight.val() - model.lm_head_weight())
        .abs().max().into_scalar::<f32>();
    assert_eq!(tie_gap, 0.0, "embedding and lm_head drifted apart");
    // endregion: check
    let wte: Vec<f32> = model.wte.weight.val().into_data().try_to_vec().unwrap();
    let out = json!({
        "config": {"vocab": V, "d_model": D, "tokens": T, "steps": STEPS, "lr": LR,
                   "optimizer": "SGD"},
        "losses": losses,
        "num_params": model.num_params(),
        "tie_gap": f64::from(tie_gap),
        "wte": wte.into_iter().map(f64::from).collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
