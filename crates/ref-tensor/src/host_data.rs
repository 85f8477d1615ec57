//! 与主机数据: the rows of experiments/reference/ref-1-tensor/host_data.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn host(v: Vec<f32>) -> Value {
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let v: Vec<f32> = (0..6).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    row("from_list", out(from_list::run(v.clone(), &d)));
    row("from_numpy", out(from_numpy::run(v, &d)));
    row("tolist", json!({"v": host(tolist::run(data([2, 3], &d)))}));
    let nested = tolist_nested::run(data([2, 3], &d));
    row("tolist_nested", json!({"v": nested.into_iter().map(host).collect::<Vec<_>>()}));
    row("numpy_flat", json!({"v": host(numpy_flat::run(data([2, 3], &d)))}));
    row("item", scalar(item::run(data([3, 4], &d))));
    row("item_int", json!({"v": item_int::run(&d)}));
}

mod from_list {
    use burn::prelude::*;

    pub fn run(v: Vec<f32>, d: &Device) -> Tensor<2> {
        Tensor::<2>::from_data(TensorData::new(v, [2, 3]), d)
    }
}

mod from_numpy {
    use burn::prelude::*;

    // 没有 from_numpy：主机上的 Vec 加上形状
    pub fn run(v: Vec<f32>, d: &Device) -> Tensor<2> {
        Tensor::<2>::from_data(TensorData::new(v, [2, 3]), d)
    }
}

mod tolist {
    use burn::prelude::*;

    // 扁平的 Vec，按行优先
    pub fn run(x: Tensor<2>) -> Vec<f32> {
        x.to_data().try_to_vec::<f32>().unwrap()
    }
}

mod tolist_nested {
    use burn::prelude::*;

    // 扁平的 Vec 按行切开
    pub fn run(x: Tensor<2>) -> Vec<Vec<f32>> {
        let [_, cols] = x.dims();
        let flat = x.to_data().try_to_vec::<f32>().unwrap();
        flat.chunks(cols).map(|r| r.to_vec()).collect()
    }
}

mod numpy_flat {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> Vec<f32> {
        let data = x.to_data();
        data.as_slice::<f32>().unwrap().to_vec()
    }
}

mod item {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>) -> f32 {
        x.sum().into_scalar::<f32>()
    }
}

mod item_int {
    use burn::prelude::*;

    pub fn run(d: &Device) -> i64 {
        Tensor::<1, Int>::arange(0..5, d).sum().into_scalar::<i64>()
    }
}
