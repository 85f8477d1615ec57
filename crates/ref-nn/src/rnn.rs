//! 循环网络: the rows of experiments/reference/ref-3-nn/rnn.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

/// The gradients of the gates' weights, stacked back into PyTorch's [n·h, in] order.
fn stacked_grads(gates: &[&GateController], g: &Gradients) -> (Vec<f64>, Vec<f64>) {
    let ih: Vec<Tensor<2>> = gates.iter().map(|c| c.input_transform.weight.val().grad(g).unwrap().transpose()).collect();
    let hh: Vec<Tensor<2>> = gates.iter().map(|c| c.hidden_transform.weight.val().grad(g).unwrap().transpose()).collect();
    (flat(Tensor::cat(ih, 0)), flat(Tensor::cat(hh, 0)))
}

fn lstm_gates(l: &Lstm) -> [&GateController; 4] {
    [&l.input_gate, l.forget_gate.as_ref().unwrap(), &l.cell_gate, &l.output_gate]
}

/// Step `step` of a [batch, seq, h] output (or [seq, batch, h] with dim 1 = batch): [batch, h].
fn step_of(y: &Tensor<3>, step: usize, seq_dim: usize) -> Tensor<2> {
    let [a, b, h] = y.dims();
    if seq_dim == 1 {
        y.clone().slice([0..a, step..step + 1, 0..h]).reshape([a, h])
    } else {
        y.clone().slice([step..step + 1, 0..b, 0..h]).reshape([b, h])
    }
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let ad = Device::flex().autodiff();
    {
        let mut m = rnn::build(&ad);
        TorchRnn::new(1, 3, 4).set_rnn(&mut m, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = rnn::forward(&m, x.clone());
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&[&m.gate], &g);
        row("rnn", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(state.hidden)}));
    }
    {
        let mut m = lstm::build(&ad);
        TorchRnn::new(4, 3, 4).set_lstm(&mut m, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = lstm::forward(&m, x.clone());
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&lstm_gates(&m), &g);
        row("lstm", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(state.hidden), "c_n": flat(state.cell)}));
    }
    {
        let mut m = gru::build(&ad);
        TorchRnn::new(3, 3, 4).set_gru(&mut m, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let y = gru::forward(&m, x.clone());
        let g = backward(&y);
        let (dw_ih, dw_hh) = stacked_grads(&[&m.reset_gate, &m.update_gate, &m.new_gate], &g);
        row("gru", json!({"y": flat(y.clone()), "dx": grad(&x, &g), "dw_ih": dw_ih, "dw_hh": dw_hh,
            "shape": y.dims(), "h_n": flat(step_of(&y, 4, 1))}));
    }
    {
        let mut m = lstm_seq_first::build(&d);
        TorchRnn::new(4, 3, 4).set_lstm(&mut m, &d);
        let (y, _) = lstm_seq_first::forward(&m, data([5, 2, 3], 0.0, &d) * 2.0);
        row("lstm_seq_first", y_shape(y));
    }
    {
        // [seq, batch, d] like PyTorch's default; h_n is PyTorch's [1, batch, h].
        let mut m = rnn_seq_first::build(&ad);
        TorchRnn::new(1, 3, 4).set_rnn(&mut m, &ad);
        let x = input(data([5, 2, 3], 0.0, &d) * 2.0, &ad);
        let (y, state) = rnn_seq_first::forward(&m, x.clone());
        let g = backward(&y);
        row("rnn_seq_first", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(state.hidden),
            "dx": grad(&x, &g)}));

        let mut m = gru_seq_first::build(&ad);
        TorchRnn::new(3, 3, 4).set_gru(&mut m, &ad);
        let x = input(data([5, 2, 3], 0.0, &d) * 2.0, &ad);
        let y = gru_seq_first::forward(&m, x.clone());
        let g = backward(&y);
        row("gru_seq_first", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(step_of(&y, 4, 0)),
            "dx": grad(&x, &g)}));
    }
    {
        // torch's l1 has phases 50..80.
        let mut layers = lstm_num_layers::build(&ad);
        TorchRnn::at(4, 3, 4, 0.0).set_lstm(&mut layers[0], &ad);
        TorchRnn::at(4, 4, 4, 40.0).set_lstm(&mut layers[1], &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, h_n, c_n) = lstm_num_layers::forward(&layers, x.clone());
        let g = backward(&y);
        row("lstm_num_layers", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h_n),
            "c_n": flat(c_n), "dx": grad(&x, &g)}));
    }
    {
        // torch's l0 (phases 10..40) → forward, l0_reverse (50..80) → reverse.
        let mut bi = lstm_bidirectional::build(&ad);
        TorchRnn::at(4, 3, 4, 0.0).set_lstm(&mut bi.forward, &ad);
        TorchRnn::at(4, 3, 4, 40.0).set_lstm(&mut bi.reverse, &ad);
        let x = input(data([2, 5, 3], 0.0, &d) * 2.0, &ad);
        let (y, s) = lstm_bidirectional::forward(&bi, x.clone());
        let g = backward(&y);
        row("lstm_bidirectional", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(s.hidden),
            "c_n": flat(s.cell), "dx": grad(&x, &g)}));
    }
    {
        // torch's phases: weight_ih 10, weight_hh 20, bias_ih 30, bias_hh 40, weight_hr 50.
        let (y, h, c) = lstm_proj_size::forward(data([2, 5, 3], 0.0, &d) * 2.0, data([16, 3], 10.0, &d),
            data([16, 2], 20.0, &d), data([16], 30.0, &d), data([16], 40.0, &d), data([2, 4], 50.0, &d));
        row("lstm_proj_size", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h), "c_n": flat(c)}));
    }
    {
        let x = data([2, 3], 0.0, &d) * 2.0;
        let h0 = data([2, 4], 80.0, &d);
        let mut m = rnn_cell::build(&d);
        TorchRnn::new(1, 3, 4).set_rnn(&mut m, &d);
        row("rnn_cell", json!({"h": flat(rnn_cell::forward(&m, x.clone(), h0.clone()))}));

        let mut m = lstm_cell::build(&d);
        TorchRnn::new(4, 3, 4).set_lstm(&mut m, &d);
        let (h, c) = lstm_cell::forward(&m, x.clone(), h0.clone(), data([2, 4], 90.0, &d));
        row("lstm_cell", json!({"h": flat(h), "c": flat(c)}));

        let mut m = gru_cell::build(&d);
        TorchRnn::new(3, 3, 4).set_gru(&mut m, &d);
        row("gru_cell", json!({"h": flat(gru_cell::forward(&m, x, h0))}));
    }
}

