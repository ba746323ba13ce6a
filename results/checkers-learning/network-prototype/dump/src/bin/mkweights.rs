// Scratch: logit weights (484, the columns_with_patterns order) and points a logit -> a weights file.
use gametree::games::checkers::LearnedWeights;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let numbers: Vec<f64> = text.split_whitespace().map(|w| w.parse().unwrap()).collect();
    let ppl = numbers[0];
    let weights = LearnedWeights::from_logit_weights(&numbers[1..], ppl);
    std::fs::write(&args[2], weights.to_text("prototype: the linear part of a joint fit with a hidden layer")).unwrap();
}
