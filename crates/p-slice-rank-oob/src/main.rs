//! Past the end, copied from PyTorch: the range s![2..9] and the integer index s![5] on 4 rows.
use burn::prelude::*;

const B: usize = 4;
const T: usize = 5;

fn main() {
    let device = Device::flex();
    let x = Tensor::<2>::ones([B, T], &device);

    // region: range
    let rows = x.clone().slice(s![2..9]); // a range past the end: rows 2..4 remain
    // endregion: range

    // region: habit
    let row = x.slice(s![5]);     // only rows 0..3 exist
    let total: f32 = row.clone().sum().into_scalar();
    // endregion: habit

    let out = serde_json::json!({
        "row_shape": row.dims(),
        "row_numel": row.shape().num_elements(),
        "row_sum": f64::from(total),
        "range_shape": rows.dims(),
    });
    println!("{out}");
}
