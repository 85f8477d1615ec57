//! The out-of-range select and gather of p-gpu-oob-naive, on burn's CUDA backend.
//! Needs an NVIDIA GPU and its driver to run, and the network once to build (the LLVM bundle
//! behind burn's cuda feature): the book runs it only on a machine that has both.
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

use burn::prelude::*;
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

/// The values row by row, and the bit pattern of each f32 (to see what a garbage value is).
fn rows(t: Tensor<2>) -> Value {
    let [n, m] = t.dims();
    let v = t.into_data().try_into_vec::<f32>().unwrap();
    let vals: Vec<Vec<f64>> =
        (0..n).map(|i| v[i * m..(i + 1) * m].iter().map(|&x| f64::from(x)).collect()).collect();
    let bits: Vec<Vec<u32>> =
        (0..n).map(|i| v[i * m..(i + 1) * m].iter().map(|x| x.to_bits()).collect()).collect();
    json!({"values": vals, "bits": bits})
}

/// One select in a child process of this same binary: a bad enough read can kill the process.
fn in_child(case: &str) -> Value {
    let out = Command::new(std::env::current_exe().unwrap())
        .arg(case)
        .env_remove("CUBECL_DEBUG_LOG")
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A Rust panic names itself on the line after "panicked at"; a signal leaves no message.
    let mut lines = stderr.lines();
    let panic = lines.by_ref().find(|l| l.contains("panicked at")).and(lines.next());
    json!({
        "exit_code": out.status.code(),
        "signal": out.status.signal(),
        "panic": panic,
        "output": serde_json::from_str::<Value>(&stdout).unwrap_or(Value::Null),
    })
}

/// What cubecl compiled, from its compilation log: kernel name, execution mode, language, the
/// SPIR-V memory model, how many buffers are bound through descriptors and how many pointer
/// types into physical (device-address) storage the kernel declares.
fn kernels(log: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for block in log.split("[START_KERNEL_COMPILATION]").skip(1) {
        let find = |prefix: &str| {
            block.lines().map(str::trim).find_map(|l| l.strip_prefix(prefix)).map(|v| v.trim_end_matches(',').to_string())
        };
        let name = find("name: ").unwrap_or_default();
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        out.push(json!({
            "name": name.rsplit("::").next(),
            "mode": find("mode: "),
            "language": find("```"),
            "memory_model": block.lines().find(|l| l.starts_with("OpMemoryModel")),
            "descriptor_bindings": block.lines().filter(|l| l.starts_with("OpDecorate") && l.contains(" Binding ")).count(),
            "physical_pointer_types": block.lines().filter(|l| l.contains("OpTypePointer PhysicalStorageBuffer")).count(),
        }));
    }
    out
}

fn child(case: &str) {
    let device = Device::cuda(0);
    let ids: &[i64] = match case {
        "neg" => &[0, 3, -1],
        "huge" => &[0, 3, 100_000_000],
        _ => unreachable!(),
    };
    let emb = table(&device).select(0, Tensor::<1, Int>::from_data(ids, &device));
    println!("{}", rows(emb));
}

fn main() {
    if let Some(case) = std::env::args().nth(1) {
        return child(&case);
    }
    // Ask cubecl to log every kernel it compiles (to a file in the working directory).
    std::env::set_var("CUBECL_DEBUG_LOG", "cubecl.log");
    // region: habit
    let device = Device::cuda(0);
    let table = table(&device);                                     // [4, 3]
    let ids = Tensor::<1, Int>::from_data([0, 3, 4], &device);      // 4 is one past the end
    let emb = table.clone().select(0, ids.clone());                 // [3, 3]

    let scores = scores(&device);                                   // [2, 4]
    let target = Tensor::<2, Int>::from_data([[1], [4]], &device);  // class 4 does not exist
    let picked = scores.clone().gather(1, target);                  // [2, 1]
    // endregion: habit

    let ids_dtype = format!("{:?}", ids.dtype());
    let emb = rows(emb);
    let picked = rows(picked);
    // Two rows past the end, farther out, and a second target whose first entry is 2.
    let next = table.clone().select(0, Tensor::<1, Int>::from_data([0, 3, 5], &device));
    let far = table.clone().select(0, Tensor::<1, Int>::from_data([0, 3, 1000], &device));
    let picked2 = scores.clone().gather(1, Tensor::<2, Int>::from_data([[2], [4]], &device));

    println!("{}", json!({
        "device": format!("{device:?}"),
        "identity": device.identity().map(|id| json!({"name": id.name, "fingerprint": id.fingerprint})),
        "ids_dtype": ids_dtype,
        "select": {"ids": [0, 3, 4], "rows": emb},
        "gather": {"target": [[1], [4]], "picked": picked},
        "select_next": {"ids": [0, 3, 5], "rows": rows(next)},
        "select_far": {"ids": [0, 3, 1000], "rows": rows(far)},
        "gather_2": {"target": [[2], [4]], "picked": rows(picked2)},
        "kernels": kernels(&std::fs::read_to_string("cubecl.log").unwrap_or_default()),
        "select_neg": {"ids": [0, 3, -1], "child": in_child("neg")},
        "select_huge": {"ids": [0, 3, 100_000_000], "child": in_child("huge")},
    }));
}
