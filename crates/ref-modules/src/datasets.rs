//! 数据集与采样: the rows of experiments/reference/ref-8-modules/datasets.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn items<D: Dataset<I>, I>(ds: &D) -> Vec<I> {
    (0..ds.len()).map(|i| ds.get(i).unwrap()).collect()
}

fn split_facts(parts: Vec<Vec<i64>>) -> Value {
    let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
    let mut union: Vec<i64> = parts.into_iter().flatten().collect();
    union.sort();
    let n = union.len();
    let mut dedup = union.clone();
    dedup.dedup();
    json!({"lens": lens, "union": union, "disjoint": dedup.len() == n})
}

/// One gate of PyTorch's stacked LSTM weights (i, f, g, o; phases 10, 20, 30, 40).
fn lstm_gate(g: usize, d: &Device) -> GateController {
    let p = Device::flex();
    let (wi, wh) = (data([16, 3], 10.0, &p), data([16, 4], 20.0, &p));
    let (bi, bh) = (data([16], 30.0, &p), data([16], 40.0, &p));
    let r = 4 * g..4 * g + 4;
    GateController {
        input_transform: linear_from(wi.slice([r.clone(), 0..3]), bi.slice([r.clone()]), d),
        hidden_transform: linear_from(wh.slice([r.clone(), 0..4]), bh.slice([r]), d),
    }
}

fn set_lstm(l: &mut Lstm, d: &Device) {
    l.input_gate = lstm_gate(0, d);
    l.forget_gate = Some(lstm_gate(1, d));
    l.cell_gate = lstm_gate(2, d);
    l.output_gate = lstm_gate(3, d);
}

/// How many samples each replica gets, and which replica first gets sample i (of 10).
fn shard_facts(shards: &[Vec<i64>]) -> Value {
    let rank_of: Vec<usize> = (0..10)
        .map(|i| shards.iter().position(|s| s.contains(&i)).unwrap())
        .collect();
    json!({"lens": shards.iter().map(Vec::len).collect::<Vec<_>>(), "rank_of": rank_of})
}

fn ids_dataset(range: std::ops::Range<i64>) -> InMemDataset<i64> {
    InMemDataset::new(range.collect())
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    {
        let (a, b) = random_split_lengths::split(ids_dataset(0..10), 0);
        row("random_split_lengths", split_facts(vec![items(&a), items(&b)]));
        let parts = random_split_fractions::split(ids_dataset(0..10), &[0.75, 0.25], 0);
        row("random_split_fractions", split_facts(parts.iter().map(items).collect()));
        let s = subset::subset(ids_dataset(10..20), vec![1, 3, 5, 7]);
        row("subset", json!({"len": s.len(), "items": items(&s)}));
        let c = concat_dataset::concat(ids_dataset(0..4), ids_dataset(10..13));
        row("concat_dataset", json!({"len": c.len(), "items": items(&c)}));
        let y = Tensor::<1, Int>::arange(0..5, &d) * 10;
        let t = tensor_dataset::build(data([5, 3], 0.0, &d), y);
        let item = t.get(2).unwrap();
        row("tensor_dataset", json!({"len": t.len(), "x": item.x.iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), "y": item.y}));
        let s = custom_dataset::Squares;
        let its: Vec<[i64; 2]> = items(&s).into_iter().map(|(a, b)| [a, b]).collect();
        row("custom_dataset", json!({"len": s.len(), "items": its}));
        d.seed(0);
        let n = 30000;
        let sampled = weighted_random_sampler::sampled(ids_dataset(0..3), &[0.0, 1.0, 3.0], n, &d);
        let drawn = items(&sampled);
        let fractions: Vec<f64> = (0..3).map(|k| drawn.iter().filter(|&&i| i == k).count() as f64 / n as f64).collect();
        row("weighted_random_sampler", json!({"len": sampled.len(), "fractions": fractions}));
        let loader = dataloader_num_workers::build(ids_dataset(0..10), &d);
        let mut batches: Vec<Vec<i64>> = loader.iter().map(|b| b.unwrap()).collect();
        batches.sort();
        row("dataloader_num_workers", json!({"n_batches": batches.len(), "batches": batches}));
    }
    {
        let seqs = vec![data([3, 2], 0.0, &d), data([1, 2], 10.0, &d), data([2, 2], 20.0, &d)];
        let y = pad_sequence::pad_sequence(seqs, 0.0);
        row("pad_sequence", json!({"y": flat(y.clone()), "shape": y.dims()}));
        let mut lstm = burn::nn::LstmConfig::new(3, 4, true).init(&d);
        set_lstm(&mut lstm, &d);
        let (y, h, c) = pack_padded_sequence::forward(&lstm, data([2, 5, 3], 0.0, &d) * 2.0, &[3, 5]);
        row("pack_padded_sequence", json!({"y": flat(y.clone()), "shape": y.dims(), "h_n": flat(h), "c_n": flat(c)}));
    }
    {
        let shards: Vec<Vec<i64>> =
            distributed_sampler_naive::shards(ids_dataset(0..10), 3).iter().map(items).collect();
        row("distributed_sampler_naive", shard_facts(&shards));
        let shards: Vec<Vec<i64>> =
            (0..3).map(|r| items(&distributed_sampler::shard(ids_dataset(0..10), 3, r))).collect();
        let mut facts = shard_facts(&shards);
        facts["shards"] = json!(shards);
        row("distributed_sampler", facts);
    }
}

