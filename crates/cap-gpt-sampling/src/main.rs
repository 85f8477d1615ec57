//! Which rule burn's categorical(1) draws by. For each seed, the draw is compared with two rules
//! replayed from the same RNG state: the inverse CDF of one uniform number (burn-tensor's
//! categorical), and the exponential race argmax(p / q), q = -ln(u) ~ Exp(1) (torch.multinomial's
//! rule for one sample). p is the same fixed softmax as the PyTorch script's.
use burn::prelude::*;
use burn::tensor::Distribution;
use serde_json::json;

const SEEDS: u64 = 200;

fn probs(device: &Device) -> Tensor<2> {
    // Eight categories, a softmax over 2·sin(k) (computed in f64, rounded to f32 once).
    let logits: Vec<f32> = (0..8).map(|k| (2.0 * ((k + 1) as f64).sin()) as f32).collect();
    let logits = Tensor::<1>::from_data(logits.as_slice(), device).reshape([1, 8]);
    burn::tensor::activation::softmax(logits, 1)
}

fn first(t: Tensor<2, Int>) -> i64 {
    t.into_data().iter::<i64>().next().unwrap()
}

// region: rules
fn categorical(p: &Tensor<2>, seed: u64, device: &Device) -> i64 {
    device.seed(seed);
    first(p.clone().categorical(1))
}

/// What categorical does inside: normalise, cumulative sum, count the entries below one uniform.
fn inverse_cdf(p: &Tensor<2>, seed: u64, device: &Device) -> i64 {
    device.seed(seed);
    let u = Tensor::<2>::random([1, 1], Distribution::Uniform(0.0, 1.0), device);
    let cdf = (p.clone() / p.clone().sum_dim(1)).cumsum(1);
    first(cdf.lower(u).int().sum_dim(1))
}

/// torch.multinomial's rule for one sample, on burn's uniform numbers.
fn exponential_race(p: &Tensor<2>, seed: u64, device: &Device) -> i64 {
    device.seed(seed);
    let u = Tensor::<2>::random([1, 8], Distribution::Uniform(0.0, 1.0), device);
    let q = u.log().neg();
    first((p.clone() / q).argmax(1))
}
// endregion: rules

fn main() {
    let device = Device::flex();
    let p = probs(&device);
    let draws: Vec<i64> = (0..SEEDS).map(|s| categorical(&p, s, &device)).collect();
    let icdf: Vec<i64> = (0..SEEDS).map(|s| inverse_cdf(&p, s, &device)).collect();
    let race: Vec<i64> = (0..SEEDS).map(|s| exponential_race(&p, s, &device)).collect();
    let same = |a: &[i64], b: &[i64]| a.iter().zip(b).filter(|(x, y)| x == y).count();
    let pv: Vec<f64> = p.into_data().iter::<f32>().map(f64::from).collect();
    println!(
        "{}",
        json!({
            "seeds": SEEDS,
            "p": pv,
            "draw_eq_inverse_cdf": same(&draws, &icdf),
            "draw_eq_exponential_race": same(&draws, &race),
            "first_draws": &draws[..20],
        })
    );
}