mod rnn {
    use burn::nn::{Rnn, RnnConfig, RnnState};
    use burn::prelude::*;

    // batch_first 默认 true；权重在 gate（一个 GateController）的 input_transform、hidden_transform 里
    pub fn build(d: &Device) -> Rnn {
        RnnConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &Rnn, x: Tensor<3>) -> (Tensor<3>, RnnState<2>) {
        m.forward(x, None)
    }
}

mod lstm {
    use burn::nn::{Lstm, LstmConfig, LstmState};
    use burn::prelude::*;

    // 每个门一个 GateController：input_gate, forget_gate, cell_gate, output_gate
    // （PyTorch 把 i, f, g, o 堆叠在 weight_ih_l0 里）
    pub fn build(d: &Device) -> Lstm {
        LstmConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &Lstm, x: Tensor<3>) -> (Tensor<3>, LstmState<2>) {
        m.forward(x, None)
    }
}

mod gru {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    // reset_gate, update_gate, new_gate（PyTorch 按 r, z, n 堆叠）；
    // reset_after 默认 true，就是 PyTorch 的 n = tanh(W_in x + b_in + r · (W_hn h + b_hn))
    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    // 返回每个时间步的隐状态；最后一步就是 PyTorch 的 h_n
    pub fn forward(m: &Gru, x: Tensor<3>) -> Tensor<3> {
        m.forward(x, None)
    }
}

mod lstm_seq_first {
    use burn::nn::{Lstm, LstmConfig, LstmState};
    use burn::prelude::*;

    // 输入 [seq, batch, d]，和 PyTorch 的默认一样
    pub fn build(d: &Device) -> Lstm {
        LstmConfig::new(3, 4, true).with_batch_first(false).init(d)
    }

    pub fn forward(m: &Lstm, x: Tensor<3>) -> (Tensor<3>, LstmState<2>) {
        m.forward(x, None)
    }
}

mod rnn_seq_first {
    use burn::nn::{Rnn, RnnConfig, RnnState};
    use burn::prelude::*;

    // PyTorch 的默认：bias=True，输入 [seq, batch, d]
    pub fn build(d: &Device) -> Rnn {
        RnnConfig::new(3, 4, true).with_batch_first(false).init(d)
    }

    pub fn forward(m: &Rnn, x: Tensor<3>) -> (Tensor<3>, RnnState<2>) {
        m.forward(x, None)
    }
}

mod gru_seq_first {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    // GruConfig 没有 batch_first：[seq, batch, d] 先换成 [batch, seq, d]，输出再换回来
    pub fn forward(m: &Gru, x: Tensor<3>) -> Tensor<3> {
        m.forward(x.swap_dims(0, 1), None).swap_dims(0, 1)
    }
}

mod lstm_num_layers {
    use burn::nn::{Lstm, LstmConfig};
    use burn::prelude::*;

    // 没有 num_layers：两层 Lstm 串起来，第二层的输入是第一层的输出
    pub fn build(d: &Device) -> [Lstm; 2] {
        [
            LstmConfig::new(3, 4, true).init(d),
            LstmConfig::new(4, 4, true).init(d),
        ]
    }

