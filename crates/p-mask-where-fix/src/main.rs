//! Leaky ReLU with mask_where, fixed: self is the "else" branch, value is taken where mask is true.
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let v: Vec<f32> = (1..=8).map(|k| (0.1 * k as f64 - 0.5) as f32).collect();
    let x = Tensor::<1>::from_data(TensorData::new(v, [8]), &device);

    // region: fix
    let cond = x.clone().greater_elem(0.0);
    let y = (x.clone() * 0.1).mask_where(cond, x.clone());  // torch.where(cond, x, 0.1 * x)
    // endregion: fix

    // region: check
    // a known input with a known answer: where cond holds, y must equal x
    let probe = Tensor::<1>::from_data([-1.0f32, 2.0], &device);
    let probe_y = (probe.clone() * 0.1).mask_where(probe.clone().greater_elem(0.0), probe);
    let probe_y: Vec<f32> = probe_y.try_into_vec_as::<f32>().unwrap();
    assert_eq!(probe_y[1], 2.0, "positive input must pass through unchanged");
    // endregion: check

    let out = serde_json::json!({
        "y": y.try_into_vec_as::<f32>().unwrap().into_iter().map(f64::from).collect::<Vec<_>>(),
        "probe_y": probe_y.into_iter().map(f64::from).collect::<Vec<_>>(),
    });
    println!("{out}");
}
