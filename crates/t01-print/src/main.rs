//! Printing burn tensors: println!("{t}") shows the values and the tensor's metadata.
use burn::prelude::*;
use burn::tensor::IntDType;

fn main() {
    let device = Device::flex();
    // region: print
    let a = Tensor::<2>::from_data([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], &device);
    let idx = Tensor::<1, Int>::from_data([3, -1, 4], &device);
    let small = Tensor::<1>::from_data([1.0e-3, 2.5, -7.125], &device);
    let long = Tensor::<1, Int>::arange(0..2000, &device).float(); // more than 1000 elements
    println!("{a}");
    println!("{idx}");
    println!("{small}");
    println!("{long}");
    println!("{}", idx.cast(IntDType::I64)); // not the default int dtype
    // endregion: print
}
