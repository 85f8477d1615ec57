//! The data-parallel part of gpt.py's port. burn-train 0.22.1 has two routes to data
//! parallelism: ExecutionStrategy::ddp, which needs collective operations (an all-reduce)
//! from the backend, and ExecutionStrategy::multi, which adds the devices' gradients up
//! itself. The program runs each in a child process (itself, `--route ...`) and records how it
//! ends: ddp as far as building the strategy, multi as a real Learner training the GPT from
//! init.pt on the DDP run's batches, twice (each device's loss as is, and halved). Then it
//! runs the hand-written route: `cap-gpt --replicas`, two replicas' gradients averaged.
use std::process::Command;

use burn::prelude::*;
use burn::tensor::distributed::{DistributedConfig, ReduceOperation};
use burn::train::ExecutionStrategy;
use serde_json::{json, Value};

mod gpt;
mod multi;

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

/// Runs this program with `args` and records how it ended: the exit status, and where and
/// with what message it panicked.
fn child(args: &[&str]) -> (Value, String) {
    let me = std::env::current_exe().unwrap();
    let out = Command::new(&me).args(args).env("RUST_BACKTRACE", "0").output().expect("run a route");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // "thread '<name>' panicked at <file>:<line>:<col>:" then the message on the next line.
    let mut lines = stderr.lines().skip_while(|l| !l.contains("panicked at"));
    let at = lines.next().unwrap_or("");
    let location = at.split("/registry/src/").nth(1).and_then(|p| p.split_once('/')).map(|(_, f)| f.trim_end_matches(':'));
    let message = lines.next().unwrap_or("");
    let ended = json!({"exit_success": out.status.success(), "panic_location": location, "panic_message": message});
    (ended, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `--route multi DIV`: how it ended, and the per-step losses and gradient norms it trained
/// with. Its stdout is the Learner's progress.
fn multi_route(div: usize) -> (Value, Option<Value>) {
    let (mut ended, _) = child(&["--route", "multi", &div.to_string()]);
    let result: Option<Value> = std::fs::read_to_string(format!("multi-{div}.json")).ok().map(|s| serde_json::from_str(&s).unwrap());
    if let Some(r) = &result {
        for key in ["error", "optimizer_steps", "batches_as_ddp"] {
            ended[key] = r[key].clone();
        }
    }
    let run = result.map(|r| json!({"loss": r["loss"], "grad_norm": r["grad_norm"]}));
    (ended, run)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match (args.get(1).map(String::as_str), args.get(2).map(String::as_str)) {
        (Some("--route"), Some("ddp")) => return ddp_route(),
        (Some("--route"), Some("multi")) => return multi::fit(args[3].parse().unwrap()),
        _ => {}
    }
    let (mut route, stdout) = child(&["--route", "ddp"]);
    route["stdout"] = json!(stdout);
    let (route_multi, multi) = multi_route(1);
    let (route_multi_mean, multi_mean) = multi_route(2);

    let me = std::env::current_exe().unwrap();
    let out = Command::new(me.with_file_name("cap-gpt")).arg("--replicas").output().expect("run cap-gpt --replicas");
    assert!(out.status.success(), "cap-gpt --replicas: {}", String::from_utf8_lossy(&out.stderr));
    let mut result: Value = serde_json::from_slice(&out.stdout).expect("cap-gpt's JSON");
    result["route"] = route;
    result["route_multi"] = route_multi;
    result["route_multi_mean"] = route_multi_mean;
    result["multi"] = json!(multi);
    result["multi_mean"] = json!(multi_mean);
    // What "two Flex devices" are: Device::flex() has no index; FlexDevice is a unit struct.
    result["flex_devices"] = json!({
        "debug": format!("{:?}", Device::flex()),
        "equal": Device::flex() == Device::flex(),
    });
    println!("{}", serde_json::to_string_pretty(&result).unwrap());
}
