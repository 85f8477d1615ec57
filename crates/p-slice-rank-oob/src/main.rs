//! An integer index past the end, copied from PyTorch: s![5] on 4 rows.
use burn::prelude::*;

const B: usize = 4;
const T: usize = 5;

fn main() {
    let device = Device::flex();
    let x = Tensor::<2>::ones([B, T], &device);

    // region: habit
    let row = x.slice(s![5]);     // only rows 0..3 exist
    let total: f32 = row.clone().sum().into_scalar();
    // endregion: habit

    let out = serde_json::json!({
        "row_shape": row.dims(),
        "row_numel": row.shape().num_elements(),
        "row_sum": f64::from(total),
    });
    println!("{out}");
}
