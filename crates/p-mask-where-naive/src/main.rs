//! Leaky ReLU copied from torch.where(cond, x, other): x.mask_where(cond, other).
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    let v: Vec<f32> = (1..=8).map(|k| (0.1 * k as f64 - 0.5) as f32).collect();
    let x = Tensor::<1>::from_data(TensorData::new(v, [8]), &device);

    // region: habit
    let cond = x.clone().greater_elem(0.0);
    let y = x.clone().mask_where(cond, x.clone() * 0.1);   // torch.where(x > 0, x, 0.1 * x)
    // endregion: habit

    let out = serde_json::json!({
        "y": y.try_into_vec_as::<f32>().unwrap().into_iter().map(f64::from).collect::<Vec<_>>(),
    });
    println!("{out}");
}
