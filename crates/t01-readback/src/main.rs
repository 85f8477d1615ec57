//! Reading burn tensors back to the host: into_data, try_to_vec, into_scalar.
use burn::prelude::*;
use serde_json::json;

fn main() {
    let device = Device::flex();

    // region: readback
    let t = Tensor::<2>::from_data([[1.5, -2.0], [3.25, 4.0]], &device);
    let data: TensorData = t.clone().into_data(); // bytes + shape + dtype, on the host
    let shape = data.shape().to_vec();
    let flat: Vec<f32> = data.try_to_vec::<f32>().unwrap(); // was data.to_vec() before 0.22
    let total: f32 = t.clone().sum().into_scalar(); // one element -> an f32
    let idx = Tensor::<1, Int>::from_data([3, -1, 4], &device); // stored as I32 on Flex
    let idx_i32: Vec<i32> = idx.to_data().try_to_vec::<i32>().unwrap();
    let idx_i64: Vec<i64> = idx.to_data().try_to_vec_as::<i64>().unwrap(); // converts
    let first: i64 = idx.clone().slice([0..1]).into_scalar::<i64>(); // converts too
    // endregion: readback

    // region: errors
    let wrong_type = idx.to_data().try_to_vec::<i64>(); // no conversion: Err
    let not_scalar = t.clone().try_into_scalar::<f32>(); // four elements: Err
    // endregion: errors

    println!("{}", json!({
        "flat": flat.iter().map(|&x| f64::from(x)).collect::<Vec<_>>(),
        "shape": shape,
        "total": f64::from(total),
        "idx": idx_i64,
        "idx_i32": idx_i32,
        "first": first,
        "dtype": format!("{:?}", data.dtype()),
        "idx_dtype": format!("{:?}", idx.dtype()),
        "wrong_type": format!("{:?}", wrong_type),
        "item_error": format!("{:?}", not_scalar),
    }));
}
