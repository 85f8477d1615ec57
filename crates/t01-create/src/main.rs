//! Creating tensors in burn: from data, zeros, ones, arange; the default dtypes on Flex.
use burn::prelude::*;
use burn::tensor::DType;
use serde_json::{json, Map, Value};

/// Values (flattened, exact: f32 → f64) and the run-time shape of a float tensor.
fn floats<const D: usize>(t: &Tensor<D>) -> Value {
    let v: Vec<f32> = t.to_data().try_to_vec::<f32>().unwrap();
    json!({"values": v.into_iter().map(f64::from).collect::<Vec<_>>(), "shape": t.dims().to_vec()})
}

/// Values (converted to i64 whatever the stored int dtype) and shape of an int tensor.
fn ints<const D: usize>(t: &Tensor<D, Int>) -> Value {
    let v: Vec<i64> = t.to_data().try_to_vec_as::<i64>().unwrap();
    json!({"values": v, "shape": t.dims().to_vec()})
}

fn main() {
    let device = Device::flex();

    // region: from-data
    let a = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let ints_ = Tensor::<1, Int>::from_data([1, -2, 3], &device);
    let whole = Tensor::<1>::from_data([1, 2, 3], &device); // the kind comes from the type
    // endregion: from-data

    // region: fill
    let z = Tensor::<2>::zeros([2, 3], &device);
    let o = Tensor::<2>::ones([2, 3], &device);
    let zi = Tensor::<2, Int>::zeros([2, 3], &device);
    let r = Tensor::<1, Int>::arange(0..5, &device); // 0, 1, 2, 3, 4
    let r3 = Tensor::<1, Int>::arange_step(0..10, 3, &device); // step 3
    let rf = Tensor::<1, Int>::arange(0..5, &device).float();
    // endregion: fill

    // region: dtype
    let data = TensorData::new(vec![1i64, -2, 3], [3]); // i64 on the host
    let data_dtype = data.dtype();
    let from_i64 = Tensor::<1, Int>::from_data(data.clone(), &device); // device default
    let i64_ = Tensor::<1, Int>::from_data(data, (&device, DType::I64)); // explicit
    // endregion: dtype

    let mut tensors = Map::new();
    let mut dtypes = Map::new();
    let mut put = |k: &str, v: Value, d: DType| {
        tensors.insert(k.into(), v);
        dtypes.insert(k.into(), json!(format!("{d:?}")));
    };
    put("a", floats(&a), a.dtype());
    put("whole", floats(&whole), whole.dtype());
    put("z", floats(&z), z.dtype());
    put("o", floats(&o), o.dtype());
    put("rf", floats(&rf), rf.dtype());
    put("ints", ints(&ints_), ints_.dtype());
    put("zi", ints(&zi), zi.dtype());
    put("r", ints(&r), r.dtype());
    put("r3", ints(&r3), r3.dtype());
    put("i64", ints(&i64_), i64_.dtype());
    put("from_i64", ints(&from_i64), from_i64.dtype());
    let settings = device.settings();
    println!("{}", json!({
        "tensors": tensors,
        "dtypes": dtypes,
        "data_dtype": format!("{:?}", data_dtype),
        "device_defaults": {
            "float": format!("{:?}", settings.float_dtype),
            "int": format!("{:?}", settings.int_dtype),
        },
    }));
}
