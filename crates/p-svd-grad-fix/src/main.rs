//! The fix: run linalg::svd on the inner (non-autodiff) device, no gradient through the SVD
//! itself (detach() is not enough: a detached leaf keeps require_grad), then
//! rebuild the singular values from differentiable ops, s_i = u_i^T A v_i, with U and V
//! held constant. Its gradient is u_i v_i^T, the same first-order gradient as PyTorch's.
use burn::linalg::svd;
use burn::prelude::*;
use serde_json::{json, Value};

const M: usize = 4;
const N: usize = 3;

fn flat<const R: usize>(t: Tensor<R>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn scalar(t: Tensor<1>) -> f64 {
    f64::from(t.into_data().try_to_vec::<f32>().unwrap()[0])
}

fn main() {
    let device = Device::flex().autodiff();
    // A[k] = sin((k + 1)^2), row-major [M, N]: full rank, distinct singular values
    let data: Vec<f32> = (0..M * N).map(|k| ((k + 1) as f64).powi(2).sin() as f32).collect();
    let a = Tensor::<2>::from_data(TensorData::new(data, [M, N]), &device).require_grad();

    // region: svd
    let a_const = a.clone().inner(); // off the autodiff device: linalg::svd accepts it
    // region: check
    assert!(!a_const.is_require_grad(), "linalg::svd input must not require grad");
    // endregion: check
    let (svd_input_requires_grad, svd_input_is_autodiff) =
        (a_const.is_require_grad(), a_const.is_autodiff());
    let (u, s_svd, vt) = svd::<2, 1>(a_const, 100);
    // back on the autodiff device as constants (no require_grad, no graph)
    let (u, s_svd, vt) = (u.autodiff(), s_svd.autodiff(), vt.autodiff());
    let v = vt.clone().transpose();
    // s_i = u_i^T A v_i: same values as s_svd, but built from ops that have a gradient
    let s = (u.clone() * a.clone().matmul(v)).sum_dim(0).reshape([N]);
    let loss = s.clone().sum(); // nuclear norm
    let grads = loss.backward();
    let grad_a = a.grad(&grads).unwrap(); // = U @ Vt
    // endregion: svd

    // What the panic message suggests: detach() keeps require_grad on a leaf.
    let detached = a.clone().detach();
    let detach_keeps_require_grad = detached.is_require_grad();
    std::panic::set_hook(Box::new(|_| {}));
    let svd_on_detached = std::panic::catch_unwind(|| svd::<2, 1>(detached, 100));
    let _ = std::panic::take_hook();
    let svd_on_detached_panic = match svd_on_detached {
        Ok(_) => Value::Null,
        Err(e) => json!(e.downcast_ref::<&str>().map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())),
    };

    let s_gap = scalar((s.clone() - s_svd.clone()).abs().max());
    let grad_vs_u_vt = scalar((grad_a.clone() - u.matmul(vt)).abs().max());
    let out = json!({
        "dims": a.dims(),
        "s": flat(s),
        "s_svd": flat(s_svd),
        "loss": scalar(loss),
        "grad_a": flat(grad_a),
        "input_requires_grad": a.is_require_grad(),
        "svd_input_requires_grad": svd_input_requires_grad,
        "svd_input_is_autodiff": svd_input_is_autodiff,
        "detach_keeps_require_grad": detach_keeps_require_grad,
        "svd_on_detached_panic": svd_on_detached_panic,
        "max_abs_s_minus_s_svd": s_gap,
        "max_abs_grad_minus_u_vt": grad_vs_u_vt,
    });
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}