mod random_split_lengths {
    use burn::data::dataset::transform::{PartialDataset, ShuffledDataset};
    use burn::data::dataset::InMemDataset;
    use std::sync::Arc;

    pub type Part = PartialDataset<Arc<ShuffledDataset<InMemDataset<i64>, i64>>, i64>;

    // 按种子打乱一次，再切成 [0, 7) 和 [7, 10)
    pub fn split(ds: InMemDataset<i64>, seed: u64) -> (Part, Part) {
        let shuffled = Arc::new(ShuffledDataset::new(ds, seed));
        (PartialDataset::new(shuffled.clone(), 0, 7), PartialDataset::new(shuffled, 7, 10))
    }
}

mod random_split_fractions {
    use burn::data::dataset::transform::{PartialDataset, ShuffledDataset};
    use burn::data::dataset::{Dataset, InMemDataset};
    use std::sync::Arc;

    pub type Part = PartialDataset<Arc<ShuffledDataset<InMemDataset<i64>, i64>>, i64>;

    // 比例先换成长度：各自向下取整，余下的从第一份起轮流加 1（和 random_split 一样）
    pub fn lengths(n: usize, fractions: &[f64]) -> Vec<usize> {
        let mut lens: Vec<usize> = fractions.iter().map(|f| (f * n as f64).floor() as usize).collect();
        let rest = n - lens.iter().sum::<usize>();
        for i in 0..rest {
            let k = i % lens.len();
            lens[k] += 1;
        }
        lens
    }

    pub fn split(ds: InMemDataset<i64>, fractions: &[f64], seed: u64) -> Vec<Part> {
        let lens = lengths(ds.len(), fractions);
        let shuffled = Arc::new(ShuffledDataset::new(ds, seed));
        let mut start = 0;
        lens.into_iter()
            .map(|len| {
                let part = PartialDataset::new(shuffled.clone(), start, start + len);
                start += len;
                part
            })
            .collect()
    }
}

mod subset {
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::InMemDataset;

    pub fn subset(ds: InMemDataset<i64>, indices: Vec<usize>) -> SelectionDataset<InMemDataset<i64>, i64> {
        SelectionDataset::from_indices_checked(ds, indices)
    }
}

mod concat_dataset {
    use burn::data::dataset::transform::ComposedDataset;
    use burn::data::dataset::InMemDataset;

    pub fn concat(a: InMemDataset<i64>, b: InMemDataset<i64>) -> ComposedDataset<InMemDataset<i64>> {
        ComposedDataset::new(vec![a, b])
    }
}

mod tensor_dataset {
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;

    // 没有 TensorDataset：按第 0 维拆成一条条样本放进 InMemDataset，
    // 由 Batcher 在取批次时再拼成张量
    #[derive(Clone, Debug)]
    pub struct Item {
        pub x: Vec<f32>,
        pub y: i64,
    }

    pub fn build(x: Tensor<2>, y: Tensor<1, Int>) -> InMemDataset<Item> {
        let ys = y.into_data().try_into_vec_as::<i64>().unwrap();
        let items = x
            .iter_dim(0)
            .zip(ys)
            .map(|(row, y)| Item { x: row.into_data().try_to_vec::<f32>().unwrap(), y })
            .collect();
        InMemDataset::new(items)
    }
}

mod custom_dataset {
    use burn::data::dataset::{Dataset, DatasetError};

    // class Squares(Dataset) ↔ impl Dataset<Item>：get 对应 __getitem__，len 对应 __len__
    pub struct Squares;

    impl Dataset<(i64, i64)> for Squares {
        fn get(&self, index: usize) -> Result<(i64, i64), DatasetError> {
            let i = index as i64;
            Ok((i, i * i))
        }

        fn len(&self) -> usize {
            5
        }
    }
}

mod weighted_random_sampler {
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::Dataset;
    use burn::prelude::*;
    use burn::tensor::Distribution;

