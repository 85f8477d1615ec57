//! detach() and require_grad on and off, with the gradients that come out.
use burn::prelude::*;
use serde_json::{json, Value};

fn nums(t: Tensor<1>) -> Value {
    let v: Vec<f32> = t.into_data().try_to_vec::<f32>().unwrap();
    json!(v.into_iter().map(f64::from).collect::<Vec<_>>())
}

fn main() {
    let device = Device::flex().autodiff();
    let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device).require_grad();

    // region: detach
    let y = x.clone() * x.clone(); // in the graph
    let z = y.clone().detach(); // same values, out of the graph
    let loss = (y.clone() * z.clone()).sum();
    let grads = loss.backward(); // d/dx = 2x·z = 2x³ (z counts as a constant)
    // endregion: detach
    let after_detach = json!({
        "y_is_require_grad": y.is_require_grad(),
        "y_is_tracked": y.is_tracked(),
        "y_grad_is_none": y.grad(&grads).is_none(),
        "z_is_autodiff": z.is_autodiff(),
        "z_is_require_grad": z.is_require_grad(),
        "z_is_tracked": z.is_tracked(),
        "z_grad_is_none": z.grad(&grads).is_none(),
    });
    let grad_x = x.grad(&grads).unwrap();

    // region: regrad
    let w = z.clone().detach().require_grad(); // a new leaf that wants gradients
    let loss2 = (w.clone() * x.clone()).sum();
    let grads2 = loss2.backward();
    // endregion: regrad
    let (grad_w2, grad_x2) = (w.grad(&grads2).unwrap(), x.grad(&grads2).unwrap());

    // region: off
    let x = x.set_require_grad(false); // switch a leaf off
    let loss3 = (x.clone() * x.clone()).sum();
    let off = json!({
        "x_is_require_grad": x.is_require_grad(),
        "x_is_tracked": x.is_tracked(),
        "loss3_is_tracked": loss3.is_tracked(),
    });
    // endregion: off

    println!(
        "{}",
        json!({
            "grad_x": nums(grad_x),
            "flags_detach": after_detach,
            "grad_w2": nums(grad_w2),
            "grad_x2": nums(grad_x2),
            "w_is_require_grad": w.is_require_grad(),
            "flags_off": off,
        })
    );
}
