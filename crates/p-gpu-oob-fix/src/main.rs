//! The fix: check indices on the host before they reach a kernel that does not check them.
use burn::prelude::*;
use burn::tensor::wgpu::WgpuBackend;
use burn::tensor::DeviceKind;
use serde_json::{json, Value};

fn table(device: &Device) -> Tensor<2> {
    // 4 rows (a vocabulary of 4), 3 columns; row r holds 10(r+1) + c, so no value is 0.
    let data: Vec<f32> = (0..4)
        .flat_map(|r| (0..3).map(move |c| (10 * (r + 1) + c) as f32))
        .collect();
    Tensor::<1>::from_data(data.as_slice(), device).reshape([4, 3])
}

fn scores(device: &Device) -> Tensor<2> {
    // 2 samples, 4 classes: sample i, class j holds 100(i+1) + j.
    let data: Vec<f32> = (0..2)
        .flat_map(|i| (0..4).map(move |j| (100 * (i + 1) + j) as f32))
        .collect();
    Tensor::<1>::from_data(data.as_slice(), device).reshape([2, 4])
}

fn rows(t: Tensor<2>) -> Vec<Vec<f64>> {
    let [n, m] = t.dims();
    let v = t.into_data().try_into_vec::<f32>().unwrap();
    (0..n).map(|i| v[i * m..(i + 1) * m].iter().map(|&x| f64::from(x)).collect()).collect()
}

// region: check
/// Refuse indices outside `0..size` before a kernel sees them: one min and one max on the
/// device, one read back to the host.
fn check_ids<const D: usize>(ids: &Tensor<D, Int>, size: usize) -> Result<(), String> {
    let ends = Tensor::cat(vec![ids.clone().min(), ids.clone().max()], 0)
        .try_to_vec_as::<i64>()
        .map_err(|e| format!("{e:?}"))?;
    let (lo, hi) = (ends[0], ends[1]);
    if lo < 0 || hi >= size as i64 {
        return Err(format!("index out of range: min {lo}, max {hi}, allowed 0..{size}"));
    }
    Ok(())
}
// endregion: check

fn attempt(f: impl FnOnce() -> Result<Tensor<2>, String>) -> Value {
    match f() {
        Ok(t) => json!({"values": rows(t)}),
        Err(message) => json!({"error": "Err", "message": message}),
    }
}

fn main() {
    let (_, setup) = Device::wgpu_options()
        .device_kind(DeviceKind::DefaultDevice)
        .graphics_api(WgpuBackend::Vulkan)
        .init_with_setup()
        .expect("no Vulkan adapter");
    let info = setup.adapter.get_info();
    let device = Device::vulkan(DeviceKind::DefaultDevice);
    let table = table(&device);
    let scores = scores(&device);

    // region: fix
    let ids = Tensor::<1, Int>::from_data([0, 3, 4], &device);
    let target = Tensor::<2, Int>::from_data([[1], [4]], &device);
    let bad_select = attempt(|| {
        check_ids(&ids, table.dims()[0])?;                 // before select
        Ok(table.clone().select(0, ids.clone()))
    });
    let bad_gather = attempt(|| {
        check_ids(&target, scores.dims()[1])?;             // before gather
        Ok(scores.clone().gather(1, target.clone()))
    });
    // endregion: fix

    // region: good
    let good_ids = Tensor::<1, Int>::from_data([0, 3, 2], &device);
    check_ids(&good_ids, table.dims()[0]).unwrap();
    let ok_rows = table.clone().select(0, good_ids);
    let good_target = Tensor::<2, Int>::from_data([[1], [3]], &device);
    check_ids(&good_target, scores.dims()[1]).unwrap();
    let ok_picked = scores.clone().gather(1, good_target);
    // endregion: good

    // region: mask
    // Where an unknown id must map to a zero row on purpose: clamp, then mask.
    let n = table.dims()[0] as i64;
    let valid = ids.clone().greater_equal_elem(0).bool_and(ids.clone().lower_elem(n));
    let masked = table.clone().select(0, ids.clone().clamp(0, n - 1))
        * valid.clone().float().unsqueeze_dim::<2>(1);     // [3, 3] * [3, 1]
    // endregion: mask

    println!("{}", json!({
        "device": format!("{device:?}"),
        "adapter": {
            "name": info.name,
            "driver": info.driver,
            "driver_info": info.driver_info,
            "backend": format!("{:?}", info.backend),
            "device_type": format!("{:?}", info.device_type),
        },
        "select_rejected": bad_select.get("error").is_some(),
        "gather_rejected": bad_gather.get("error").is_some(),
        "bad_select": bad_select,
        "bad_gather": bad_gather,
        "ok_rows": rows(ok_rows),
        "ok_picked": rows(ok_picked),
        "masked_rows": rows(masked),
        "valid": valid.int().try_to_vec_as::<i64>().unwrap(),
    }));
}