    // 返回 y 和 PyTorch 形状的 h_n、c_n：[num_layers, batch, hidden]
    pub fn forward(layers: &[Lstm; 2], x: Tensor<3>) -> (Tensor<3>, Tensor<3>, Tensor<3>) {
        let (y0, s0) = layers[0].forward(x, None);
        let (y, s1) = layers[1].forward(y0, None);
        let h_n = Tensor::stack(vec![s0.hidden, s1.hidden], 0);
        let c_n = Tensor::stack(vec![s0.cell, s1.cell], 0);
        (y, h_n, c_n)
    }
}

mod lstm_bidirectional {
    use burn::nn::{BiLstm, BiLstmConfig, LstmState};
    use burn::prelude::*;

    // forward ← PyTorch 的 *_l0，reverse ← *_l0_reverse；
    // y 是 [batch, seq, 8]，h_n、c_n 是 [2, batch, 4]，和 PyTorch 一样
    pub fn build(d: &Device) -> BiLstm {
        BiLstmConfig::new(3, 4, true).init(d)
    }

    pub fn forward(m: &BiLstm, x: Tensor<3>) -> (Tensor<3>, LstmState<3>) {
        m.forward(x, None)
    }
}

mod lstm_proj_size {
    use burn::prelude::*;
    use burn::tensor::activation::sigmoid;

    // 没有 proj_size：按时间步手写。权重是 PyTorch 的布局：w_ih [4h, d]、w_hh [4h, proj]、
    // b_ih、b_hh [4h]（门按 i, f, g, o 堆叠）、w_hr [proj, h]；h = W_hr (o * tanh c)
    pub fn forward(
        x: Tensor<3>,
        w_ih: Tensor<2>,
        w_hh: Tensor<2>,
        b_ih: Tensor<1>,
        b_hh: Tensor<1>,
        w_hr: Tensor<2>,
    ) -> (Tensor<3>, Tensor<2>, Tensor<2>) {
        let [batch, seq, d_in] = x.dims();
        let [proj, hidden] = w_hr.dims();
        let device = x.device();
        let (w_ih, w_hh, w_hr) = (w_ih.transpose(), w_hh.transpose(), w_hr.transpose());
        let b = (b_ih + b_hh).unsqueeze::<2>();
        let mut h = Tensor::<2>::zeros([batch, proj], &device);
        let mut c = Tensor::<2>::zeros([batch, hidden], &device);
        let mut ys = Vec::new();
        for t in 0..seq {
            let xt = x
                .clone()
                .slice([0..batch, t..t + 1, 0..d_in])
                .reshape([batch, d_in]);
            let z = xt.matmul(w_ih.clone()) + h.matmul(w_hh.clone()) + b.clone();
            let [i, f, g, o]: [Tensor<2>; 4] = z.chunk(4, 1).try_into().unwrap();
            c = sigmoid(f) * c + sigmoid(i) * g.tanh();
            h = (sigmoid(o) * c.clone().tanh()).matmul(w_hr.clone());
            ys.push(h.clone());
        }
        // y: [batch, seq, proj]；h_n: [batch, proj]；c_n: [batch, hidden]
        (Tensor::stack(ys, 1), h, c)
    }
}

mod rnn_cell {
    use burn::nn::{Rnn, RnnConfig, RnnState};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Rnn {
        RnnConfig::new(3, 4, true).init(d)
    }

    // 没有 RNNCell：长度为 1 的序列，带上给定的状态
    pub fn forward(m: &Rnn, x: Tensor<2>, h: Tensor<2>) -> Tensor<2> {
        let (_, state) = m.forward(x.unsqueeze_dim(1), Some(RnnState::new(h)));
        state.hidden
    }
}

mod lstm_cell {
    use burn::nn::{Lstm, LstmConfig, LstmState};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Lstm {
        LstmConfig::new(3, 4, true).init(d)
    }

    // 没有 LSTMCell：长度为 1 的序列；注意 LstmState::new 的参数顺序是 (cell, hidden)
    pub fn forward(m: &Lstm, x: Tensor<2>, h: Tensor<2>, c: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let (_, state) = m.forward(x.unsqueeze_dim(1), Some(LstmState::new(c, h)));
        (state.hidden, state.cell)
    }
}

mod gru_cell {
    use burn::nn::{Gru, GruConfig};
    use burn::prelude::*;

    pub fn build(d: &Device) -> Gru {
        GruConfig::new(3, 4, true).init(d)
    }

    // 没有 GRUCell：长度为 1 的序列，输出 [batch, 1, hidden] 就是新的 h
    pub fn forward(m: &Gru, x: Tensor<2>, h: Tensor<2>) -> Tensor<2> {
        let y = m.forward(x.unsqueeze_dim(1), Some(h));
        let [batch, _, hidden] = y.dims();
        y.reshape([batch, hidden])
    }
}
