// Scratch: dump every fitted position (quiet, ply >= 6) of the given JSONL game files as
// little-endian i16 rows: game number, ply, result*2, phase, side, then 242 raw features,
// then the four bitboards as 2 x u16 each.
use gametree::games::checkers::features::{features, pattern_features, square_features};
use gametree::games::checkers::{Color, Position};
use std::io::Write;
fn main() {
    let mut out = std::io::BufWriter::new(std::fs::File::create("positions.bin").unwrap());
    let mut game_number: i32 = 0;
    let mut rows = 0u64;
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            let result = match record["result"].as_str().unwrap() {
                "1-0" => 2, "0-1" => 0, "1/2-1/2" => 1, _ => continue,
            };
            let mut position = match record.get("fen").and_then(|f| f.as_str()) {
                Some(fen) => Position::from_fen(fen).unwrap(),
                None => Position::initial(),
            };
            for (ply, mv) in record["moves"].as_array().unwrap().iter().enumerate() {
                if ply >= 6 && !position.has_capture() {
                    let f = features(&position);
                    let mut row: Vec<i16> = vec![game_number as i16, ply as i16, result, f.phase as i16,
                        (position.side_to_move() == Color::Black) as i16];
                    row.extend(f.values.iter().map(|&v| v as i16));
                    row.extend(square_features(&position).iter().map(|&v| v as i16));
                    row.extend(pattern_features(&position).iter().map(|&v| v as i16));
                    for b in [position.men(Color::Black), position.kings(Color::Black), position.men(Color::White), position.kings(Color::White)] {
                        let b = b as u32;
                        row.push((b & 0xffff) as u16 as i16);
                        row.push((b >> 16) as u16 as i16);
                    }
                    for v in row { out.write_all(&v.to_le_bytes()).unwrap(); }
                    rows += 1;
                }
                let mv = position.parse_move(mv.as_str().unwrap()).unwrap();
                position = position.play(mv);
            }
            game_number += 1;
        }
    }
    eprintln!("{game_number} games, {rows} rows, {} columns", 5 + 242 + 8);
}
