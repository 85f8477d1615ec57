//! backward() on an output of model.valid().
use burn::module::Param;
use burn::nn::Linear;
use burn::prelude::*;

fn main() {
    let device = Device::flex().autodiff();
    let w: Vec<f32> = (0..12).map(|k| (0.5 * ((k + 1) as f64).sin()) as f32).collect();
    let model = Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(TensorData::new(w, [3, 4]), &device).transpose()),
        bias: Some(Param::from_tensor(Tensor::<1>::zeros([3], &device))),
    };
    let x: Vec<f32> = (0..8).map(|k| (0.1 * (k + 1) as f64 - 0.5) as f32).collect();
    let x = Tensor::<2>::from_data(TensorData::new(x, [2, 4]), &device);

    // region: backward
    let model = model.valid();
    let out = model.forward(x.inner());
    let loss = out.sum();
    let _grads = loss.backward(); // panics: nothing was recorded
    // endregion: backward
}
