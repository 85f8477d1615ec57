//! The last time step, fixed: slice, then squeeze the kept dimension away.
use burn::prelude::*;

const B: usize = 4;
const T: usize = 5;

fn main() {
    let device = Device::flex();
    let xv: Vec<f32> = (0..B).flat_map(|i| (0..T).map(move |t| (10 * i + t) as f32)).collect();
    let tv: Vec<f32> = (0..B).map(|i| (10 * i + T - 1) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(xv, [B, T]), &device);
    let target = Tensor::<1>::from_data(TensorData::new(tv, [B]), &device);

    // region: fix
    let last = x.slice(s![.., -1]).squeeze_dim::<1>(1);   // [B, 1] -> [B]
    let diff = last.clone() - target;                     // [B] - [B] -> [B]
    let err: f32 = diff.clone().abs().sum().into_scalar();
    // endregion: fix

    // region: check
    assert_eq!(last.dims(), [B]);
    assert_eq!(diff.dims(), [B]);
    // endregion: check

    let out = serde_json::json!({
        "last_shape": last.dims(),
        "diff_shape": diff.dims(),
        "err": f64::from(err),
    });
    println!("{out}");
}
