//! The nn.Module classes of cnn_classifier.py, written by the port generator.
//! Each line comes from a row of the torch → burn map (the link beside it).

#![allow(dead_code, unused_variables, unreachable_code, non_snake_case, clippy::all)]
use burn::nn::PaddingConfig2d;
use burn::nn::activation::Relu;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::pool::{AdaptiveAvgPool2d, AdaptiveAvgPool2dConfig};
use burn::nn::pool::{MaxPool2d, MaxPool2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig};
use burn::nn::{Dropout, DropoutConfig};
use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

/// Net (line 31)
#[derive(Module, Debug)]
pub struct Net {
    pub conv1: Conv2d,
    pub bn1: BatchNorm,
    pub conv2: Conv2d,
    pub bn2: BatchNorm,
    pub conv3: Conv2d,
    pub pool: MaxPool2d,
    pub gap: AdaptiveAvgPool2d,
    pub dropout: Dropout,
    pub fc: Linear,
}

impl Net {
    pub fn new(num_classes: usize, device: &Device) -> Self {
        Self {
            // http://127.0.0.1:8000/reference/#nn-conv2d http://127.0.0.1:8000/reference/#nn-conv2d_stride2_explicit_padding
            conv1: Conv2dConfig::new([3, 32], [3, 3]).with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1)).init(device),
            // http://127.0.0.1:8000/reference/#nn-batchnorm2d_train http://127.0.0.1:8000/10-pitfalls/batchnorm/
            bn1: BatchNormConfig::new(32).init(device),
            // http://127.0.0.1:8000/reference/#nn-conv2d http://127.0.0.1:8000/reference/#nn-conv2d_stride2_explicit_padding
            conv2: Conv2dConfig::new([32, 64], [3, 3]).with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1)).init(device),
            // http://127.0.0.1:8000/reference/#nn-batchnorm2d_train http://127.0.0.1:8000/10-pitfalls/batchnorm/
            bn2: BatchNormConfig::new(64).init(device),
            // http://127.0.0.1:8000/reference/#nn-conv2d http://127.0.0.1:8000/reference/#nn-conv2d_stride2_explicit_padding
            conv3: Conv2dConfig::new([64, 128], [3, 3]).with_stride([2, 2]).with_padding(PaddingConfig2d::Explicit(1, 1, 1, 1)).init(device),
            // http://127.0.0.1:8000/reference/#nn-maxpool2d http://127.0.0.1:8000/reference/#nn-default_maxpool2d_stride
            pool: MaxPool2dConfig::new([2, 2]).init(),
            // http://127.0.0.1:8000/reference/#nn-adaptive_avg_pool2d
            gap: AdaptiveAvgPool2dConfig::new([1, 1]).init(),
            // http://127.0.0.1:8000/reference/#nn-dropout_eval http://127.0.0.1:8000/10-pitfalls/dropout-train-eval/
            dropout: DropoutConfig::new(0.25).init(),
            // http://127.0.0.1:8000/reference/#nn-linear
            fc: LinearConfig::new(128, num_classes).init(device),
        }
    }

    /// Net.forward (line 44)
    pub fn forward(&self, x: Tensor<4>) -> Tensor<2> {
        // line 45: x = self.pool(F.relu(self.bn1(self.conv1(x))))
        // http://127.0.0.1:8000/reference/#functional-relu
        let x = self.pool.forward(Relu::new().forward(self.bn1.forward(self.conv1.forward(x))));
        // line 46: x = self.pool(F.relu(self.bn2(self.conv2(x))))
        // http://127.0.0.1:8000/reference/#functional-relu
        let x = self.pool.forward(Relu::new().forward(self.bn2.forward(self.conv2.forward(x))));
        // line 47: x = F.relu(self.conv3(x))
        // http://127.0.0.1:8000/reference/#functional-relu
        let x = Relu::new().forward(self.conv3.forward(x));
        // line 48: x = self.gap(x)
        let x = self.gap.forward(x);
        // line 49: x = torch.flatten(x, 1)
        // http://127.0.0.1:8000/reference/#tensor-flatten_from
        let x = x.flatten::<2>(1, 3);
        // line 50: return self.fc(self.dropout(x))
        self.fc.forward(self.dropout.forward(x))
    }
}
