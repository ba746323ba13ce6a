//! Probe: does a small network on top of the shipped linear evaluation lower the held-out loss?
use gametree::games::checkers::{Color, LearnedWeights, Position};
use serde_json::Value;

const INPUTS: usize = 129;

struct Sample {
    black_view: Vec<u16>,
    white_view: Vec<u16>,
    base: f32,
    target: f32,
}

/// The active inputs of `position` from `color`'s view: own men, own kings, the other's men,
/// the other's kings (squares from `color`'s side), then 128 if `color` is to move.
fn view(position: &Position, color: Color) -> Vec<u16> {
    let mut active = Vec::with_capacity(25);
    let turn = |bits: u32| {
        if color == Color::Black {
            bits
        } else {
            bits.reverse_bits()
        }
    };
    let kings = position.kings(Color::Black) | position.kings(Color::White);
    for (block, (side, king)) in [
        (color, false),
        (color, true),
        (color.opponent(), false),
        (color.opponent(), true),
    ]
    .into_iter()
    .enumerate()
    {
        let pieces = position.pieces(side) & if king { kings } else { !kings };
        let mut bits = turn(pieces);
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            active.push((block * 32 + s) as u16);
        }
    }
    if position.side_to_move() == color {
        active.push(128);
    }
    active
}

struct Net {
    h: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
}

impl Net {
    fn hidden(&self, active: &[u16], out: &mut [f32]) {
        out.copy_from_slice(&self.b1);
        for &i in active {
            let row = &self.w1[i as usize * self.h..][..self.h];
            for k in 0..self.h {
                out[k] += row[k];
            }
        }
    }
    fn g(&self, pre: &[f32]) -> f32 {
        pre.iter()
            .zip(&self.w2)
            .map(|(&p, &w)| p.clamp(0.0, 1.0) * w)
            .sum()
    }
}

fn loss(p: f32, t: f32) -> f64 {
    let p = (p as f64).clamp(1e-9, 1.0 - 1e-9);
    -(t as f64 * p.ln() + (1.0 - t as f64) * (1.0 - p).ln())
}
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let h: usize = args[1].parse().unwrap();
    let epochs: usize = args[2].parse().unwrap();
    let lr: f32 = args[3].parse().unwrap();
    let weights = LearnedWeights::shipped();
    let points_per_logit = 89.0f32;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut game_index = 0;
    for file in &args[4..] {
        for line in std::fs::read_to_string(file).unwrap().lines() {
            if line.trim().is_empty() {
                continue;
            }
            let record: Value = serde_json::from_str(line).unwrap();
            let score = match record["result"].as_str().unwrap() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let mut position = Position::initial();
            for (ply, mv) in record["moves"].as_array().unwrap().iter().enumerate() {
                if ply >= 6 && !position.has_capture() {
                    let s = Sample {
                        black_view: view(&position, Color::Black),
                        white_view: view(&position, Color::White),
                        base: weights.evaluate(&position) as f32 / points_per_logit,
                        target: score,
                    };
                    if game_index % 5 == 4 {
                        held.push(s)
                    } else {
                        train.push(s)
                    }
                }
                let mv = position.parse_move(mv.as_str().unwrap()).unwrap();
                position = position.play(mv);
            }
            game_index += 1;
        }
    }
    eprintln!(
        "{game_index} games, {} training, {} held out",
        train.len(),
        held.len()
    );
    let base_loss = |set: &[Sample]| {
        set.iter()
            .map(|s| loss(sigmoid(s.base), s.target))
            .sum::<f64>()
            / set.len() as f64
    };
    eprintln!(
        "base: training {:.5} held out {:.5}",
        base_loss(&train),
        base_loss(&held)
    );
    // Init
    let mut seed = 0x9E3779B97F4A7C15u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        ((seed >> 11) as f64 / (1u64 << 53) as f64) as f32 - 0.5
    };
    let mut net = Net {
        h,
        w1: (0..INPUTS * h).map(|_| rnd() * 0.2).collect(),
        b1: (0..h).map(|_| 0.3 + rnd() * 0.1).collect(),
        w2: vec![0.0; h],
    };
    let n_params = INPUTS * h + 2 * h;
    let (mut m, mut v) = (vec![0f32; n_params], vec![0f32; n_params]);
    let mut grad = vec![0f32; n_params];
    let (b1o, w2o) = (INPUTS * h, INPUTS * h + h);
    let (mut pre_b, mut pre_w) = (vec![0f32; h], vec![0f32; h]);
    let eval = |net: &Net, s: &Sample, pre_b: &mut [f32], pre_w: &mut [f32]| {
        net.hidden(&s.black_view, pre_b);
        net.hidden(&s.white_view, pre_w);
        s.base + net.g(pre_b) - net.g(pre_w)
    };
    let batch = 256;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut t = 0i32;
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            let j = ((rnd() + 0.5) * (i + 1) as f32) as usize % (i + 1);
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &index in chunk {
                let s = &train[index];
                let f = eval(&net, s, &mut pre_b, &mut pre_w);
                let d = sigmoid(f) - s.target;
                for (pre, active, sign) in [
                    (&pre_b, &s.black_view, 1.0f32),
                    (&pre_w, &s.white_view, -1.0),
                ] {
                    for k in 0..h {
                        let a = pre[k];
                        grad[w2o + k] += d * sign * a.clamp(0.0, 1.0);
                        if a > 0.0 && a < 1.0 {
                            let dk = d * sign * net.w2[k];
                            grad[b1o + k] += dk;
                            for &i in active.iter() {
                                grad[i as usize * h + k] += dk;
                            }
                        }
                    }
                }
            }
            t += 1;
            let scale = 1.0 / chunk.len() as f32;
            let (b1c, b2c) = (1.0 - 0.9f32.powi(t), 1.0 - 0.999f32.powi(t));
            for p in 0..n_params {
                let g = grad[p] * scale;
                m[p] = 0.9 * m[p] + 0.1 * g;
                v[p] = 0.999 * v[p] + 0.001 * g * g;
                let step = lr * (m[p] / b1c) / ((v[p] / b2c).sqrt() + 1e-8);
                if p < b1o {
                    net.w1[p] -= step
                } else if p < w2o {
                    net.b1[p - b1o] -= step
                } else {
                    net.w2[p - w2o] -= step
                }
            }
        }
        let set_loss = |set: &[Sample], pb: &mut [f32], pw: &mut [f32]| {
            set.iter()
                .map(|s| loss(sigmoid(eval(&net, s, pb, pw)), s.target))
                .sum::<f64>()
                / set.len() as f64
        };
        let tr = set_loss(&train, &mut pre_b, &mut pre_w);
        let he = set_loss(&held, &mut pre_b, &mut pre_w);
        eprintln!("epoch {epoch}: training {tr:.5} held out {he:.5}");
    }
}
