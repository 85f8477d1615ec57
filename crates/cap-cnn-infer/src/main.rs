//! Inference from cap-cnn's checkpoint, in a program built without autodiff: the same Net,
//! its parameters from the burnpack file given as the argument, on Device::flex().
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{
    BatchNorm, BatchNormConfig, Dropout, DropoutConfig, Linear, LinearConfig, PaddingConfig2d,
    Relu,
};
use burn::prelude::*;
use burn::tensor::activation::log_softmax;
use serde_json::json;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../cap-cnn/data");
const N_TRAIN: usize = 1000;
const N_TEST: usize = 200;

// The model, as in cap-cnn (a checkpoint holds parameters, not code).
#[derive(Module, Debug)]
struct Net {
    conv1: Conv2d,
    bn1: BatchNorm,
    conv2: Conv2d,
    bn2: BatchNorm,
    pool: MaxPool2d,
    dropout: Dropout,
    fc1: Linear,
    fc2: Linear,
    relu: Relu,
}

impl Net {
    fn new(dropout: f64, device: &Device) -> Self {
        let conv = |i, o| {
            Conv2dConfig::new([i, o], [3, 3])
                .with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1))
                .with_bias(false)
                .init(device)
        };
        Net {
            conv1: conv(1, 8),
            bn1: BatchNormConfig::new(8).init(device),
            conv2: conv(8, 16),
            bn2: BatchNormConfig::new(16).init(device),
            pool: MaxPool2dConfig::new([2, 2]).init(),
            dropout: DropoutConfig::new(dropout).init(),
            fc1: LinearConfig::new(16 * 2 * 2, 32).init(device),
            fc2: LinearConfig::new(32, 10).init(device),
            relu: Relu::new(),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        let x = self.pool.forward(self.relu.forward(self.bn1.forward(self.conv1.forward(x))));
        let x = self.pool.forward(self.relu.forward(self.bn2.forward(self.conv2.forward(x))));
        let x = self.dropout.forward(x.flatten::<2>(1, 3));
        let x = self.relu.forward(self.fc1.forward(x));
        log_softmax(self.fc2.forward(x), 1)
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: cap-cnn-infer <checkpoint.bpk>");
    // region: infer
    let device = Device::flex();
    let model = Net::new(0.25, &device).load_file(&path);
    let raw = std::fs::read(format!("{DATA}/glyphs.bin")).expect("glyphs.bin");
    let n = raw.len() / 65;
    let x: Vec<f32> = raw[N_TRAIN * 64..(N_TRAIN + N_TEST) * 64]
        .iter()
        .map(|&p| p as f32 / 16.0)
        .collect();
    let y: Vec<i64> = raw[n * 64 + N_TRAIN..n * 64 + N_TRAIN + N_TEST]
        .iter()
        .map(|&l| l as i64)
        .collect();
    let x = Tensor::<4>::from_data(TensorData::new(x, [N_TEST, 1, 8, 8]), &device);
    let log_probs = model.forward(x);
    let predictions: Vec<i64> = log_probs.clone().argmax(1).into_data().convert::<i64>().try_to_vec().unwrap();
    // endregion: infer
    let correct = predictions.iter().zip(&y).filter(|(p, l)| p == l).count();
    let first4: Vec<f32> = log_probs.slice(0..4).into_data().try_to_vec().unwrap();
    println!(
        "{}",
        json!({
            "predictions": predictions,
            "predictions_correct": correct,
            "log_probs_first4": first4.into_iter().map(f64::from).collect::<Vec<_>>(),
        })
    );
}
