//! The same out-of-range select on Flex, burn's CPU backend.
use burn::prelude::*;
use serde_json::json;

fn table(device: &Device) -> Tensor<2> {
    // 4 rows (a vocabulary of 4), 3 columns; row r holds 10(r+1) + c, so no value is 0.
    let data: Vec<f32> = (0..4)
        .flat_map(|r| (0..3).map(move |c| (10 * (r + 1) + c) as f32))
        .collect();
    Tensor::<1>::from_data(data.as_slice(), device).reshape([4, 3])
}

fn main() {
    // region: habit
    let device = Device::flex();
    let table = table(&device);                                     // [4, 3]
    let ids = Tensor::<1, Int>::from_data([0, 3, 4], &device);      // 4 is one past the end
    let emb = table.clone().select(0, ids);                         // [3, 3]
    // endregion: habit

    let v = emb.into_data().try_into_vec::<f32>().unwrap();
    println!("{}", json!({"rows": v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>()}));
}
