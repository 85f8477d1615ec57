//! float_width_lock.py ported line by line: the device is configured to F64 after a tensor
//! already exists on it. Expected to panic: the first tensor locked the defaults to F32.
use burn::prelude::*;
use burn::tensor::FloatDType;

fn main() {
    // region: main
    let mut device = Device::flex();
    let pre = Tensor::<1>::ones([4], &device); // created first: locks the defaults (F32)
    device.configure(FloatDType::F64).unwrap(); // torch.set_default_dtype(torch.float64)
    let a = Tensor::<1>::full([4], 0.1, &device);
    let b = a.clone().mul_scalar(3.0).sub_scalar(0.3);
    // endregion: main
    println!("{:?} {:?} {}", pre.dtype(), a.dtype(), b);
}
