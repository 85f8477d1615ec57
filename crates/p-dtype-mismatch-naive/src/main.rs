//! Pitfall: mixing an F32 and an F64 tensor, ported naively from PyTorch.
//! The same program runs in a dev (debug) and a release build.
use std::panic::{self, AssertUnwindSafe};

use burn::prelude::*;
use burn::tensor::DType;
use serde_json::{json, Value};

/// Runs `f`; a panic becomes its message. The default hook is silenced meanwhile, so that
/// stderr only shows the last, uncaught panic (the matmul below).
fn caught(f: impl FnOnce() -> Value) -> Value {
    panic::set_hook(Box::new(|_| {}));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    let _ = panic::take_hook(); // back to the default hook
    match r {
        Ok(v) => json!({"panicked": false, "result": v}),
        Err(p) => {
            let message = p.downcast_ref::<String>().cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            let first_line = message.lines().next().unwrap_or_default().to_string();
            json!({"panicked": true, "message": message, "first_line": first_line})
        }
    }
}

fn describe(c: Tensor<1>) -> Value {
    let dtype = format!("{:?}", c.dtype());
    json!({"dtype": dtype, "values": c.into_data().convert::<f64>().try_to_vec::<f64>().unwrap()})
}

fn main() {
    let device = Device::flex();

    // region: input
    let a = Tensor::<1>::from_data([0.1, 0.2, 0.3, 1.0], &device); // F32, the default
    let b = Tensor::<1>::from_data([0.1, 0.2, 0.3, 1.0], (&device, DType::F64)); // F64
    // endregion: input

    // region: add
    let add = caught(|| describe(a.clone() + b.clone())); // F32 + F64
    let add_rev = caught(|| describe(b.clone() + a.clone())); // F64 + F32
    // endregion: add

    // region: f64-data
    // f64 values without a dtype: from_data converts them to the device default (F32)
    let data = TensorData::from([0.1f64, 0.2, 0.3, 1.0]);
    let c = Tensor::<1>::from_data(data, &device);
    let add_f64_data = caught(|| describe(a.clone() + c.clone()));
    // endregion: f64-data

    println!("{}", json!({
        "dtypes": {"a": format!("{:?}", a.dtype()), "b": format!("{:?}", b.dtype()),
                   "c": format!("{:?}", c.dtype())},
        "add": add, "add_rev": add_rev, "add_f64_data": add_f64_data,
        "debug_assertions": cfg!(debug_assertions),
    }));

    // region: matmul
    let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &device); // F32
    let w = Tensor::<2>::from_data([[0.5, 0.0], [0.0, 0.5]], (&device, DType::F64)); // F64
    let y = x.matmul(w);
    // endregion: matmul
    println!("{:?}", y.dtype());
}
