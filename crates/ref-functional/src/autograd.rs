//! 自动求导: the rows of experiments/reference/ref-2-functional/autograd.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let (rg, gx) = requires_grad::run(data([6], &ad));
    row("requires_grad", json!({"require_grad": rg, "grad": nums(gx)}));
    let (f, gx) = backward_scalar::run(data([2, 3], &ad), coef([2, 3], &ad));
    row("backward_scalar", json!({"f": nums(f), "shape": gx.dims(), "grad": nums(gx)}));
    row("backward_nonscalar", json!({"grad": nums(backward_nonscalar::run(data([4], &ad)))}));
    let (has, gx) = constant_grad::run(data([3], &ad), coef([3], &ad));
    row("constant_grad", json!({"c_has_grad": has, "grad": nums(gx)}));
    let gx = autograd_grad::run(data([2, 3], &ad), coef([2, 3], &ad));
    row("autograd_grad", json!({"grad_tracked": gx.is_autodiff(), "grad": nums(gx)}));
    let (gx, after) = grad_remove::run(data([3], &ad));
    row("grad_remove", json!({"after": after, "grad": nums(gx)}));
    let (wrg, whg, gx) = module_freeze::run(linear(&ad), data([2, 3], &ad));
    row("module_freeze", json!({"weight_require_grad": wrg, "weight_has_grad": whg, "x_grad": nums(gx)}));
    let (has, gx) = nonleaf_grad::run(data([3], &ad));
    row("nonleaf_grad", json!({"y_has_grad": has, "x_grad": nums(gx)}));
    let (gx, gy) = retain_grad::run(data([3], &ad));
    row("retain_grad", json!({"x_grad": nums(gx), "y_grad": nums(gy)}));
    let y = no_grad::run(data([3], &ad).require_grad(), coef([3], &Device::flex()));
    row("no_grad", json!({"tracked": y.is_autodiff(), "v": nums(y)}));
    let (zrg, gx) = detach::run(Tensor::<1>::from_floats([1.0, 2.0, 3.0], &ad));
    row("detach", json!({"z_require_grad": zrg, "grad": nums(gx)}));
    let (rg, tracked) = requires_grad_false::run(data([3], &ad));
    row("requires_grad_false", json!({"require_grad": rg, "tracked": tracked}));
}

// ================================================================ autograd

mod requires_grad {
    use burn::prelude::*;

    // x 要在 autodiff 设备上（如 Device::flex().autodiff()）才能 require_grad
    pub fn run(x: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let g = (x.clone() * x.clone()).sum().backward();
        (x.is_require_grad(), x.grad(&g).unwrap())
    }
}

mod backward_scalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<2>, c: Tensor<2>) -> (Tensor<1>, Tensor<2>) {
        let x = x.require_grad();
        let f = (x.clone().tanh() * c).sum();
        let g = f.backward();
        let gx = x.grad(&g).unwrap();
        (f, gx)
    }
}

mod backward_nonscalar {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> Tensor<1> {
        let x = x.require_grad();
        let y = x.clone() * x.clone() * x.clone();
        // y 不是标量：burn 以全 1 为种子，等于 torch 的 y.backward(torch.ones_like(y))
        let g = y.backward();
        x.grad(&g).unwrap()
    }
}

mod constant_grad {
    use burn::prelude::*;

    // c 没有 require_grad：它是常数，backward 之后没有梯度
    pub fn run(x: Tensor<1>, c: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let g = (x.clone() * c.clone()).sum().backward();
        (c.grad(&g).is_some(), x.grad(&g).unwrap())
    }
}

mod autograd_grad {
    use burn::prelude::*;

    // 没有 autograd.grad：backward() 返回所有叶子的梯度，取需要的那一个
    pub fn run(x: Tensor<2>, c: Tensor<2>) -> Tensor<2> {
        let x = x.require_grad();
        let f = (x.clone().tanh() * c).sum();
        x.grad(&f.backward()).unwrap()
    }
}

mod grad_remove {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> (Tensor<1>, bool) {
        let x = x.require_grad();
        let mut g = (x.clone() * x.clone()).sum().backward();
        let gx = x.grad_remove(&mut g).unwrap();
        (gx, x.grad(&g).is_some())
    }
}

mod nonleaf_grad {
    use burn::prelude::*;

    // y 是中间结果：y.grad(&g) 是 None，x 照常有梯度
    pub fn run(x: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let y = x.clone() * 2.0;
        let g = (y.clone() * y.clone()).sum().backward();
        (y.grad(&g).is_some(), x.grad(&g).unwrap())
    }
}

mod retain_grad {
    use burn::prelude::*;

    // burn 没有 retain_grad：中间结果的 grad() 总是 None，对它 require_grad() 会 panic。
    // 在 y 上加一个全零的叶子 dy：y 的数值不变，图没有断，dy 的梯度就是 y 的梯度。
    pub fn run(x: Tensor<1>) -> (Tensor<1>, Tensor<1>) {
        let x = x.require_grad();
        let dy = x.zeros_like().require_grad();
        let y = x.clone() * 2.0 + dy.clone();
        let g = (y.clone() * y).sum().backward();
        (x.grad(&g).unwrap(), dy.grad(&g).unwrap())
    }
}

mod no_grad {
    use burn::prelude::*;

    // torch.no_grad() 块里的运算：inner() 把 w 移出 autodiff，c 在普通设备上，
    // 结果不进计算图
    pub fn run(w: Tensor<1>, c: Tensor<1>) -> Tensor<1> {
        w.inner() * c
    }
}

mod detach {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> (bool, Tensor<1>) {
        let x = x.require_grad();
        let y = x.clone() * x.clone();
        let z = y.clone().detach();
        let g = (y * z.clone()).sum().backward();
        (z.is_require_grad(), x.grad(&g).unwrap())
    }
}

mod requires_grad_false {
    use burn::prelude::*;

    pub fn run(x: Tensor<1>) -> (bool, bool) {
        let x = x.require_grad().set_require_grad(false);
        let y = x.clone() * x.clone();
        (x.is_require_grad(), y.is_tracked())
    }
}

mod module_freeze {
    use burn::nn::Linear;
    use burn::prelude::*;

    pub fn run(lin: Linear, x: Tensor<2>) -> (bool, bool, Tensor<2>) {
        let lin = lin.no_grad();
        let x = x.require_grad();
        let g = lin.forward(x.clone()).sum().backward();
        let weight_has_grad = lin.weight.val().grad(&g).is_some();
        (lin.weight.is_require_grad(), weight_has_grad, x.grad(&g).unwrap())
    }
}