    // 没有按权重的采样器：有放回地抽 num_samples 个下标（均匀数落在累积权重的哪一段），
    // 再用 SelectionDataset 按这些下标取样本，交给 DataLoader（不要再 shuffle）
    pub fn sample(weights: &[f64], num_samples: usize, d: &Device) -> Vec<usize> {
        let total: f64 = weights.iter().sum();
        let k = weights.len();
        let cdf: Vec<f32> = weights
            .iter()
            .scan(0.0, |acc, w| {
                *acc += w / total;
                Some(*acc as f32)
            })
            .collect();
        let u = Tensor::<1>::random([num_samples], Distribution::Uniform(0.0, 1.0), d).unsqueeze_dim::<2>(1);
        let cdf = Tensor::<1>::from_floats(cdf.as_slice(), d).unsqueeze::<2>();
        // 下标 = 累积权重里不超过 u 的个数
        let idx = cdf.expand([num_samples, k]).lower_equal(u.expand([num_samples, k])).int().sum_dim(1);
        let idx = idx.clamp_max(k as i64 - 1).into_data().try_into_vec_as::<i64>().unwrap();
        idx.into_iter().map(|i| i as usize).collect()
    }

    pub fn sampled<D: Dataset<I>, I: Clone + Send + Sync>(ds: D, weights: &[f64], num_samples: usize, d: &Device) -> SelectionDataset<D, I> {
        SelectionDataset::from_indices_checked(ds, sample(weights, num_samples, d))
    }
}

mod dataloader_num_workers {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    #[derive(Clone)]
    pub struct IdBatcher;

    impl Batcher<i64, Vec<i64>> for IdBatcher {
        fn batch(&self, items: Vec<i64>, _device: &Device) -> Vec<i64> {
            items
        }
    }

    // 每个工作线程拿到连续的几个整批次；批次到达的先后不固定
    pub fn build(ds: InMemDataset<i64>, d: &Device) -> Arc<dyn DataLoader<Vec<i64>>> {
        DataLoaderBuilder::new(IdBatcher)
            .batch_size(4)
            .num_workers(2)
            .set_device(d.clone())
            .build(ds)
    }
}

mod pad_sequence {
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // 没有 pad_sequence：每条 [len, d] 在末尾补到最长，再沿新的第 0 维叠起来（batch_first=True）
    pub fn pad_sequence(seqs: Vec<Tensor<2>>, padding_value: f32) -> Tensor<3> {
        let max_len = seqs.iter().map(|s| s.dims()[0]).max().unwrap();
        let padded: Vec<Tensor<2>> = seqs
            .into_iter()
            .map(|s| {
                let len = s.dims()[0];
                s.pad([(0, max_len - len), (0, 0)], PadMode::Constant(padding_value))
            })
            .collect();
        Tensor::stack(padded, 0)
    }
}

mod pack_padded_sequence {
    use burn::nn::Lstm;
    use burn::prelude::*;
    use burn::tensor::ops::PadMode;

    // 没有 PackedSequence：每条序列只取前 len 步单独跑 LSTM，h_n、c_n 是它自己最后一步的状态；
    // 输出补零到最长（pad_packed_sequence 的样子）
    pub fn forward(lstm: &Lstm, x: Tensor<3>, lengths: &[usize]) -> (Tensor<3>, Tensor<2>, Tensor<2>) {
        let max_len = *lengths.iter().max().unwrap();
        let (mut ys, mut hs, mut cs) = (Vec::new(), Vec::new(), Vec::new());
        for (b, &len) in lengths.iter().enumerate() {
            let xb = x.clone().narrow(0, b, 1).narrow(1, 0, len);
            let (y, state) = lstm.forward(xb, None);
            ys.push(y.pad([(0, max_len - len), (0, 0)], PadMode::Constant(0.0)));
            hs.push(state.hidden);
            cs.push(state.cell);
        }
        (Tensor::cat(ys, 0), Tensor::cat(hs, 0), Tensor::cat(cs, 0))
    }
}

mod distributed_sampler_naive {
    use burn::data::dataset::transform::PartialDataset;
    use burn::data::dataset::InMemDataset;
    use std::sync::Arc;

    // 切成 replicas 个连续的块，副本 r 拿第 r 块
    pub fn shards(ds: InMemDataset<i64>, replicas: usize) -> Vec<PartialDataset<Arc<InMemDataset<i64>>, i64>> {
        PartialDataset::split(ds, replicas)
    }
}

mod distributed_sampler {
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::{Dataset, InMemDataset};

    // DistributedSampler(shuffle=False) 的下标：补齐到 replicas 的整数倍（从头重复），
    // 副本 rank 取 rank, rank + replicas, rank + 2·replicas……
    pub fn shard(ds: InMemDataset<i64>, replicas: usize, rank: usize) -> SelectionDataset<InMemDataset<i64>, i64> {
        let len = ds.len();
        let total = len.div_ceil(replicas) * replicas;
        let indices = (0..total).map(|i| i % len).skip(rank).step_by(replicas).collect();
        SelectionDataset::from_indices_checked(ds, indices)
    }
}
