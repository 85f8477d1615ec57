//! Both habits of param_map.py, fixed: the closure given to Param::map computes outside the
//! graph and returns a fresh leaf that requires grad. Prints the same JSON as param_map.py.
use burn::module::{list_param_ids, Param};
use burn::nn::Linear;
use burn::optim::{GradientsParams, SgdConfig};
use burn::prelude::*;
use serde_json::{json, Value};

const IN: usize = 3;
const OUT: usize = 2;
const B: usize = 4;
const STEPS: usize = 5;
const LR: f64 = 0.1;

fn seq(n: usize, f: fn(f64) -> f64, scale: f64) -> Vec<f32> {
    (0..n).map(|k| (scale * f((k + 1) as f64)) as f32).collect()
}

/// Weight element k of PyTorch's [out, in] is 0.5·sin(k), transposed to burn's [in, out].
fn make_linear(device: &Device) -> Linear {
    let w = TensorData::new(seq(OUT * IN, f64::sin, 0.5), [OUT, IN]);
    let b: Vec<f32> = (0..OUT).map(|o| (0.01 * o as f64) as f32).collect();
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(w, device).transpose()),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(b, [OUT]), device))),
    }
}

/// Flatten to f64 without changing any f32 value, so JSON carries the exact number.
fn nums<const D: usize>(t: Tensor<D>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

// region: scale
fn scale(fc: &mut Linear) {
    // compute on the inner backend (no graph), then make the result a leaf that requires grad
    fc.weight = fc.weight.clone().map(|w| Tensor::from_inner(w.inner() * 0.5).require_grad());
}
// endregion: scale

// region: copy
fn copy(fc: &mut Linear) {
    let w_new = TensorData::new(seq(OUT * IN, f64::cos, 0.2), [OUT, IN]);
    fc.weight = fc
        .weight
        .clone()
        .map(|w| Tensor::<2>::from_data(w_new, &w.device()).transpose().require_grad());
}
// endregion: copy

fn run(edit: fn(&mut Linear), x: &Tensor<2>, y: &Tensor<2>, device: &Device) -> Value {
    let mut fc = make_linear(device);
    let id_before = fc.weight.id;
    edit(&mut fc);
    // region: check
    assert!(
        fc.weight.val().is_require_grad(),
        "an edited parameter must be a leaf that requires grad"
    );
    // endregion: check
    let edited = fc.weight.val();
    let (same_id, require_grad) = (fc.weight.id == id_before, edited.is_require_grad());

    let mut optim = SgdConfig::new().init();
    let (mut losses, mut with_grad) = (vec![], vec![]);
    for _ in 0..STEPS {
        let loss = (fc.forward(x.clone()) - y.clone()).powi_scalar(2).mean();
        losses.push(f64::from(loss.clone().into_scalar::<f32>()));
        let grads = GradientsParams::from_grads(loss.backward(), &fc);
        // region: check
        assert_eq!(grads.len(), list_param_ids(&fc).len(), "every parameter must get a gradient");
        // endregion: check
        with_grad.push(grads.len());
        fc = optim.step(LR, fc, grads);
    }
    let last = (fc.forward(x.clone()) - y.clone()).powi_scalar(2).mean();
    losses.push(f64::from(last.into_scalar::<f32>()));
    let weight = fc.weight.val();
    json!({
        "same_parameter_object": same_id,
        "requires_grad_after_edit": require_grad,
        "weight_after_edit": nums(edited.clone().transpose()),
        "losses": losses,
        "params_with_grad": with_grad,
        "weight": nums(weight.clone().transpose()),
        "bias": nums(fc.bias.as_ref().unwrap().val()),
        "weight_trained": !weight.inner().equal(edited.inner()).all().into_scalar::<bool>(),
    })
}

/// What `set_require_grad(true)` after a graph-recording map does: the panic message, if any.
fn require_grad_after_tracked_map(device: &Device) -> Option<String> {
    let fc = make_linear(device);
    std::panic::set_hook(Box::new(|_| {})); // keep stderr clean; the message is returned
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        fc.weight.map(|w| w * 0.5).set_require_grad(true)
    }));
    let _ = std::panic::take_hook();
    r.err().map(|e| {
        e.downcast_ref::<&str>().map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_default()
    })
}

/// What the literal ports' closures return: is the new weight a leaf that requires grad,
/// and is it recorded in the graph?
fn naive_maps(device: &Device) -> Value {
    let fc = make_linear(device);
    let scaled = fc.weight.clone().map(|w| w * 0.5).val();
    let w_new = TensorData::new(seq(OUT * IN, f64::cos, 0.2), [OUT, IN]);
    let copied = fc.weight.map(|_w| Tensor::<2>::from_data(w_new, device).transpose()).val();
    json!({
        "scale": {"is_require_grad": scaled.is_require_grad(), "is_tracked": scaled.is_tracked()},
        "copy": {"is_require_grad": copied.is_require_grad(), "is_tracked": copied.is_tracked()},
    })
}

fn main() {
    let device = Device::flex().autodiff();
    let x = Tensor::<2>::from_data(TensorData::new(seq(B * IN, f64::cos, 0.5), [B, IN]), &device);
    let y = Tensor::<2>::from_data(TensorData::new(seq(B * OUT, f64::sin, 0.3), [B, OUT]), &device);
    let out = json!({
        "config": {"in": IN, "out": OUT, "batch": B, "steps": STEPS, "lr": LR, "optimizer": "SGD"},
        "scale": run(scale, &x, &y, &device),
        "copy": run(copy, &x, &y, &device),
        "set_require_grad_after_tracked_map_panics": require_grad_after_tracked_map(&device),
        "naive_maps": naive_maps(&device),
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
