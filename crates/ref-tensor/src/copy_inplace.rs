//! 复制与就地运算: the rows of experiments/reference/ref-1-tensor/copy_inplace.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    row("clone", out(clone::run(data([2, 3], &d))));
    row("new_zeros", out(new_zeros::run(data([2, 3], &d))));
    row("expand_as", out(expand_as::run(data([3, 1], &d), data([3, 4], &d))));
    row("add_inplace", out(add_inplace::run(data([2, 3], &d), data([2, 3], &d).mul_scalar(2.0))));
    row("mul_inplace", out(mul_inplace::run(data([2, 3], &d))));
    row("copy_inplace", out(copy_inplace::run(data([2, 3], &d), data([2, 3], &d).neg())));
}

mod clone {
    use burn::prelude::*;

    // burn 的运算不改动参数，clone 出来的和原来的各是各的值
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        x.clone()
    }
}

mod new_zeros {
    use burn::prelude::*;

    // 和 x 在同一个设备上的零张量
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        Tensor::zeros([2, 5], &x.device())
    }
}

mod expand_as {
    use burn::prelude::*;

    // 按另一个张量的形状扩展：expand 收 Shape
    pub fn run(b: Tensor<2>, a: Tensor<2>) -> Tensor<2> {
        b.expand(a.shape())
    }
}

mod add_inplace {
    use burn::prelude::*;

    // 没有就地的 add_：x = x + y，旧的 x 被移走
    pub fn run(x: Tensor<2>, y: Tensor<2>) -> Tensor<2> {
        let x = x + y;
        x
    }
}

mod mul_inplace {
    use burn::prelude::*;

    // 没有就地的 mul_：x = x * 0.5
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let x = x.mul_scalar(0.5);
        x
    }
}

mod copy_inplace {
    use burn::prelude::*;

    // 没有就地的 copy_：x 绑到 y 的值上（形状相同；y 还要用就传 y.clone()）
    pub fn run(x: Tensor<2>, y: Tensor<2>) -> Tensor<2> {
        assert_eq!(x.dims(), y.dims());
        let x = y;
        x
    }
}
