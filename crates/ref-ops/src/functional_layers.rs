//! 函数式的层: the rows of experiments/reference/ref-7-ops/functional_layers.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let ad = Device::flex().autodiff();

    let w = data([5, 3], &ad).require_grad();
    let ids = ints(vec![0, 2, 4, 4, 1, 0], [2, 3], &ad);
    let y = embedding_functional::run(ids, w.clone());
    let g = gsum(&y);
    row("embedding_functional", with_y(&y, json!({"dw": grad(&w, &g)})));
    let b4 = floats(&[0.1, -0.2, 0.3, 0.0], &ad);
    row("linear_functional_naive", out(linear_functional_naive::run(data([2, 4], &ad), coef([4, 4], &ad), b4)));
    let (x, w, b) = (
        data([2, 4], &ad).require_grad(),
        coef([3, 4], &ad).require_grad(),
        floats(&[0.1, -0.2, 0.3], &ad).require_grad(),
    );
    let y = linear_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("linear_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));
    let (x, w, b) = (
        data([3, 4], &ad).require_grad(),
        (coef([4], &ad) + 1.0).detach().require_grad(),
        wave([4], &ad).require_grad(),
    );
    let y = layer_norm_functional::run(x.clone(), w.clone(), b.clone());
    let g = gsum(&y);
    row("layer_norm_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));
    let (x, w, b) = (
        data([4, 3], &ad).require_grad(),
        (coef([3], &ad) + 1.0).detach().require_grad(),
        wave([3], &ad).require_grad(),
    );
    let (rm, rv) = (floats(&[0.1, -0.1, 0.2], &ad), floats(&[0.5, 1.5, 0.8], &ad));
    let y = batch_norm_functional::run(x.clone(), rm, rv, w.clone(), b.clone());
    let g = gsum(&y);
    row("batch_norm_functional", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g), "db": grad(&b, &g)})));
    let (x, w) = (data([3, 4], &ad).require_grad(), (coef([4], &ad) + 1.0).detach().require_grad());
    let y = rms_norm::run(x.clone(), w.clone());
    let g = gsum(&y);
    row("rms_norm", with_y(&y, json!({"dx": grad(&x, &g), "dw": grad(&w, &g)})));
    let x = data([3, 4], &ad).require_grad();
    let y = normalize::run(x.clone());
    let g = gsum(&y);
    row("normalize", with_y(&y, json!({"dx": grad(&x, &g)})));
    let x = data([3, 4], &ad).require_grad();
    let y = glu::run(x.clone());
    let g = gsum(&y);
    row("glu", with_y(&y, json!({"dx": grad(&x, &g)})));
}

mod embedding_functional {
    use burn::prelude::*;
    use burn::tensor::module::embedding;

    // 参数顺序和 F.embedding(ids, w) 相反：先权重 [词数, 维数]，后下标 [batch, seq]
    pub fn run(ids: Tensor<2, Int>, w: Tensor<2>) -> Tensor<3> {
        embedding(w, ids)
    }
}

mod linear_functional_naive {
    use burn::prelude::*;
    use burn::tensor::module::linear;

    // w 照搬 PyTorch 的 [out, in]（这里是方阵，所以不报错）
    pub fn run(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        linear(x, w, Some(b))
    }
}

mod linear_functional {
    use burn::prelude::*;
    use burn::tensor::module::linear;

    // burn 的 linear 算 x @ w + b，w 是 [in, out]；PyTorch 的 w 是 [out, in]，先转置
    pub fn run(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        linear(x, w.transpose(), Some(b))
    }
}

mod layer_norm_functional {
    use burn::prelude::*;
    use burn::tensor::module::layer_norm;

    // 在最后一维上归一化
    pub fn run(x: Tensor<2>, w: Tensor<1>, b: Tensor<1>) -> Tensor<2> {
        layer_norm(x, w, Some(b), 1e-5)
    }
}

mod batch_norm_functional {
    use burn::prelude::*;
    use burn::tensor::module::batch_norm;

    // 参数顺序和 F.batch_norm 不同：burn 先 gamma、beta，后 mean、var（类型都是 Tensor<1>，写错不会报错）
    pub fn run(
        x: Tensor<2>,
        running_mean: Tensor<1>,
        running_var: Tensor<1>,
        w: Tensor<1>,
        b: Tensor<1>,
    ) -> Tensor<2> {
        batch_norm(x, w, b, running_mean, running_var, 1e-5)
    }
}

mod rms_norm {
    use burn::prelude::*;

    // 没有函数式的 rms_norm（模块是 burn::nn::RmsNorm）：x / sqrt(mean(x²) + eps) · w
    pub fn run(x: Tensor<2>, w: Tensor<1>) -> Tensor<2> {
        let rms = (x.clone().powi_scalar(2).mean_dim(1) + 1e-6).sqrt();
        x / rms * w.unsqueeze::<2>()
    }
}

mod normalize {
    use burn::prelude::*;

    // F.normalize(x, dim=1)：x / max(‖x‖₂, 1e-12)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        let norm = x.clone().powi_scalar(2).sum_dim(1).sqrt();
        x / norm.clamp_min(1e-12)
    }
}

mod glu {
    use burn::prelude::*;
    use burn::tensor::activation::glu;

    // 前一半 · sigmoid(后一半)
    pub fn run(x: Tensor<2>) -> Tensor<2> {
        glu(x, -1)
    }
}
