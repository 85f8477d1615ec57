//! 遍历模型的参数: the rows of experiments/reference/ref-8-modules/parameters.yaml, one module a row;
//! rows() runs each one on the harness's inputs (main.rs) and hands its output to `row`.
use crate::*;

pub fn rows(row: &mut impl FnMut(&str, Value)) {
    let d = Device::flex();
    {
        let found = named_parameters::run(&d);
        row("named_parameters", json!({"names": found.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
            "numel": found.iter().map(|(_, k)| *k).collect::<Vec<_>>()}));
    }
}

mod named_parameters {
    use burn::module::{ModuleVisitor, Param};
    use burn::nn::{Linear, LinearConfig};
    use burn::prelude::*;

    #[derive(Module, Debug)]
    pub struct Net {
        pub fc1: Linear,
        pub fc2: Linear,
    }

    /// model.named_parameters()：ModuleVisitor 进出每个字段时记下名字，visit_float 时拼成路径
    #[derive(Default)]
    pub struct Named {
        path: Vec<String>,
        pub found: Vec<(String, usize)>,
    }

    impl ModuleVisitor for Named {
        fn enter_module(&mut self, name: &str, _container_type: &str) {
            self.path.push(name.to_string());
        }

        fn exit_module(&mut self, _name: &str, _container_type: &str) {
            self.path.pop();
        }

        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.found.push((self.path.join("."), param.val().shape().num_elements()));
        }
    }

    pub fn run(d: &Device) -> Vec<(String, usize)> {
        let net = Net { fc1: LinearConfig::new(4, 3).init(d), fc2: LinearConfig::new(3, 2).init(d) };
        let mut named = Named::default();
        net.visit(&mut named);
        named.found
    }
}
