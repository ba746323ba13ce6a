// Logit weights (484, the columns_with_patterns order, after the points a logit) and, if
// given, the network (`export.py`'s netH.txt) -> a weights file.
use gametree::games::checkers::{LearnedWeights, Network};

fn numbers(path: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).expect("readable");
    text.split_whitespace().map(|w| w.parse().expect("a number")).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (linear, out) = (&args[1], &args[2]);
    let linear = numbers(linear);
    let ppl = linear[0];
    let mut weights = LearnedWeights::from_logit_weights(&linear[1..], ppl);
    let mut comment = "prototype: the linear part of a joint fit with a hidden layer".to_string();
    if let Some(net) = args.get(3) {
        let net = numbers(net);
        let units = net[0] as usize;
        let rest = &net[2..];
        let inputs = 130 * units;
        assert_eq!(units, gametree::games::checkers::network::UNITS);
        let network = Network::from_logits(
            &rest[..inputs],
            &rest[inputs..inputs + units],
            &rest[inputs + units..],
            net[1],
        )
        .expect("a network");
        weights = weights.with_network(Some(network));
        comment = format!(
            "A joint fit of the linear evaluation and a hidden layer of {units} units\n\
             (results/checkers-learning/network-prototype: nn.py {units} turned, export.py,\n\
             dump's mkweights), {ppl} points a logit."
        );
    }
    std::fs::write(out, weights.to_text(&comment)).expect("written");
}
