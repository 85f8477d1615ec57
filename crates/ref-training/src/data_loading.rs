//! 数据加载: the rows of experiments/reference/ref-4-training/data_loading.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

fn ints(t: Tensor<1, Int>) -> Vec<i64> {
    t.into_data().try_into_vec_as::<i64>().unwrap()
}

fn epochs(loader: &dyn DataLoader<Tensor<1, Int>>, n: usize) -> Vec<Vec<i64>> {
    (0..n)
        .map(|_| loader.iter().flat_map(|b| ints(b.unwrap())).collect())
        .collect()
}

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    let (len, item3) = dataset_len_get::run((0..10).collect());
    row("dataset_len_get", json!({"len": len, "item3": item3}));
    let loader = batches::build(dataset(), &d);
    let all: Vec<Vec<i64>> = loader.iter().map(|b| ints(b.unwrap())).collect();
    row("batches", json!({"batches": all}));
    let full: Vec<Vec<i64>> = drop_last::run(loader.as_ref(), 4)
        .into_iter()
        .map(ints)
        .collect();
    row("drop_last", json!({"batches": full}));
    let loader = shuffle_order::build(batches::ValueBatcher, dataset(), &d);
    row(
        "shuffle_order",
        json!({"order": epochs(loader.as_ref(), 1)[0]}),
    );
    // PyTorch's first epoch: DataLoader(ds, 4, shuffle=True,
    // generator=torch.Generator().manual_seed(3)), as the PyTorch side's shuffle_order prints it.
    let torch_order = vec![7, 4, 2, 9, 1, 5, 0, 8, 6, 3];
    let loader = shuffle_order_given::build(batches::ValueBatcher, dataset(), torch_order, &d);
    row(
        "shuffle_order_given",
        json!({"order": epochs(loader.as_ref(), 1)[0]}),
    );
    let loader = shuffle_permutation::build(batches::ValueBatcher, dataset(), &d);
    let es = epochs(loader.as_ref(), 5);
    let sorted = |e: &Vec<i64>| {
        let mut e = e.clone();
        e.sort();
        e
    };
    row(
        "shuffle_permutation",
        json!({"every_epoch_permutation": es.iter().all(|e| sorted(e) == (0..10).collect::<Vec<_>>()),
               "order_changes_every_epoch": es.windows(2).all(|w| w[0] != w[1])}),
    );
    let one = shuffle_same_seed::build(batches::ValueBatcher, dataset(), &d);
    let two = shuffle_same_seed::build(batches::ValueBatcher, dataset(), &d);
    row(
        "shuffle_same_seed",
        json!({"same_order": epochs(one.as_ref(), 3) == epochs(two.as_ref(), 3)}),
    );
}

mod dataset_len_get {
    use burn::data::dataset::{Dataset, InMemDataset};

    pub fn run(items: Vec<i64>) -> (usize, i64) {
        let ds = InMemDataset::new(items);
        (ds.len(), ds.get(3).unwrap())
    }
}

mod batches {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// PyTorch 的默认 collate：把一批整数摞成一个张量
    #[derive(Clone)]
    pub struct ValueBatcher;

    impl Batcher<i64, Tensor<1, Int>> for ValueBatcher {
        fn batch(&self, items: Vec<i64>, device: &Device) -> Tensor<1, Int> {
            let n = items.len();
            Tensor::<1, Int>::from_data(TensorData::new(items, [n]), device)
        }
    }

    pub fn build(ds: InMemDataset<i64>, d: &Device) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(ValueBatcher)
            .batch_size(4)
            .set_device(d.clone())
            .build(ds)
    }
}

mod drop_last {
    use burn::data::dataloader::DataLoader;
    use burn::prelude::*;

    /// DataLoaderBuilder 没有 drop_last：跳过不满 batch_size 的批
    pub fn run(loader: &dyn DataLoader<Tensor<1, Int>>, batch_size: usize) -> Vec<Tensor<1, Int>> {
        loader
            .iter()
            .map(|b| b.unwrap())
            .filter(|b| b.dims()[0] == batch_size)
            .collect()
    }
}

mod shuffle_order {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .shuffle(3)
            .set_device(d.clone())
            .build(ds)
    }
}

mod shuffle_order_given {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::transform::SelectionDataset;
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// burn 的发生器排不出 PyTorch 的顺序：把 PyTorch 这个 epoch 取到的下标顺序带过来，
    /// SelectionDataset 按它取，不再 shuffle
    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        order: Vec<usize>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        let ds = SelectionDataset::from_indices_checked(ds, order);
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .set_device(d.clone())
            .build(ds)
    }
}

mod shuffle_permutation {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// 每次 iter() 是一个 epoch，重新打乱一次
    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .shuffle(3)
            .set_device(d.clone())
            .build(ds)
    }
}

mod shuffle_same_seed {
    use burn::data::dataloader::batcher::Batcher;
    use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
    use burn::data::dataset::InMemDataset;
    use burn::prelude::*;
    use std::sync::Arc;

    /// 同一个种子建两次：两个 loader 的每个 epoch 顺序相同
    pub fn build(
        batcher: impl Batcher<i64, Tensor<1, Int>> + 'static,
        ds: InMemDataset<i64>,
        d: &Device,
    ) -> Arc<dyn DataLoader<Tensor<1, Int>>> {
        DataLoaderBuilder::new(batcher)
            .batch_size(4)
            .shuffle(3)
            .set_device(d.clone())
            .build(ds)
    }
}
