//! matmul of [2, 3] by [2, 3]: the inner dimensions do not agree.
use burn::prelude::*;

fn main() {
    let device = Device::flex();
    // region: naive
    let a = Tensor::<2>::ones([2, 3], &device);
    let b = Tensor::<2>::ones([2, 3], &device);
    let c = a.matmul(b); // forgot .transpose()
    // endregion: naive
    println!("{:?}", c.dims());
}
