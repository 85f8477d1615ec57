//! The rank is part of a burn tensor's type: a Tensor<3> does not pass where Tensor<2> is asked.
use burn::prelude::*;

// region: rank
/// One sum per row of a [rows, cols] matrix.
fn row_sums(x: Tensor<2>) -> Tensor<1> {
    x.sum_dim(1).squeeze_dim::<1>(1)
}

fn main() {
    let device = Device::flex();
    let m = Tensor::<2>::ones([2, 4], &device);
    let batch = Tensor::<3>::ones([3, 2, 4], &device); // one dimension too many, by mistake
    println!("{:?} {:?}", row_sums(m).dims(), row_sums(batch).dims());
}
// endregion: rank
