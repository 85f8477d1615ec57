//! The data-parallel part of gpt.py's port. burn-train 0.22.1 reaches DDP through its
//! execution strategy, which needs collective operations (an all-reduce) from the backend.
//! The program tries that route on Flex in a child process (itself, `--route`) and records how
//! it ends; then it runs the route that works on one CPU: `cap-gpt --replicas`, two replicas'
//! gradients averaged on the one Flex device.
use std::process::Command;

use burn::prelude::*;
use burn::tensor::distributed::{DistributedConfig, ReduceOperation};
use burn::train::ExecutionStrategy;
use serde_json::{json, Value};

// region: route
/// burn-train's DDP route: one device per replica, gradients all-reduced with Mean. With a
/// backend that has collectives the strategy goes on to
/// SupervisedTraining::with_training_strategy(..).launch(learner).
fn ddp_route() {
    let devices = vec![Device::flex(), Device::flex()]; // Flex has one device, no index
    let config = DistributedConfig { all_reduce_op: ReduceOperation::Mean };
    let _strategy = ExecutionStrategy::ddp(devices, config);
    println!("ExecutionStrategy::ddp returned");
}
// endregion: route

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--route") {
        return ddp_route();
    }
    let me = std::env::current_exe().unwrap();
    let child = Command::new(&me).arg("--route").env("RUST_BACKTRACE", "0").output().expect("run --route");
    let stderr = String::from_utf8_lossy(&child.stderr);
    // "thread 'main' panicked at <file>:<line>:<col>:" then the message on the next line.
    let mut lines = stderr.lines().skip_while(|l| !l.contains("panicked at"));
    let at = lines.next().unwrap_or("");
    let location = at.split("/registry/src/").nth(1).and_then(|p| p.split_once('/')).map(|(_, f)| f.trim_end_matches(':'));
    let message = lines.next().unwrap_or("");

    let out = Command::new(me.with_file_name("cap-gpt")).arg("--replicas").output().expect("run cap-gpt --replicas");
    assert!(out.status.success(), "cap-gpt --replicas: {}", String::from_utf8_lossy(&out.stderr));
    let mut result: Value = serde_json::from_slice(&out.stdout).expect("cap-gpt's JSON");
    result["route"] = json!({
        "exit_success": child.status.success(),
        "stdout": String::from_utf8_lossy(&child.stdout),
        "panic_location": location,
        "panic_message": message,
    });
    println!("{}", serde_json::to_string_pretty(&result).unwrap());
}
