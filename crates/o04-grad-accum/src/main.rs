//! Gradient accumulation with GradientsAccumulator: accumulate() adds each micro-batch's
//! GradientsParams parameter by parameter, grads() hands the sum over and empties the
//! accumulator. Linear(3, 2), 8 samples in 4 micro-batches of 2, one SGD update every 2.
//! Prints the same JSON structure as experiments/optim/grad_accum.py.
use burn::module::Param;
use burn::nn::loss::{MseLoss, Reduction};
use burn::nn::Linear;
use burn::optim::{GradientsAccumulator, GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 3;
const OUT: usize = 2;
const MICRO: usize = 2;
const N_MICRO: usize = 4;
const ACCUM: usize = 2;
const LR: f64 = 0.1;

fn make_linear(device: &Device) -> Linear {
    let w: Vec<f32> = (0..OUT * IN).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    let b: Vec<f32> = (0..OUT).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(
            Tensor::<2>::from_data(TensorData::new(w, [OUT, IN]), device).transpose(),
        ),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [OUT]), device))),
    }
}

/// Rows i·MICRO .. (i+1)·MICRO of x (element k is 0.1·k − 0.5) and of the target (0.5·cos(k)).
fn micro_batch(i: usize, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let rows = i * MICRO..(i + 1) * MICRO;
    let x: Vec<f32> = rows
        .clone()
        .flat_map(|r| (0..IN).map(move |c| (0.1 * (r * IN + c + 1) as f64 - 0.5) as f32))
        .collect();
    let y: Vec<f32> = rows
        .flat_map(|r| (0..OUT).map(move |c| (0.5 * ((r * OUT + c + 1) as f64).cos()) as f32))
        .collect();
    (
        Tensor::<2>::from_data(TensorData::new(x, [MICRO, IN]), device),
        Tensor::<2>::from_data(TensorData::new(y, [MICRO, OUT]), device),
    )
}

fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let mut model = make_linear(&device);
    let loss_fn = MseLoss::new();
    let mut optim = SgdConfig::new().init();
    let (mut params, mut acc_grads) = (serde_json::Map::new(), vec![]);
    let mut cleared = false;

    // region: accum
    let mut accum = GradientsAccumulator::<Linear>::new();
    for i in 0..N_MICRO {
        let (x, y) = micro_batch(i, &device);
        let loss = loss_fn.forward(model.forward(x), y, Reduction::Mean).div_scalar(ACCUM as f64);
        accum.accumulate(&model, GradientsParams::from_grads(loss.backward(), &model));
        if (i + 1) % ACCUM == 0 {
            let grads = accum.grads(); // the sum so far; the accumulator is empty again
            let gw: Tensor<2> = grads.get(model.weight.id).unwrap();
            acc_grads.push(nums(gw.transpose()));
            model = optim.step(LR, model, grads);
            cleared = accum.grads().is_empty();
            params.insert(
                format!("update{}", params.len() + 1),
                json!({
                    "weight": nums(model.weight.val().transpose()),
                    "bias": nums(model.bias.as_ref().unwrap().val()),
                }),
            );
        }
    }
    // endregion: accum

    let out = json!({
        "accumulated_weight_grad": acc_grads,
        "params": params,
        "cleared": cleared,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
