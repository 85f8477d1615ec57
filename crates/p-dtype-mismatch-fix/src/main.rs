//! Pitfall fix: make the dtypes equal explicitly before mixing tensors.
use burn::prelude::*;
use burn::tensor::DType;
use burn::tensor::FloatDType;
use serde_json::json;

fn nums<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().convert::<f64>().try_to_vec::<f64>().unwrap()
}

fn main() {
    let device = Device::flex();
    let a = Tensor::<1>::from_data([0.1, 0.2, 0.3, 1.0], &device); // F32
    let b = Tensor::<1>::from_data([0.1, 0.2, 0.3, 1.0], (&device, DType::F64)); // F64
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device); // F32
    let w = Tensor::<2>::from_data([[0.5, 0.0], [0.0, 0.5]], (&device, DType::F64)); // F64

    // region: fix
    let c = a.clone().cast(FloatDType::F64) + b.clone(); // what PyTorch's promotion does
    let y = x.clone().cast(FloatDType::F64).matmul(w.clone());
    // endregion: fix

    // region: check
    fn same_dtype<const D: usize>(l: &Tensor<D>, r: &Tensor<D>) -> bool {
        l.dtype() == r.dtype()
    }
    let naive_ok = same_dtype(&a, &b); // false: the naive a + b would mix dtypes
    assert!(same_dtype(&a.clone().cast(FloatDType::F64), &b));
    assert_eq!(x.clone().cast(FloatDType::F64).dtype(), w.dtype(), "matmul operands differ");
    // endregion: check

    println!("{}", json!({
        "add": {"dtype": format!("{:?}", c.dtype()), "values": nums(c)},
        "matmul": {"dtype": format!("{:?}", y.dtype()), "values": nums(y)},
        "check": {"naive_same_dtype": naive_ok},
    }));
}
