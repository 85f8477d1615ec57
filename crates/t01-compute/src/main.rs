//! Computing with burn tensors on Flex: elementwise ops, broadcasting, matmul, reductions.
use burn::prelude::*;
use serde_json::{json, Value};

fn flat<const D: usize>(t: &Tensor<D>) -> Value {
    let v: Vec<f32> = t.to_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn flat_int<const D: usize>(t: &Tensor<D, Int>) -> Value {
    json!(t.to_data().try_to_vec_as::<i64>().unwrap())
}

fn main() {
    let device = Device::flex();
    let a = Tensor::<2>::from_data([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], &device);

    // region: elementwise
    let b = Tensor::<2>::from_data([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], &device);
    let add = a.clone() + b.clone(); // operators take ownership: clone what you reuse
    let mul = a.clone() * b.clone();
    let div = a.clone() / b;
    let affine = a.clone() * 2.0 + 1.0;
    let exp = (-a.clone()).exp();
    // endregion: elementwise

    // region: broadcast
    let row = Tensor::<1>::from_data([10.0, 20.0, 30.0], &device); // shape [3]
    let col = Tensor::<2>::from_data([[1.0], [2.0]], &device); // shape [2, 1]
    let row2 = row.unsqueeze::<2>(); // [3] -> [1, 3]: the ranks must agree
    let a_row = a.clone() + row2.clone(); // [2, 3] + [1, 3]
    let a_col = a.clone() + col.clone(); // [2, 3] + [2, 1]
    let outer = col * row2; // [2, 1] * [1, 3] -> [2, 3]
    // endregion: broadcast

    // region: matmul
    let w = Tensor::<2>::from_data([[1.0, 0.0], [0.5, -1.0], [2.0, 0.25]], &device); // [3, 2]
    let y = a.clone().matmul(w.clone()); // [2, 2]
    let batch = Tensor::stack::<3>(vec![a.clone(), a.clone() * 2.0], 0); // [2, 2, 3]
    let yb = batch.matmul(w.unsqueeze::<3>()); // [2, 2, 3] @ [1, 3, 2]
    // endregion: matmul

    // region: reduce
    let total = a.clone().sum(); // all elements
    let col_sums = a.clone().sum_dim(0); // one per column
    let row_means = a.clone().mean_dim(1);
    let row_means_flat = a.clone().mean_dim(1).squeeze_dim::<1>(1); // like torch's default
    let best = a.clone().argmax(1); // index of the max in each row
    let row_max = a.clone().max_dim(1);
    // endregion: reduce

    println!("{}", json!({
        "elementwise": {"add": flat(&add), "mul": flat(&mul), "div": flat(&div),
                        "affine": flat(&affine), "exp": flat(&exp)},
        "broadcast": {"a_row": flat(&a_row), "a_col": flat(&a_col), "outer": flat(&outer)},
        "broadcast_shapes": {"a_row": a_row.dims().to_vec(), "a_col": a_col.dims().to_vec(),
                             "outer": outer.dims().to_vec()},
        "matmul": {"y": flat(&y), "yb": flat(&yb)},
        "matmul_shapes": {"y": y.dims().to_vec(), "yb": yb.dims().to_vec()},
        "reduce": {"total": flat(&total), "col_sums": flat(&col_sums),
                   "row_means": flat(&row_means), "row_means_keep": flat(&row_means),
                   "best": flat_int(&best), "row_max": flat(&row_max)},
        "reduce_shapes": {"total": total.dims().to_vec(), "col_sums": col_sums.dims().to_vec(),
                          "row_means": row_means.dims().to_vec(),
                          "row_means_flat": row_means_flat.dims().to_vec(),
                          "best": best.dims().to_vec(), "row_max": row_max.dims().to_vec()},
        "reduce_dtypes": {"best": format!("{:?}", best.dtype())},
    }));
}
